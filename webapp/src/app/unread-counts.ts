import { type AppState, topicKey } from '../state/store';
import type { UnreadPlace } from '../state/types';

/** Zulip's topic visibility policies (user_topics). */
export const MUTED = 1;
export const UNMUTED = 2;
export const FOLLOWED = 3;

/** Whether an unread message is left out of counts, as Zulip leaves out muted conversations. */
export function isMutedPlace(state: AppState, place: UnreadPlace): boolean {
  if (place.kind === 'dm') return place.key.split(',').some((id) => state.mutedUsers.has(Number(id)));
  const sub = state.subscriptions.get(place.streamId);
  if (!sub) return true;
  const policy = state.userTopics.get(topicKey(place.streamId, place.topic));
  if (policy === MUTED) return true;
  if (sub.is_muted) return policy !== UNMUTED && policy !== FOLLOWED;
  return false;
}

export interface UnreadCounts {
  total: number;
  channels: Map<number, number>;
  /** `${streamId}:${topic lower-cased}` → count. */
  topics: Map<string, number>;
  dms: Map<string, number>;
  dmTotal: number;
  mentions: number;
}

export function unreadCounts(state: AppState): UnreadCounts {
  const counts: UnreadCounts = { total: 0, channels: new Map(), topics: new Map(), dms: new Map(), dmTotal: 0, mentions: 0 };
  for (const place of state.unread.values()) {
    if (place.kind === 'dm') {
      if (isMutedPlace(state, place)) continue;
      counts.dms.set(place.key, (counts.dms.get(place.key) ?? 0) + 1);
      counts.dmTotal++;
      counts.total++;
      continue;
    }
    // Muted topics still count in their own row, so that the topic list shows them.
    const key = topicKey(place.streamId, place.topic);
    counts.topics.set(key, (counts.topics.get(key) ?? 0) + 1);
    if (isMutedPlace(state, place)) continue;
    counts.channels.set(place.streamId, (counts.channels.get(place.streamId) ?? 0) + 1);
    counts.total++;
  }
  for (const id of state.mentions) {
    const place = state.unread.get(id);
    if (place && !isMutedPlace(state, place)) counts.mentions++;
  }
  return counts;
}

/** Memoized on the store's collections, so that components can call it on every render. */
let cache: { unread: unknown; subs: unknown; topics: unknown; muted: unknown; mentions: unknown; value: UnreadCounts } | null = null;
export function cachedUnreadCounts(state: AppState): UnreadCounts {
  if (
    cache &&
    cache.unread === state.unread &&
    cache.subs === state.subscriptions &&
    cache.topics === state.userTopics &&
    cache.muted === state.mutedUsers &&
    cache.mentions === state.mentions
  )
    return cache.value;
  const value = unreadCounts(state);
  cache = { unread: state.unread, subs: state.subscriptions, topics: state.userTopics, muted: state.mutedUsers, mentions: state.mentions, value };
  return value;
}
