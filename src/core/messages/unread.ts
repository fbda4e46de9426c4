import type { Knex } from 'knex';
import { FLAG_BITS } from './flags';
import { dmParticipants } from './model';
import { displayTopic } from './topics';
import { anyOf } from '../../db/lists';

/**
 * A user's unread messages, in Zulip's two forms: the raw one keyed by message id (what events
 * are applied to) and the aggregated `unread_msgs` of POST /register (pms, streams, huddles,
 * mentions, count, old_unreads_missing).
 *
 * Messages in channels the user unsubscribed from are left out (Zulip keeps unreads only where
 * one is subscribed). Stream messages count toward `count` unless muted: a muted channel (unless
 * the topic is unmuted or followed), or a muted topic.
 */
export const MAX_UNREAD_MESSAGES = 50_000;

export interface RawUnread {
  pm: Map<number, number>;
  streams: Map<number, { stream_id: number; topic: string }>;
  huddles: Map<number, string>;
  mentions: Set<number>;
  /** Stream messages that count (not muted). */
  unmuted: Set<number>;
  mutedStreamIds: Set<number>;
  /** Visibility policy per `${streamId}\u0000${lowercased topic}`. */
  topicPolicies: Map<string, number>;
  oldUnreadsMissing: boolean;
}

export const topicKey = (streamId: number, topic: string) => `${streamId}\u0000${topic.toLowerCase()}`;

export function isMutedIn(raw: Pick<RawUnread, 'mutedStreamIds' | 'topicPolicies'>, streamId: number, topic: string): boolean {
  const policy = raw.topicPolicies.get(topicKey(streamId, topic)) ?? 0;
  if (raw.mutedStreamIds.has(streamId)) return !(policy === 2 || policy === 3);
  return policy === 1;
}

export interface UnreadRow {
  message_id: number;
  flags: number;
  sender_id: number;
  stream_id: number | null;
  topic: string;
  dm_key: string | null;
}

export function emptyRawUnread(): RawUnread {
  return {
    pm: new Map(),
    streams: new Map(),
    huddles: new Map(),
    mentions: new Set(),
    unmuted: new Set(),
    mutedStreamIds: new Set(),
    topicPolicies: new Map(),
    oldUnreadsMissing: false,
  };
}

/** Files one unread message under its conversation (Zulip's extract_unread_data_from_um_rows). */
export function addUnread(raw: RawUnread, userId: number, row: UnreadRow): void {
  const id = row.message_id;
  if (row.stream_id !== null) {
    raw.streams.set(id, { stream_id: row.stream_id, topic: row.topic });
    if (!isMutedIn(raw, row.stream_id, row.topic)) raw.unmuted.add(id);
  } else if (row.dm_key !== null) {
    const participants = dmParticipants(row.dm_key);
    if (participants.length <= 2) {
      const other = participants.find((p) => p !== userId) ?? userId;
      raw.pm.set(id, other);
    } else {
      raw.huddles.set(id, row.dm_key);
    }
  }
  if (row.flags & FLAG_BITS.mentioned) raw.mentions.add(id);
  if (row.flags & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) {
    if (row.stream_id === null || raw.unmuted.has(id)) raw.mentions.add(id);
  }
}

export function removeUnread(raw: RawUnread, messageId: number): void {
  raw.pm.delete(messageId);
  raw.streams.delete(messageId);
  raw.huddles.delete(messageId);
  raw.mentions.delete(messageId);
  raw.unmuted.delete(messageId);
}

export async function loadMutingState(db: Knex, userId: number): Promise<Pick<RawUnread, 'mutedStreamIds' | 'topicPolicies'>> {
  const muted: { stream_id: number }[] = await db('subscriptions').where({ user_id: userId, active: true, is_muted: true }).select('stream_id');
  const topics: { stream_id: number; topic_name: string; visibility_policy: number }[] = await db('user_topics')
    .where('user_id', userId)
    .select('stream_id', 'topic_name', 'visibility_policy');
  return {
    mutedStreamIds: new Set(muted.map((r) => r.stream_id)),
    topicPolicies: new Map(topics.map((t) => [topicKey(t.stream_id, t.topic_name), t.visibility_policy])),
  };
}

/** Raw unread data: all unread messages, or the given messages (known to be unread) only. */
export async function loadRawUnread(db: Knex, userId: number, messageIds?: number[]): Promise<RawUnread> {
  const raw = { ...emptyRawUnread(), ...(await loadMutingState(db, userId)) };
  if (messageIds !== undefined && messageIds.length === 0) return raw;
  const query = db('user_messages as um')
    .join('messages as m', 'm.id', 'um.message_id')
    .where('um.user_id', userId)
    .whereNotExists((q) =>
      q.select(db.raw('1')).from('subscriptions as s').where('s.user_id', userId).whereRaw('s.stream_id = m.stream_id').where('s.active', false),
    )
    .select('um.message_id', 'um.flags', 'm.sender_id', 'm.stream_id', 'm.topic', 'm.dm_key')
    .orderBy('um.message_id', 'desc');
  if (messageIds !== undefined) query.whereRaw(...anyOf('um.message_id', messageIds));
  else query.whereRaw('(um.flags & 1) = 0').limit(MAX_UNREAD_MESSAGES);
  const rows: UnreadRow[] = await query;
  rows.reverse();
  for (const row of rows) addUnread(raw, userId, row);
  raw.oldUnreadsMissing = messageIds === undefined && rows.length === MAX_UNREAD_MESSAGES;
  return raw;
}

export interface UnreadMsgs {
  pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  count: number;
  old_unreads_missing: boolean;
}

const byId = (a: number, b: number) => a - b;

export function aggregateUnread(raw: RawUnread, allowEmptyTopicName: boolean): UnreadMsgs {
  const pms = new Map<number, number[]>();
  for (const [id, other] of raw.pm) pms.set(other, [...(pms.get(other) ?? []), id]);
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  for (const [id, { stream_id, topic }] of raw.streams) {
    const shown = displayTopic(topic, allowEmptyTopicName);
    const key = `${stream_id}\u0000${shown.toLowerCase()}`;
    const entry = streams.get(key) ?? { stream_id, topic: shown, unread_message_ids: [] };
    entry.unread_message_ids.push(id);
    streams.set(key, entry);
  }
  const huddles = new Map<string, number[]>();
  for (const [id, key] of raw.huddles) huddles.set(key, [...(huddles.get(key) ?? []), id]);
  const streamKey = (s: { stream_id: number; topic: string }) => [s.stream_id, s.topic.toLowerCase()] as const;
  return {
    pms: [...pms.entries()].sort(([a], [b]) => a - b).map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids.sort(byId) })),
    streams: [...streams.values()]
      .map((s) => ({ ...s, unread_message_ids: s.unread_message_ids.sort(byId) }))
      .sort((a, b) => {
        const [sa, ta] = streamKey(a);
        const [sb, tb] = streamKey(b);
        return sa - sb || (ta < tb ? -1 : ta > tb ? 1 : 0);
      }),
    huddles: [...huddles.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids.sort(byId) })),
    mentions: [...raw.mentions].sort(byId),
    count: raw.pm.size + raw.unmuted.size + raw.huddles.size,
    old_unreads_missing: raw.oldUnreadsMissing,
  };
}

export interface MessageDetails {
  type: 'stream' | 'private';
  mentioned?: boolean;
  user_ids?: number[];
  stream_id?: number;
  topic?: string;
  unmuted_stream_msg?: boolean;
}

/** `message_details` of an update_message_flags event marking messages unread. */
export function unreadMessageDetails(raw: RawUnread, userId: number): Record<string, MessageDetails> {
  const out: Record<string, MessageDetails> = {};
  for (const [id, other] of raw.pm) {
    out[id] = { type: 'private', user_ids: other === userId ? [] : [other] };
  }
  for (const [id, { stream_id, topic }] of raw.streams) {
    out[id] = { type: 'stream', stream_id, topic, unmuted_stream_msg: raw.unmuted.has(id) };
  }
  for (const [id, key] of raw.huddles) {
    out[id] = {
      type: 'private',
      user_ids: dmParticipants(key)
        .filter((p) => p !== userId)
        .sort(byId),
    };
  }
  for (const id of Object.keys(out)) if (raw.mentions.has(Number(id))) out[id].mentioned = true;
  return out;
}
