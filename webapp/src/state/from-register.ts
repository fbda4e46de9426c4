import { dmKey } from '../narrow/narrow';
import { type AppState, type TopicInfo, topicKey } from './store';
import type { ChannelRecord, DraftRecord, PresenceRecord, SubscriptionRecord, UnreadPlace, UserRecord } from './types';

type Json = Record<string, any>;

/** The app's state from POST /register's answer (the initialState query). Messages and lists are kept. */
export function stateFromRegister(r: Json, previous: AppState): Partial<AppState> {
  const me: number = r.user_id;
  const users = new Map<number, UserRecord>();
  for (const list of [r.realm_users, r.realm_non_active_users, r.cross_realm_bots]) {
    for (const u of (list ?? []) as UserRecord[]) users.set(u.user_id, u);
  }
  const subscriptions = new Map<number, SubscriptionRecord>();
  const channels = new Map<number, ChannelRecord>();
  for (const s of (r.subscriptions ?? []) as SubscriptionRecord[]) {
    subscriptions.set(s.stream_id, s);
    channels.set(s.stream_id, s);
  }
  for (const list of [r.unsubscribed, r.never_subscribed, r.streams]) {
    for (const c of (list ?? []) as ChannelRecord[]) if (!channels.has(c.stream_id)) channels.set(c.stream_id, c);
  }

  const unread = new Map<number, UnreadPlace>();
  const u = r.unread_msgs ?? {};
  for (const s of u.streams ?? []) for (const id of s.unread_message_ids) unread.set(id, { kind: 'stream', streamId: s.stream_id, topic: s.topic });
  for (const p of u.pms ?? []) {
    const other = p.other_user_id ?? p.sender_id;
    for (const id of p.unread_message_ids) unread.set(id, { kind: 'dm', key: dmKey([other], me) });
  }
  for (const h of u.huddles ?? []) {
    for (const id of h.unread_message_ids) unread.set(id, { kind: 'dm', key: dmKey(String(h.user_ids_string).split(',').map(Number), me) });
  }

  // Topics known so far: from unread messages and the recent conversations; the sidebar asks for more.
  const topics = new Map<number, Map<string, TopicInfo>>(previous.topics);
  const addTopic = (streamId: number, name: string, maxId: number) => {
    let own = topics.get(streamId);
    if (!own) topics.set(streamId, (own = new Map()));
    const key = name.toLowerCase();
    const known = own.get(key);
    if (!known || known.maxId < maxId) own.set(key, { name, maxId });
  };
  for (const s of u.streams ?? []) addTopic(s.stream_id, s.topic, Math.max(...s.unread_message_ids));

  const recentDms = new Map<string, { userIds: number[]; maxId: number }>();
  for (const c of r.recent_private_conversations ?? []) {
    const key = dmKey(c.user_ids, me);
    recentDms.set(key, { userIds: key.split(',').map(Number), maxId: c.max_message_id });
  }

  const presence = new Map<number, PresenceRecord>();
  for (const [id, p] of Object.entries((r.presences ?? {}) as Record<string, PresenceRecord>)) presence.set(Number(id), p);

  const userTopics = new Map<string, number>();
  for (const t of r.user_topics ?? []) userTopics.set(topicKey(t.stream_id, t.topic_name), t.visibility_policy);

  const userStatus = new Map<number, Json>();
  for (const [id, s] of Object.entries((r.user_status ?? {}) as Record<string, Json>)) userStatus.set(Number(id), s);

  const userGroups = new Map<number, any>();
  for (const g of r.realm_user_groups ?? []) userGroups.set(g.id, g);

  return {
    me,
    register: r,
    settings: r.user_settings ?? {},
    users,
    channels,
    subscriptions,
    unread,
    mentions: new Set<number>(u.mentions ?? []),
    topics,
    recentDms,
    presence,
    drafts: new Map<number, DraftRecord>((r.drafts ?? []).map((d: DraftRecord) => [d.id, d])),
    userTopics,
    mutedUsers: new Set<number>((r.muted_users ?? []).map((m: Json) => m.id)),
    userStatus,
    realmEmoji: r.realm_emoji ?? {},
    userGroups,
    alertWords: r.alert_words ?? [],
  };
}
