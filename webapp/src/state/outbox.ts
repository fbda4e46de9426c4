import { graphQLClient } from '../api/instance';
import { SendComposedMessage } from '../api/operations/compose';
import type { Addressee } from './compose-state';
import { onNewMessage } from './apply-event';
import { getApp, useApp } from './store';
import type { Msg } from './types';

/**
 * Messages this tab is sending. Each shows at once under the feed (the local echo, drawn by the
 * compose box, not in the message lists: only the server's messages carry ids there), and goes when
 * the server's copy reaches the store, by event or by a fetch, matched by the id sendMessage answers.
 * A failed send stays, marked failed, until retried or discarded; every try carries the same
 * idempotency key, so a retry of a send whose answer was lost never sends twice.
 */
interface Pending {
  localId: string;
  key: string;
  to: Addressee;
  content: string;
  timestamp: number;
  /** The server's id, once it answered. */
  realId: number | null;
  failed: boolean;
  error: string | null;
}

const pending = new Map<string, Pending>();

/** A random UUID; crypto.randomUUID exists only on secure origins (a server reached over plain HTTP is not one). */
function uuid(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** How long a send may go unanswered before it is shown as failed (it may still succeed). */
const SEND_TIMEOUT_MS = 20_000;

export interface OutboxEntry {
  localId: string;
  to: Addressee;
  content: string;
  timestamp: number;
  failed: boolean;
  error: string | null;
}

function mark(p: Pending, failed: boolean, error: string | null): void {
  p.failed = failed;
  p.error = error;
  notify();
}

// The echo goes once the server's copy is in the store, however it came.
useApp.subscribe((state) => {
  let changed = false;
  for (const p of pending.values()) {
    if (p.realId !== null && state.messages.has(p.realId)) {
      pending.delete(p.localId);
      changed = true;
    }
  }
  if (changed) notify();
});

const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

function sameConversation(p: Pending, m: Msg, me: number): boolean {
  if (p.to.kind === 'stream') return m.type === 'stream' && m.streamId === p.to.streamId && m.topic.toLowerCase() === p.to.topic.trim().toLowerCase();
  const others = m.recipients.map((r) => r.id).filter((id) => id !== me);
  return m.type === 'private' && others.length === p.to.userIds.length && p.to.userIds.every((id) => others.includes(id));
}

// A send whose answer was lost may still have arrived: one's own new message in the same
// conversation with the same text is taken for it (plain text only; otherwise Retry finds it).
onNewMessage((message) => {
  const me = getApp().me;
  if (message.senderId !== me) return;
  for (const p of pending.values()) {
    if (p.realId !== null || !sameConversation(p, message, me)) continue;
    const text = new DOMParser().parseFromString(message.content, 'text/html').body.textContent ?? '';
    if (normalize(text) !== normalize(p.content)) continue;
    pending.delete(p.localId);
    notify();
    return;
  }
});

async function attempt(p: Pending): Promise<void> {
  mark(p, false, null);
  const input = p.to.kind === 'stream' ? { channelId: p.to.streamId, topic: p.to.topic, content: p.content } : { userIds: p.to.userIds, content: p.content };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), SEND_TIMEOUT_MS);
  });
  const request = graphQLClient()
    .mutation(SendComposedMessage, { input: { ...input, readBySender: true, idempotencyKey: p.key } }, { requestPolicy: 'network-only' })
    .toPromise();
  const onAnswer = (result: Awaited<typeof request>) => {
    if (!pending.has(p.localId)) return;
    if (result.data?.sendMessage) {
      p.realId = Number(result.data.sendMessage.id);
      if (getApp().messages.has(p.realId)) pending.delete(p.localId);
      mark(p, false, null);
      return;
    }
    mark(p, true, result.error?.graphQLErrors[0]?.message ?? (result.error?.networkError ? 'Could not reach the server.' : 'The message could not be sent.'));
  };
  const first = await Promise.race([request, timeout]);
  clearTimeout(timer);
  if (first === 'timeout') {
    mark(p, true, 'The server has not answered yet.');
    // A late answer still counts: the message was sent once.
    void request.then(onAnswer);
    return;
  }
  onAnswer(first);
}

/** Sends a message with its local echo. */
export function sendMessage(to: Addressee, content: string): string {
  const localId = uuid();
  const p: Pending = { localId, key: uuid(), to, content, timestamp: Date.now(), realId: null, failed: false, error: null };
  pending.set(localId, p);
  notify();
  void attempt(p);
  return localId;
}

export function retrySend(localId: string): void {
  const p = pending.get(localId);
  if (p && p.realId === null) void attempt(p);
}

export function discardSend(localId: string): void {
  if (pending.delete(localId)) notify();
}

type Listener = () => void;
const listeners = new Set<Listener>();
let snapshot: OutboxEntry[] = [];
function notify(): void {
  snapshot = [...pending.values()].map(({ localId, to, content, timestamp, failed, error }) => ({ localId, to, content, timestamp, failed, error }));
  for (const listener of listeners) listener();
}

/** The messages being sent, and those that failed, for the view (useSyncExternalStore). */
export function subscribeOutbox(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
export const outboxEntries = (): OutboxEntry[] => snapshot;
