import type { Knex } from 'knex';
import type { ZulipEvent } from '../../realtime/bus';
import type { RegisterState, StateSlice } from '../register/slice';
import { dmKey, dmParticipants } from './model';
import { canonicalTopic } from './topics';
import { addUnread, aggregateUnread, isMutedIn, loadRawUnread, RawUnread, removeUnread, topicKey, UnreadMsgs } from './unread';

/**
 * POST /register slices of the messages feature:
 * - `message` → max_message_id; with `update_message_flags` → unread_msgs;
 * - `starred_messages` → starred_messages;
 * - `recent_private_conversations` → recent_private_conversations.
 *
 * `apply` takes events as published on the bus or as finalized for the client (topics shown as
 * "general chat" are read back as the empty topic) and tolerates repeats. The unread and recent
 * conversation slices keep their working data (per-message entries, muting) on a non-enumerable
 * property of the object they return, so the response stays exactly Zulip's shape.
 */
const RAW = Symbol('raw');

interface MessageLike {
  id: number;
  type: 'stream' | 'private';
  stream_id?: number;
  subject: string;
  sender_id: number;
  display_recipient: string | { id: number }[];
}

const idsOfEvent = (event: ZulipEvent): number[] =>
  (event.message_ids as number[] | undefined) ?? (event.message_id !== undefined ? [event.message_id as number] : []);

function attach<T extends object, R>(target: T, raw: R): T {
  Object.defineProperty(target, RAW, { value: raw, enumerable: false, writable: true });
  return target;
}

function rawOf<R>(target: object): R | undefined {
  return (target as Record<symbol, R>)[RAW];
}

// ---------------------------------------------------------------------------------------------
// unread_msgs

function refreshUnread(state: RegisterState, raw: RawUnread, allowEmptyTopicName: boolean): void {
  const fresh = aggregateUnread(raw, allowEmptyTopicName);
  const target = state.unread_msgs as UnreadMsgs & Record<string, unknown>;
  Object.assign(target, fresh);
}

function recomputeMuting(raw: RawUnread): void {
  raw.unmuted.clear();
  for (const [id, { stream_id, topic }] of raw.streams) if (!isMutedIn(raw, stream_id, topic)) raw.unmuted.add(id);
}

export function applyUnreadEvent(raw: RawUnread, userId: number, event: ZulipEvent): void {
  switch (event.type) {
    case 'message': {
      const flags = event.flags as string[];
      if (flags.includes('read')) return;
      const m = event.message as MessageLike;
      const participants = m.type === 'private' && Array.isArray(m.display_recipient) ? m.display_recipient.map((r) => r.id) : [];
      let bits = 0;
      if (flags.includes('mentioned')) bits |= 8;
      if (flags.includes('stream_wildcard_mentioned')) bits |= 16;
      if (flags.includes('topic_wildcard_mentioned')) bits |= 32;
      addUnread(raw, userId, {
        message_id: m.id,
        flags: bits,
        sender_id: m.sender_id,
        stream_id: m.type === 'stream' ? (m.stream_id ?? null) : null,
        topic: canonicalTopic(m.subject),
        dm_key: m.type === 'private' ? dmKey(participants) : null,
      });
      return;
    }
    case 'update_message_flags': {
      if (event.flag !== 'read') return;
      if (event.op === 'add') {
        if (event.all) {
          for (const id of [...raw.pm.keys(), ...raw.streams.keys(), ...raw.huddles.keys()]) removeUnread(raw, id);
        } else {
          for (const id of event.messages as number[]) removeUnread(raw, id);
        }
        return;
      }
      const details = (event.message_details ?? {}) as Record<
        string,
        { type: string; stream_id?: number; topic?: string; user_ids?: number[]; mentioned?: boolean }
      >;
      for (const id of event.messages as number[]) {
        const d = details[String(id)];
        if (!d) continue;
        addUnread(raw, userId, {
          message_id: id,
          flags: d.mentioned ? 8 : 0,
          sender_id: 0,
          stream_id: d.type === 'stream' ? (d.stream_id ?? null) : null,
          topic: canonicalTopic(d.topic ?? ''),
          dm_key: d.type === 'private' ? dmKey([...(d.user_ids ?? []), userId]) : null,
        });
      }
      return;
    }
    case 'delete_message':
      for (const id of idsOfEvent(event)) removeUnread(raw, id);
      return;
    case 'update_message': {
      for (const id of (event.message_ids as number[]) ?? []) {
        const entry = raw.streams.get(id);
        if (!entry) continue;
        if (event.new_stream_id !== undefined) entry.stream_id = event.new_stream_id as number;
        if (event.subject !== undefined) entry.topic = canonicalTopic(event.subject as string);
      }
      const id = event.message_id as number;
      if (raw.streams.has(id) || raw.pm.has(id) || raw.huddles.has(id)) {
        const flags = (event.flags as string[] | undefined) ?? [];
        const wildcard = flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned');
        if (flags.includes('mentioned') || (wildcard && (!raw.streams.has(id) || raw.unmuted.has(id)))) raw.mentions.add(id);
        else raw.mentions.delete(id);
      }
      recomputeMuting(raw);
      return;
    }
    case 'user_topic': {
      const key = topicKey(event.stream_id as number, canonicalTopic(event.topic_name as string));
      if (event.visibility_policy === 0) raw.topicPolicies.delete(key);
      else raw.topicPolicies.set(key, event.visibility_policy as number);
      recomputeMuting(raw);
      return;
    }
    case 'subscription': {
      if (event.op !== 'update' || (event.property !== 'is_muted' && event.property !== 'in_home_view')) return;
      const muted = event.property === 'is_muted' ? Boolean(event.value) : !event.value;
      if (muted) raw.mutedStreamIds.add(event.stream_id as number);
      else raw.mutedStreamIds.delete(event.stream_id as number);
      recomputeMuting(raw);
      return;
    }
    default:
      return;
  }
}

export const unreadSlice: StateSlice = {
  fetchTypes: ['message', 'update_message_flags'],
  async fetch(deps, user, options) {
    const raw = await loadRawUnread(deps.knex, user.id);
    return { unread_msgs: attach(aggregateUnread(raw, options.capabilities.empty_topic_name), raw) };
  },
  apply(state, event, user, options) {
    const raw = rawOf<RawUnread>(state.unread_msgs as object);
    if (!raw) return;
    applyUnreadEvent(raw, user.id, event);
    refreshUnread(state, raw, options.capabilities.empty_topic_name);
  },
};

// ---------------------------------------------------------------------------------------------
// max_message_id, starred_messages

export async function highestReceivedMessageId(db: Knex, userId: number): Promise<number> {
  const row = await db('user_messages').where('user_id', userId).max('message_id as id').first();
  return row?.id === null || row?.id === undefined ? -1 : Number(row.id);
}

/**
 * The latest ids the user received, kept beside max_message_id (under a symbol key, so it never
 * reaches clients but survives merging the slice into the response) so that deleting the latest
 * message can step back to the one before it, as a fresh fetch would.
 */
const LATEST_IDS = Symbol('latestReceivedIds');
const LATEST_KEPT = 100;

export const maxMessageIdSlice: StateSlice = {
  fetchTypes: ['message'],
  async fetch(deps, user) {
    const rows: { message_id: number }[] = await deps
      .knex('user_messages')
      .where('user_id', user.id)
      .orderBy('message_id', 'desc')
      .limit(LATEST_KEPT)
      .select('message_id');
    const state: RegisterState = { max_message_id: rows.length > 0 ? rows[0].message_id : -1 };
    (state as Record<symbol, unknown>)[LATEST_IDS] = new Set(rows.map((r) => r.message_id));
    return state;
  },
  apply(state, event) {
    const latest = ((state as Record<symbol, unknown>)[LATEST_IDS] as Set<number> | undefined) ?? new Set<number>();
    (state as Record<symbol, unknown>)[LATEST_IDS] = latest;
    if (event.type === 'message') {
      const id = (event.message as { id: number }).id;
      latest.add(id);
      state.max_message_id = Math.max(state.max_message_id as number, id);
    } else if (event.type === 'delete_message') {
      for (const id of idsOfEvent(event)) latest.delete(id);
      if (latest.size > 0) state.max_message_id = Math.max(...latest);
    }
  },
};

export const starredSlice: StateSlice = {
  fetchTypes: ['starred_messages'],
  async fetch(deps, user) {
    const rows: { message_id: number }[] = await deps
      .knex('user_messages')
      .where('user_id', user.id)
      .whereRaw('(flags & 2) <> 0')
      .orderBy('message_id')
      .limit(10000)
      .select('message_id');
    return { starred_messages: rows.map((r) => r.message_id) };
  },
  apply(state, event) {
    const starred = new Set(state.starred_messages as number[]);
    if (event.type === 'update_message_flags' && event.flag === 'starred') {
      for (const id of event.messages as number[]) {
        if (event.op === 'add') starred.add(id);
        else starred.delete(id);
      }
    } else if (event.type === 'delete_message') {
      for (const id of idsOfEvent(event)) starred.delete(id);
    } else {
      return;
    }
    state.starred_messages = [...starred].sort((a, b) => a - b);
  },
};

// ---------------------------------------------------------------------------------------------
// recent_private_conversations

/** How many of the user's latest direct messages the recent conversations are drawn from. */
export const RECENT_CONVERSATIONS_MESSAGES = 1000;

type Conversations = Map<string, Set<number>>;

function presentConversations(userId: number, conversations: Conversations) {
  const list = [...conversations.entries()]
    .filter(([, ids]) => ids.size > 0)
    .map(([key, ids]) => ({ max_message_id: Math.max(...ids), user_ids: dmParticipants(key).filter((id) => id !== userId) }))
    .sort((a, b) => b.max_message_id - a.max_message_id);
  return attach(list, conversations);
}

export const recentConversationsSlice: StateSlice = {
  fetchTypes: ['recent_private_conversations'],
  async fetch(deps, user) {
    const rows: { message_id: number; dm_key: string }[] = await deps
      .knex('user_messages as um')
      .join('messages as m', 'm.id', 'um.message_id')
      .where('um.user_id', user.id)
      .whereRaw('(um.flags & 2048) <> 0')
      .orderBy('um.message_id', 'desc')
      .limit(RECENT_CONVERSATIONS_MESSAGES)
      .select('um.message_id', 'm.dm_key');
    const conversations: Conversations = new Map();
    for (const row of rows) {
      const set = conversations.get(row.dm_key) ?? new Set<number>();
      set.add(row.message_id);
      conversations.set(row.dm_key, set);
    }
    return { recent_private_conversations: presentConversations(user.id, conversations) };
  },
  apply(state, event, user) {
    const presented = state.recent_private_conversations as { max_message_id: number; user_ids: number[] }[];
    // Rebuilt from the presented list when the state was copied (only the latest id is known then).
    const conversations = rawOf<Conversations>(presented) ?? new Map(presented.map((c) => [dmKey([...c.user_ids, user.id]), new Set([c.max_message_id])]));
    if (event.type === 'message') {
      const m = event.message as MessageLike;
      if (m.type !== 'private' || !Array.isArray(m.display_recipient)) return;
      const key = dmKey(m.display_recipient.map((r) => r.id));
      conversations.set(key, (conversations.get(key) ?? new Set()).add(m.id));
    } else if (event.type === 'delete_message' && event.message_type === 'private') {
      const gone = new Set(idsOfEvent(event));
      for (const ids of conversations.values()) for (const id of gone) ids.delete(id);
    } else {
      return;
    }
    state.recent_private_conversations = presentConversations(user.id, conversations);
  },
};
