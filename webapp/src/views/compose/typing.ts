import { graphQLClient } from '../../api/instance';
import { SetTypingMutation } from '../../api/operations/compose';
import { type Addressee, addresseeKey } from '../../state/compose-state';
import { getApp } from '../../state/store';

/**
 * Typing notifications as Zulip's clients time them: "start" when typing begins and again every
 * 10 s while it goes on, "stop" after 5 s without a keystroke, on sending, or when the conversation
 * changes. The user's settings may turn them off for channels or for direct messages.
 */
const RESEND_START_MS = 10_000;
const IDLE_STOP_MS = 5_000;

let current: { key: string; to: Addressee } | null = null;
let lastStart = 0;
let idleTimer: ReturnType<typeof setTimeout> | undefined;

function allowed(to: Addressee): boolean {
  const settings = getApp().settings;
  const setting = to.kind === 'stream' ? settings.send_stream_typing_notifications : settings.send_private_typing_notifications;
  return setting !== false;
}

function post(op: 'start' | 'stop', to: Addressee): void {
  const vars = to.kind === 'stream' ? { op, streamId: to.streamId, topic: to.topic } : { op, userIds: to.userIds };
  void graphQLClient().mutation(SetTypingMutation, vars, { requestPolicy: 'network-only' }).toPromise();
}

/** A keystroke in the message for `to`. */
export function noteTyping(to: Addressee, content: string): void {
  const key = addresseeKey(to);
  if (key === null || (to.kind === 'stream' && to.topic.trim() === '') || !allowed(to) || content.trim() === '') {
    stopTyping();
    return;
  }
  if (current && current.key !== key) stopTyping();
  const now = Date.now();
  if (!current || now - lastStart >= RESEND_START_MS) {
    current = { key, to };
    lastStart = now;
    post('start', to);
  }
  clearTimeout(idleTimer);
  idleTimer = setTimeout(stopTyping, IDLE_STOP_MS);
}

export function stopTyping(): void {
  clearTimeout(idleTimer);
  if (!current) return;
  post('stop', current.to);
  current = null;
}
