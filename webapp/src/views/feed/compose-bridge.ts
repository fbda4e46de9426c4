/**
 * How the feed hands text to the compose box ("Quote and reply") without importing it: the compose
 * box registers a handler; the feed calls `insertIntoCompose`. Without a handler the text is kept
 * and given to the next handler registered.
 */
export interface ComposeRequest {
  /** Markdown to insert at the cursor (or to start the message with). */
  text: string;
  /** Where the reply goes: a channel topic or a direct-message conversation. */
  to: { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; userIds: number[] };
}

type Handler = (request: ComposeRequest) => void;
let handler: Handler | null = null;
let waiting: ComposeRequest | null = null;

export function setComposeHandler(next: Handler | null): void {
  handler = next;
  if (handler && waiting) {
    const request = waiting;
    waiting = null;
    handler(request);
  }
}

export function getComposeHandler(): Handler | null {
  return handler;
}

export function insertIntoCompose(request: ComposeRequest): void {
  if (handler) handler(request);
  else waiting = request;
}
