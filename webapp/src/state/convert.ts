import type { ResultOf } from '../api/graphql';
import type { MessageFields } from '../api/operations/messages';
import type { Msg, Recipient } from './types';

type GraphQLMessage = ResultOf<typeof MessageFields>;

/** A message as the messages query returns it. */
export function fromGraphQL(m: GraphQLMessage): Msg {
  return {
    id: Number(m.id),
    type: m.type === 'stream' ? 'stream' : 'private',
    senderId: m.senderId,
    senderFullName: m.senderFullName,
    senderEmail: m.senderEmail,
    avatarUrl: m.avatarUrl ?? null,
    streamId: m.streamId ?? null,
    topic: m.topic,
    content: m.content,
    timestamp: m.timestamp,
    flags: m.flags,
    lastEditTimestamp: m.lastEditTimestamp ?? null,
    lastMovedTimestamp: m.lastMovedTimestamp ?? null,
    isMeMessage: m.isMeMessage,
    recipients: (m.directRecipients ?? []).map((r) => ({ id: Number(r.id), email: r.email, fullName: r.fullName })),
    reactions: m.reactions.map((r) => ({ emojiName: r.emojiName, emojiCode: r.emojiCode, reactionType: r.reactionType, userId: r.userId })),
    submessages: m.submessages.map((s) => ({ id: Number(s.id), senderId: s.senderId, msgType: s.msgType, content: s.content })),
    matchContent: m.matchContent,
    matchTopic: m.matchTopic,
  };
}

/** A message as a message event carries it: Zulip's snake_case JSON. */
export function fromEvent(raw: Record<string, any>, flags: string[]): Msg {
  const recipients: Recipient[] = Array.isArray(raw.display_recipient)
    ? raw.display_recipient.map((r: Record<string, any>) => ({ id: r.id, email: r.email, fullName: r.full_name }))
    : [];
  const edits = Array.isArray(raw.edit_history) ? raw.edit_history : [];
  return {
    id: raw.id,
    type: raw.type === 'stream' ? 'stream' : 'private',
    senderId: raw.sender_id,
    senderFullName: raw.sender_full_name,
    senderEmail: raw.sender_email,
    avatarUrl: raw.avatar_url ?? null,
    streamId: raw.stream_id ?? null,
    topic: raw.type === 'stream' ? (raw.subject ?? raw.topic ?? '') : '',
    content: raw.content ?? '',
    timestamp: raw.timestamp,
    flags,
    lastEditTimestamp: raw.last_edit_timestamp ?? null,
    lastMovedTimestamp:
      raw.last_moved_timestamp ?? (edits.some((e: Record<string, unknown>) => 'prev_topic' in e || 'prev_stream' in e) ? raw.timestamp : null),
    isMeMessage: Boolean(raw.is_me_message),
    recipients,
    reactions: (raw.reactions ?? []).map((r: Record<string, any>) => ({
      emojiName: r.emoji_name,
      emojiCode: r.emoji_code,
      reactionType: r.reaction_type,
      userId: r.user_id ?? r.user?.id,
    })),
    submessages: (raw.submessages ?? []).map((s: Record<string, any>) => ({ id: s.id, senderId: s.sender_id, msgType: s.msg_type, content: s.content })),
  };
}
