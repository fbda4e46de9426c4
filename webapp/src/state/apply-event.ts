import type { ResultOf } from '../api/graphql';
import type { EventsSubscription } from '../api/operations/session';
import { dmKey, matchesNarrow, messageDmKey, type Narrow } from '../narrow/narrow';
import { fromEvent } from './convert';
import { type AppState, getApp, type MessageList, setApp, topicKey } from './store';
import type { Msg, UnreadPlace } from './types';

export type AppEvent = ResultOf<typeof EventsSubscription>['events'];
type Json = Record<string, any>;

/** Listeners for what the views react to beyond state (notifications, the local echo). */
type MessageListener = (message: Msg, raw: Json) => void;
const messageListeners = new Set<MessageListener>();
export function onNewMessage(listener: MessageListener): () => void {
  messageListeners.add(listener);
  return () => messageListeners.delete(listener);
}

export const isMention = (flags: string[]) =>
  flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned' || f === 'stream_wildcard_mentioned' || f === 'topic_wildcard_mentioned');

export function placeOf(message: Msg, me: number): UnreadPlace {
  return message.type === 'stream' ? { kind: 'stream', streamId: message.streamId!, topic: message.topic } : { kind: 'dm', key: messageDmKey(message, me) };
}

/** Adds a message to the store and to every open list it belongs in (idempotent). */
export function addMessages(state: AppState, incoming: Msg[], live: boolean): Partial<AppState> {
  const messages = new Map(state.messages);
  const unread = new Map(state.unread);
  const mentions = new Set(state.mentions);
  const topics = new Map(state.topics);
  const recentDms = new Map(state.recentDms);
  const lists = new Map(state.lists);
  for (const message of incoming) {
    const known = messages.get(message.id);
    messages.set(message.id, known && !live ? { ...known, ...message } : message);
    if (!live) continue;
    if (!message.flags.includes('read')) unread.set(message.id, placeOf(message, state.me));
    if (isMention(message.flags) && !message.flags.includes('read')) mentions.add(message.id);
    if (message.type === 'stream' && message.streamId !== null) {
      const own = new Map(topics.get(message.streamId) ?? []);
      own.set(message.topic.toLowerCase(), { name: message.topic, maxId: message.id });
      topics.set(message.streamId, own);
    } else {
      const key = messageDmKey(message, state.me);
      recentDms.set(key, { userIds: key.split(',').map(Number), maxId: message.id });
    }
    for (const [key, list] of lists) {
      if (!list.foundNewest || list.ids.includes(message.id)) continue;
      const narrow = JSON.parse(key).map(([operator, operand]: [string, string]) =>
        operator.startsWith('-') ? { operator: operator.slice(1), operand, negated: true } : { operator, operand },
      ) as Narrow;
      if (matchesNarrow(message, narrow, state.me) !== true) continue;
      lists.set(key, { ...list, ids: insertSorted(list.ids, message.id) });
    }
  }
  return { messages, unread, mentions, topics, recentDms, lists };
}

function insertSorted(ids: number[], id: number): number[] {
  const next = ids.slice();
  let i = next.length;
  while (i > 0 && next[i - 1] > id) i--;
  next.splice(i, 0, id);
  return next;
}

function patchMessages(state: AppState, ids: number[], change: (m: Msg) => Msg): Partial<AppState> {
  const messages = new Map(state.messages);
  for (const id of ids) {
    const m = messages.get(id);
    if (m) messages.set(id, change(m));
  }
  return { messages };
}

function removeFromLists(lists: Map<string, MessageList>, gone: Set<number>): Map<string, MessageList> {
  const next = new Map<string, MessageList>();
  for (const [key, list] of lists) next.set(key, list.ids.some((id) => gone.has(id)) ? { ...list, ids: list.ids.filter((id) => !gone.has(id)) } : list);
  return next;
}

function applyFlags(state: AppState, e: Json): Partial<AppState> {
  const ids: number[] = e.messages ?? [];
  const add = e.op === 'add';
  const flag: string = e.flag;
  const change: Partial<AppState> = patchMessages(state, ids, (m) => ({
    ...m,
    flags: add ? [...new Set([...m.flags, flag])] : m.flags.filter((f) => f !== flag),
  }));
  if (flag === 'read') {
    const unread = new Map(state.unread);
    const mentions = new Set(state.mentions);
    if (add && e.all) {
      unread.clear();
      mentions.clear();
    }
    for (const id of ids) {
      if (add) {
        unread.delete(id);
        mentions.delete(id);
        continue;
      }
      const m = state.messages.get(id);
      const details = e.messageDetails?.[id];
      if (m) unread.set(id, placeOf(m, state.me));
      else if (details?.type === 'stream') unread.set(id, { kind: 'stream', streamId: details.stream_id, topic: details.topic });
      else if (details) unread.set(id, { kind: 'dm', key: dmKey(details.user_ids ?? [], state.me) });
      if (details?.mentioned || (m && isMention(m.flags))) mentions.add(id);
    }
    Object.assign(change, { unread, mentions });
  }
  return change;
}

function applyUpdateMessage(state: AppState, e: Json): Partial<AppState> {
  const ids: number[] = e.messageIds ?? (e.messageId ? [e.messageId] : []);
  const moved = e.newStreamId != null || e.subject != null;
  const change = patchMessages(state, ids, (m) => {
    const next: Msg = { ...m };
    if (m.id === e.messageId && e.renderedContent != null) {
      next.content = e.renderedContent;
      if (!e.renderingOnly) next.lastEditTimestamp = e.editTimestamp;
      if (e.isMeMessage != null) next.isMeMessage = e.isMeMessage;
    }
    if (moved) {
      if (e.newStreamId != null) next.streamId = e.newStreamId;
      if (e.subject != null) next.topic = e.subject;
      next.lastMovedTimestamp = e.editTimestamp;
    }
    return next;
  });
  if (!moved) return change;
  // A moved message leaves the lists of its old place and joins those of its new one, as the server
  // would answer them now: lists narrowed to a channel or topic are asked again when next opened.
  const unread = new Map(state.unread);
  for (const id of ids) {
    const m = change.messages!.get(id);
    if (m && unread.has(id)) unread.set(id, placeOf(m, state.me));
  }
  const lists = new Map<string, MessageList>();
  for (const [key, list] of state.lists) {
    const mentionsPlace = key.includes('"channel"') || key.includes('"topic"');
    lists.set(key, mentionsPlace && list.ids.some((id) => ids.includes(id)) ? { ...list, ids: [], foundOldest: false, foundNewest: false } : list);
  }
  const topics = new Map(state.topics);
  const first = change.messages!.get(ids[0]);
  if (first?.streamId != null) {
    const own = new Map(topics.get(first.streamId) ?? []);
    const known = own.get(first.topic.toLowerCase());
    own.set(first.topic.toLowerCase(), { name: first.topic, maxId: Math.max(known?.maxId ?? 0, ...ids) });
    topics.set(first.streamId, own);
  }
  return { ...change, unread, lists, topics };
}

/** One event's change to the state. Events are idempotent here, so a replay after reconnecting is harmless. */
export function reduce(state: AppState, e: AppEvent): Partial<AppState> | null {
  const ev = e as Json;
  switch (e.__typename) {
    case 'MessageEvent': {
      const message = fromEvent(ev.message, ev.flags ?? []);
      return addMessages(state, [message], true);
    }
    case 'UpdateMessageEvent':
      return applyUpdateMessage(state, ev);
    case 'DeleteMessageEvent': {
      const gone = new Set<number>(ev.messageIds ?? [ev.messageId]);
      const messages = new Map(state.messages);
      const unread = new Map(state.unread);
      const mentions = new Set(state.mentions);
      for (const id of gone) {
        messages.delete(id);
        unread.delete(id);
        mentions.delete(id);
      }
      return { messages, unread, mentions, lists: removeFromLists(state.lists, gone) };
    }
    case 'UpdateMessageFlagsEvent':
      return applyFlags(state, ev);
    case 'ReactionEvent':
      return patchMessages(state, [ev.messageId], (m) => {
        const same = (r: Msg['reactions'][number]) => r.userId === ev.userId && r.emojiCode === ev.emojiCode && r.reactionType === ev.reactionType;
        const rest = m.reactions.filter((r) => !same(r));
        return {
          ...m,
          reactions: ev.op === 'add' ? [...rest, { emojiName: ev.emojiName, emojiCode: ev.emojiCode, reactionType: ev.reactionType, userId: ev.userId }] : rest,
        };
      });
    case 'SubmessageEvent':
      return patchMessages(state, [ev.messageId], (m) => {
        const known = m.submessages ?? [];
        if (known.some((s) => s.id === ev.submessageId)) return m;
        const added = { id: ev.submessageId, senderId: ev.senderId, msgType: ev.msgType, content: ev.content };
        return { ...m, submessages: [...known, added].sort((a, b) => a.id - b.id) };
      });
    case 'TypingEvent': {
      const senderId: number = ev.sender?.user_id;
      if (senderId === state.me) return null;
      const key =
        ev.messageType === 'stream'
          ? `stream:${topicKey(ev.streamId, ev.topic ?? '')}`
          : `dm:${dmKey([...(ev.recipients ?? []).map((r: Json) => r.user_id)], state.me)}`;
      const typing = new Map(state.typing);
      const who = new Map(typing.get(key) ?? []);
      if (ev.op === 'start') who.set(senderId, Date.now() + 15_000);
      else who.delete(senderId);
      typing.set(key, who);
      return { typing };
    }
    case 'PresenceEvent': {
      const presence = new Map(state.presence);
      for (const [id, p] of Object.entries((ev.presences ?? {}) as Record<string, Json>)) presence.set(Number(id), p as any);
      return { presence };
    }
    case 'SubscriptionEvent':
      return applySubscription(state, ev);
    case 'StreamEvent':
      return applyStream(state, ev);
    case 'RealmUserEvent': {
      const users = new Map(state.users);
      const person = ev.person as Json;
      const known = users.get(person.user_id);
      if (ev.op === 'add') users.set(person.user_id, person as any);
      else if (ev.op === 'remove') users.delete(person.user_id);
      else if (known) {
        const patch: Json = { ...person };
        if ('role' in patch) {
          patch.is_admin = patch.role <= 200;
          patch.is_owner = patch.role === 100;
          patch.is_guest = patch.role === 600;
        }
        if (patch.custom_profile_field) {
          const field = patch.custom_profile_field;
          patch.profile_data = { ...(known.profile_data ?? {}), [field.id]: { value: field.value, rendered_value: field.rendered_value } };
          delete patch.custom_profile_field;
        }
        users.set(person.user_id, { ...known, ...patch });
      }
      return { users };
    }
    case 'RealmEvent': {
      const register = { ...state.register };
      if (ev.op === 'update') register[`realm_${ev.property}`] = ev.value;
      else if (ev.op === 'update_dict') for (const [k, v] of Object.entries(ev.data ?? {})) register[`realm_${k}`] = v;
      return { register };
    }
    case 'RealmEmojiEvent':
      return { realmEmoji: ev.realmEmoji ?? {} };
    case 'UserSettingsEvent':
      return { settings: { ...state.settings, [ev.property]: ev.value } };
    case 'UserTopicEvent': {
      const userTopics = new Map(state.userTopics);
      if (ev.visibilityPolicy === 0) userTopics.delete(topicKey(ev.streamId, ev.topicName));
      else userTopics.set(topicKey(ev.streamId, ev.topicName), ev.visibilityPolicy);
      return { userTopics };
    }
    case 'MutedUsersEvent':
      return { mutedUsers: new Set((ev.mutedUsers ?? []).map((m: Json) => m.id)) };
    case 'DraftsEvent': {
      const drafts = new Map(state.drafts);
      if (ev.op === 'remove') drafts.delete(ev.draftId);
      else for (const d of ev.drafts ?? (ev.draft ? [ev.draft] : [])) drafts.set(d.id, d);
      return { drafts };
    }
    case 'UserStatusEvent': {
      const userStatus = new Map(state.userStatus);
      const known = userStatus.get(ev.userId) ?? {};
      const patch: Json = {};
      if (ev.away != null) patch.away = ev.away;
      if (ev.statusText != null) patch.status_text = ev.statusText;
      if (ev.emojiName != null) Object.assign(patch, { emoji_name: ev.emojiName, emoji_code: ev.emojiCode, reaction_type: ev.reactionType });
      userStatus.set(ev.userId, { ...known, ...patch });
      return { userStatus };
    }
    case 'UserGroupEvent': {
      const userGroups = new Map(state.userGroups);
      const group = userGroups.get(ev.groupId);
      if (ev.op === 'add') userGroups.set(ev.group.id, ev.group);
      else if (ev.op === 'remove') userGroups.delete(ev.groupId);
      else if (group && ev.op === 'update') userGroups.set(ev.groupId, { ...group, ...ev.data });
      else if (group && ev.op === 'add_members') userGroups.set(ev.groupId, { ...group, members: [...new Set([...group.members, ...ev.userIds])] });
      else if (group && ev.op === 'remove_members') userGroups.set(ev.groupId, { ...group, members: group.members.filter((id) => !ev.userIds.includes(id)) });
      return { userGroups };
    }
    case 'AlertWordsEvent':
      return { alertWords: ev.alertWords ?? [] };
    case 'CustomProfileFieldsEvent':
      return { register: { ...state.register, custom_profile_fields: ev.fields ?? [] } };
    case 'RealmExportEvent':
      return { realmExports: ev.exports ?? [] };
    case 'SavedSnippetsEvent': {
      const known = (state.register.saved_snippets ?? []) as Json[];
      const gone = ev.op === 'remove' ? ev.savedSnippetId : ev.savedSnippet?.id;
      const rest = known.filter((x) => x.id !== gone);
      return { register: { ...state.register, saved_snippets: ev.op === 'remove' ? rest : [...rest, ev.savedSnippet] } };
    }
    default:
      return null;
  }
}

function applySubscription(state: AppState, e: Json): Partial<AppState> | null {
  const subscriptions = new Map(state.subscriptions);
  const channels = new Map(state.channels);
  switch (e.op) {
    case 'add':
      for (const s of e.subscriptions ?? []) {
        subscriptions.set(s.stream_id, s);
        channels.set(s.stream_id, s);
      }
      break;
    case 'remove':
      for (const s of e.subscriptions ?? []) subscriptions.delete(s.stream_id);
      break;
    case 'update': {
      const known = subscriptions.get(e.streamId);
      if (known) subscriptions.set(e.streamId, { ...known, [e.property]: e.value });
      break;
    }
    case 'peer_add':
    case 'peer_remove':
      return null;
    default:
      return null;
  }
  return { subscriptions, channels };
}

function applyStream(state: AppState, e: Json): Partial<AppState> | null {
  const subscriptions = new Map(state.subscriptions);
  const channels = new Map(state.channels);
  if (e.op === 'create') for (const c of e.streams ?? []) channels.set(c.stream_id, c);
  else if (e.op === 'delete') {
    for (const c of e.streams ?? []) {
      channels.delete(c.stream_id);
      subscriptions.delete(c.stream_id);
    }
  } else if (e.op === 'update') {
    const patch: Json = { [e.property]: e.value };
    if (e.property === 'description' && e.renderedDescription != null) patch.rendered_description = e.renderedDescription;
    const c = channels.get(e.streamId);
    if (c) channels.set(e.streamId, { ...c, ...patch });
    const s = subscriptions.get(e.streamId);
    if (s) subscriptions.set(e.streamId, { ...s, ...patch });
  } else return null;
  return { subscriptions, channels };
}

/** Applies one event to the store and tells the listeners of new messages. */
export function applyEvent(e: AppEvent): void {
  const change = reduce(getApp(), e);
  if (change) setApp(change);
  if (e.__typename === 'MessageEvent') {
    const ev = e as Json;
    const message = getApp().messages.get(ev.message.id);
    if (message) for (const listener of messageListeners) listener(message, ev.message);
  }
}
