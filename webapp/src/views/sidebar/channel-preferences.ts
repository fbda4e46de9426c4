import { lookup } from '../../app/lookup';
import { MUTED, type UnreadCounts } from '../../app/unread-counts';
import { narrowHash } from '../../narrow/hash';
import { type AppState, topicKey } from '../../state/store';
import type { SubscriptionRecord } from '../../state/types';

/**
 * How the user's settings shape the channel list, as in Zulip: where a channel's link leads
 * (`web_channel_default_view`), which channels are demoted as inactive (`demote_inactive_streams`)
 * and which show their unread count (`web_stream_unreads_count_display_policy`).
 */

/** The parts of the state these read (so that the list re-renders only when they change). */
export type ListState = Pick<AppState, 'settings' | 'topics' | 'userTopics' | 'subscriptions'>;

const TOP_TOPIC = 1;
const TOP_UNREAD_TOPIC = 4;

export const channelFeedHash = (streamId: number) => narrowHash([{ operator: 'channel', operand: String(streamId) }], lookup);

const topicHash = (streamId: number, topic: string) =>
  narrowHash(
    [
      { operator: 'channel', operand: String(streamId) },
      { operator: 'topic', operand: topic },
    ],
    lookup,
  );

/** Whether the link needs the channel's topics (and they are not known yet). */
export function needsTopics(state: ListState, streamId: number): boolean {
  const view = Number(state.settings.web_channel_default_view ?? TOP_TOPIC);
  return (view === TOP_TOPIC || view === TOP_UNREAD_TOPIC) && (state.topics.get(streamId)?.size ?? 0) === 0;
}

/**
 * Where a click on the channel leads: its newest topic, its newest topic with unread messages (else
 * the newest), or the channel's feed. Zulip's "list of topics" has no view of its own here: it opens
 * the channel's feed, with all its topics listed under it in the sidebar.
 */
export function channelLinkHash(state: ListState, streamId: number, counts: UnreadCounts): string {
  const view = Number(state.settings.web_channel_default_view ?? TOP_TOPIC);
  if (view !== TOP_TOPIC && view !== TOP_UNREAD_TOPIC) return channelFeedHash(streamId);
  const topics = [...(state.topics.get(streamId)?.values() ?? [])].sort((a, b) => b.maxId - a.maxId);
  const unmuted = topics.filter((t) => state.userTopics.get(topicKey(streamId, t.name)) !== MUTED);
  const unread = view === TOP_UNREAD_TOPIC ? unmuted.find((t) => (counts.topics.get(topicKey(streamId, t.name)) ?? 0) > 0) : undefined;
  const top = unread ?? unmuted[0] ?? topics[0];
  return top ? topicHash(streamId, top.name) : channelFeedHash(streamId);
}

/** Zulip's demote_inactive_streams: 1 automatically (with 20 channels or more), 2 always, 3 never. */
export function demotesInactive(state: ListState): boolean {
  const policy = Number(state.settings.demote_inactive_streams ?? 1);
  if (policy === 2) return true;
  if (policy === 3) return false;
  return state.subscriptions.size >= 20;
}

/** A channel without recent messages, as the server marks it; pinned channels are never demoted. */
export const isInactive = (sub: SubscriptionRecord) => !sub.pin_to_top && sub.is_recently_active === false;

/**
 * What a channel's row shows of its unread messages: a number, a dot (there are unread messages,
 * but the user asked not to count them), or nothing. Policies: 1 all channels, 2 unmuted channels
 * and topics, 3 none.
 */
export function channelUnreadDisplay(state: ListState, sub: SubscriptionRecord, counts: UnreadCounts): { count: number; dot: boolean } {
  const policy = Number(state.settings.web_stream_unreads_count_display_policy ?? 2);
  const unmutedCount = counts.channels.get(sub.stream_id) ?? 0;
  // Every unread message of the channel but those of topics the user muted.
  let all = unmutedCount;
  if (sub.is_muted) {
    all = 0;
    for (const [key, n] of counts.topics) {
      if (key.startsWith(`${sub.stream_id}:`) && state.userTopics.get(key) !== MUTED) all += n;
    }
  }
  if (policy === 3) return { count: 0, dot: all > 0 };
  if (policy === 1) return { count: all, dot: false };
  if (sub.is_muted && unmutedCount === 0) return { count: 0, dot: all > 0 };
  return { count: unmutedCount, dot: false };
}
