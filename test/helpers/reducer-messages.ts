/**
 * The messaging part of the client-side register model (see reducer.ts): max_message_id,
 * unread_msgs, starred_messages, recent_private_conversations, user_topics and muted_topics, kept
 * the way a client keeps them from events alone.
 *
 * unread_msgs is taken apart into one entry per unread message, changed, and put back together
 * in the register's layout; its `count` is recomputed from the client's own muting state (muted
 * channels in `subscriptions`, topic policies in `user_topics`), as a client counts unreads.
 *
 * What no client can know from events is refused with an error rather than guessed: deleting the
 * latest message of a conversation or the latest message overall (the one before it is unknown).
 */
type State = Record<string, any>;
type Event = Record<string, any> & { type: string };

interface UnreadEntry {
  id: number;
  /** 'stream', 'pm' (one other person, or oneself) or 'huddle'. */
  kind: 'stream' | 'pm' | 'huddle';
  stream_id?: number;
  topic?: string;
  other_user_id?: number;
  user_ids_string?: string;
}

interface Unread {
  entries: Map<number, UnreadEntry>;
  mentions: Set<number>;
  oldUnreadsMissing: boolean;
}

const ascending = (a: number, b: number) => a - b;
const lower = (s: string) => s.toLowerCase();
const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const UNMUTED = 2;
const FOLLOWED = 3;
const MUTED = 1;

function readUnread(unread: State): Unread {
  const entries = new Map<number, UnreadEntry>();
  for (const pm of unread.pms) for (const id of pm.unread_message_ids) entries.set(id, { id, kind: 'pm', other_user_id: pm.other_user_id });
  for (const s of unread.streams) for (const id of s.unread_message_ids) entries.set(id, { id, kind: 'stream', stream_id: s.stream_id, topic: s.topic });
  for (const h of unread.huddles) for (const id of h.unread_message_ids) entries.set(id, { id, kind: 'huddle', user_ids_string: h.user_ids_string });
  return { entries, mentions: new Set(unread.mentions), oldUnreadsMissing: unread.old_unreads_missing };
}

function topicPolicy(state: State, streamId: number, topic: string): number {
  const entry = (state.user_topics ?? []).find((t: State) => t.stream_id === streamId && lower(t.topic_name) === lower(topic));
  return entry?.visibility_policy ?? 0;
}

function isMuted(state: State, streamId: number, topic: string): boolean {
  const policy = topicPolicy(state, streamId, topic);
  const sub = (state.subscriptions ?? []).find((s: State) => s.stream_id === streamId);
  if (sub?.is_muted) return policy !== UNMUTED && policy !== FOLLOWED;
  return policy === MUTED;
}

function writeUnread(state: State, unread: Unread): void {
  const ordered = [...unread.entries.values()].sort((a, b) => a.id - b.id);
  const pms = new Map<number, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const huddles = new Map<string, number[]>();
  let count = 0;
  for (const e of ordered) {
    if (e.kind === 'pm') {
      pms.set(e.other_user_id!, [...(pms.get(e.other_user_id!) ?? []), e.id]);
      count += 1;
    } else if (e.kind === 'huddle') {
      huddles.set(e.user_ids_string!, [...(huddles.get(e.user_ids_string!) ?? []), e.id]);
      count += 1;
    } else {
      const key = `${e.stream_id}\u0000${lower(e.topic!)}`;
      const group = streams.get(key) ?? { stream_id: e.stream_id!, topic: e.topic!, unread_message_ids: [] };
      group.unread_message_ids.push(e.id);
      streams.set(key, group);
      if (!isMuted(state, e.stream_id!, e.topic!)) count += 1;
    }
  }
  state.unread_msgs = {
    pms: [...pms].sort(([a], [b]) => a - b).map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()].sort((a, b) => a.stream_id - b.stream_id || compareText(lower(a.topic), lower(b.topic))),
    huddles: [...huddles].sort(([a], [b]) => compareText(a, b)).map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions: [...unread.mentions].filter((id) => unread.entries.has(id)).sort(ascending),
    count,
    old_unreads_missing: unread.oldUnreadsMissing,
  };
}

/** The conversation of a direct message from the reader's side: its participants other than the reader. */
function directEntry(id: number, others: number[], self: number): UnreadEntry {
  if (others.length <= 1) return { id, kind: 'pm', other_user_id: others[0] ?? self };
  return { id, kind: 'huddle', user_ids_string: [...new Set([...others, self])].sort(ascending).join(',') };
}

function withUnread(state: State, change: (unread: Unread) => void): void {
  if (!state.unread_msgs) return;
  const unread = readUnread(state.unread_msgs);
  change(unread);
  writeUnread(state, unread);
}

const WILDCARD_FLAGS = ['wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned'];

function onMessage(state: State, event: Event, ctx: { userId: number }): void {
  const m = event.message;
  const flags: string[] = event.flags ?? [];
  if ('max_message_id' in state) state.max_message_id = Math.max(state.max_message_id, m.id);
  if (m.type === 'private' && state.recent_private_conversations) {
    const others = (m.display_recipient as { id: number }[])
      .map((r) => r.id)
      .filter((id) => id !== ctx.userId)
      .sort(ascending);
    const list: State[] = state.recent_private_conversations;
    const same = list.find((c) => JSON.stringify(c.user_ids) === JSON.stringify(others));
    if (same) same.max_message_id = Math.max(same.max_message_id, m.id);
    else list.push({ max_message_id: m.id, user_ids: others });
    list.sort((a, b) => b.max_message_id - a.max_message_id);
  }
  if (flags.includes('read')) return;
  withUnread(state, (unread) => {
    if (m.type === 'stream') {
      unread.entries.set(m.id, { id: m.id, kind: 'stream', stream_id: m.stream_id, topic: m.subject });
      if (flags.includes('mentioned') || (flags.some((f) => WILDCARD_FLAGS.includes(f)) && !isMuted(state, m.stream_id, m.subject))) {
        unread.mentions.add(m.id);
      }
    } else {
      const others = (m.display_recipient as { id: number }[]).map((r) => r.id).filter((id) => id !== ctx.userId);
      unread.entries.set(m.id, directEntry(m.id, others, ctx.userId));
      if (flags.includes('mentioned') || flags.some((f) => WILDCARD_FLAGS.includes(f))) unread.mentions.add(m.id);
    }
  });
}

function onFlags(state: State, event: Event, ctx: { userId: number }): void {
  const ids: number[] = event.messages;
  if (event.flag === 'starred' && state.starred_messages) {
    const starred = new Set<number>(state.starred_messages);
    for (const id of ids) {
      if (event.op === 'add') starred.add(id);
      else starred.delete(id);
    }
    state.starred_messages = [...starred].sort(ascending);
  }
  if (event.flag !== 'read') return;
  withUnread(state, (unread) => {
    if (event.op === 'add') {
      if (event.all) unread.entries.clear();
      for (const id of ids) unread.entries.delete(id);
      return;
    }
    for (const id of ids) {
      const details = event.message_details[id];
      if (details.type === 'stream') unread.entries.set(id, { id, kind: 'stream', stream_id: details.stream_id, topic: details.topic });
      else unread.entries.set(id, directEntry(id, details.user_ids, ctx.userId));
      if (details.mentioned) unread.mentions.add(id);
    }
  });
}

function onDelete(state: State, event: Event): void {
  const ids: number[] = event.message_ids ?? [event.message_id];
  if ('max_message_id' in state && ids.includes(state.max_message_id)) {
    throw new Error('a client cannot know max_message_id after its latest message was deleted');
  }
  if (event.message_type === 'private' && state.recent_private_conversations?.some((c: State) => ids.includes(c.max_message_id))) {
    throw new Error('a client cannot know a conversation’s previous message after its latest was deleted');
  }
  if (state.starred_messages) state.starred_messages = state.starred_messages.filter((id: number) => !ids.includes(id));
  withUnread(state, (unread) => {
    for (const id of ids) unread.entries.delete(id);
  });
}

function onUpdateMessage(state: State, event: Event): void {
  const ids: number[] = event.message_ids ?? [event.message_id];
  const flags: string[] = event.flags ?? [];
  withUnread(state, (unread) => {
    if ('rendered_content' in event && unread.entries.has(event.message_id)) {
      // A content edit recomputes mentions.
      const entry = unread.entries.get(event.message_id)!;
      const wildcard = flags.some((f) => WILDCARD_FLAGS.includes(f)) && (entry.kind !== 'stream' || !isMuted(state, entry.stream_id!, entry.topic!));
      if (flags.includes('mentioned') || wildcard) unread.mentions.add(event.message_id);
      else unread.mentions.delete(event.message_id);
    }
    const newTopic = event.subject;
    const newStream = event.new_stream_id;
    if (newTopic === undefined && newStream === undefined) return;
    for (const id of ids) {
      const entry = unread.entries.get(id);
      if (!entry || entry.kind !== 'stream') continue;
      if (newStream !== undefined) entry.stream_id = newStream;
      if (newTopic !== undefined) entry.topic = newTopic;
    }
  });
}

function onUserTopic(state: State, event: Event): void {
  if (!state.user_topics) return;
  const key = lower(event.topic_name);
  const list: State[] = state.user_topics.filter((t: State) => !(t.stream_id === event.stream_id && lower(t.topic_name) === key));
  if (event.visibility_policy !== 0) {
    list.push({ stream_id: event.stream_id, topic_name: event.topic_name, last_updated: event.last_updated, visibility_policy: event.visibility_policy });
  }
  state.user_topics = list.sort((a, b) => a.stream_id - b.stream_id || compareText(lower(a.topic_name), lower(b.topic_name)));
  // Muting changes which unread messages count.
  withUnread(state, () => {});
}

/** Recounts unreads after a channel's muting changed or the reader left it. */
export function afterSubscriptionEvent(state: State, event: Event): void {
  if (event.type !== 'subscription') return;
  withUnread(state, (unread) => {
    if (event.op !== 'remove') return;
    // Unread messages of channels one left are no longer listed.
    const left = new Set((event.subscriptions as State[]).map((s) => s.stream_id));
    for (const [id, entry] of unread.entries) if (entry.kind === 'stream' && left.has(entry.stream_id!)) unread.entries.delete(id);
  });
}

export const messageReducers: Record<string, (state: State, event: Event, ctx: { userId: number }) => void> = {
  message: onMessage,
  update_message_flags: onFlags,
  delete_message: (state, event) => onDelete(state, event),
  update_message: (state, event) => onUpdateMessage(state, event),
  user_topic: (state, event) => onUserTopic(state, event),
  muted_topics: (state, event) => {
    if ('muted_topics' in state) state.muted_topics = structuredClone(event.muted_topics);
  },
  // Reactions and submessages live on messages, which the register state does not hold.
  reaction: () => {},
  submessage: () => {},
};
