import { canonicalOperator, type Narrow } from '../narrow/narrow';
import { markRead } from './message-lists';
import { getApp } from './store';

/**
 * Reading by looking: messages the user has seen (shown in the viewport while the window has focus)
 * are collected and marked read together, at most every 500 ms, so that scrolling through a long
 * list makes a few requests rather than one per message.
 */

const FLUSH_MS = 500;
const seen = new Set<number>();
let timer: ReturnType<typeof setTimeout> | null = null;

/** A view of one conversation: a topic of a channel, or a direct-message conversation. */
export function isConversationNarrow(narrow: Narrow): boolean {
  const operators = narrow.filter((t) => !t.negated).map((t) => canonicalOperator(t.operator));
  if (narrow.some((t) => t.negated)) return false;
  const rest = operators.filter((o) => o !== 'near' && o !== 'with');
  if (rest.length === 1 && rest[0] === 'dm') return true;
  return rest.length === 2 && rest.includes('channel') && rest.includes('topic');
}

/**
 * Zulip's `web_mark_read_on_scroll_policy`: 1 always, 2 only in conversation views, 3 never.
 * Search results are never marked read by scrolling, as in Zulip.
 */
export function marksReadOnScroll(policy: unknown, narrow: Narrow): boolean {
  if (narrow.some((t) => canonicalOperator(t.operator) === 'search')) return false;
  const value = typeof policy === 'number' ? policy : 1;
  if (value === 3) return false;
  if (value === 2) return isConversationNarrow(narrow);
  return true;
}

/** Whether the user can be looking at the page now. */
export function pageHasAttention(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/** Notes messages the user has just seen; those still unread are marked read shortly. */
export function noteSeen(ids: Iterable<number>): void {
  const { unread } = getApp();
  for (const id of ids) if (unread.has(id)) seen.add(id);
  if (seen.size > 0 && timer === null) timer = setTimeout(flush, FLUSH_MS);
}

function flush(): void {
  timer = null;
  const ids = [...seen];
  seen.clear();
  // A failure leaves them unread; they are noted again when next seen.
  if (ids.length > 0) void markRead(ids).catch(() => undefined);
}

/**
 * After "Mark as unread" the messages stay unread while the user stays in that view (as in Zulip):
 * reading resumes when another view opens.
 */
let pausedList: string | null = null;

export function pauseReading(listKey: string): void {
  pausedList = listKey;
}

export function resumeReading(): void {
  pausedList = null;
}

export function readingPaused(listKey: string): boolean {
  return pausedList === listKey;
}
