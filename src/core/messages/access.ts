import type { Knex } from 'knex';
import { errors } from '../../errors';
import { ChannelViewer, hasContentAccess, isSubscribed } from '../channels/access';
import { Stream } from '../channels/model';
import { isGuestRole } from '../users/roles';
import { inParallel } from '../../db/in-parallel';
import { MessageRow, MESSAGE_COLUMNS } from './model';
import { anyOf } from '../../db/lists';
import { isRowId } from '../../db/ids';

/**
 * Who may see a message, as Zulip decides it:
 * - a direct message: only those who received it;
 * - a channel message: in a public channel, every non-guest; otherwise one needs content access
 *   to the channel (a subscription, or a group granting it), and when the channel's history is
 *   not public to subscribers, to have received the message too.
 * Anything else answers exactly like a message that does not exist: "Invalid message(s)".
 */
export const invalidMessage = () => errors.badRequest('Invalid message(s)');

export function canReadChannelHistory(viewer: ChannelViewer, stream: Stream): boolean {
  if (stream.isPublic() && !isGuestRole(viewer.user.role)) return true;
  if (!stream.history_public_to_subscribers) return false;
  return channelContentAccess(viewer, stream);
}

/** Content access through a subscription or a group (not the implicit access to public channels). */
function channelContentAccess(viewer: ChannelViewer, stream: Stream): boolean {
  if (isSubscribed(viewer, stream)) return true;
  if (isGuestRole(viewer.user.role)) return false;
  return hasContentAccess(viewer, stream);
}

export function hasMessageAccess(
  viewer: ChannelViewer,
  message: Pick<MessageRow, 'stream_id' | 'realm_id'>,
  stream: Stream | undefined,
  hasUserMessage: boolean,
  options: { modifying: boolean },
): boolean {
  if (message.stream_id === null) return hasUserMessage;
  if (!stream || stream.realm_id !== viewer.user.realm_id) return false;
  if (options.modifying && stream.deactivated) return false;
  if (stream.isPublic() && !isGuestRole(viewer.user.role)) return true;
  if (!stream.history_public_to_subscribers) return hasUserMessage && channelContentAccess(viewer, stream);
  return channelContentAccess(viewer, stream);
}

export interface AccessedMessage {
  message: MessageRow;
  /** The viewer's flags, or null when they never received the message. */
  flags: number | null;
  stream: Stream | undefined;
}

/** One message the viewer may see (optionally locked for update), or "Invalid message(s)". */
export async function accessMessage(
  db: Knex,
  viewer: ChannelViewer,
  messageId: number,
  options: { modifying: boolean; lock?: boolean },
): Promise<AccessedMessage> {
  if (!isRowId(messageId)) throw invalidMessage();
  const query = db('messages').where({ id: messageId, realm_id: viewer.user.realm_id }).first(MESSAGE_COLUMNS);
  if (options.lock) query.forUpdate();
  const message: MessageRow | undefined = await query;
  if (!message) throw invalidMessage();
  const [um, stream] = await inParallel<[{ flags: number } | undefined, Stream | undefined]>(db, [
    () => db('user_messages').where({ user_id: viewer.user.id, message_id: messageId }).first('flags'),
    async () => (message.stream_id === null ? undefined : Stream.query(db).findById(message.stream_id)),
  ]);
  const flags: number | null = um ? um.flags : null;
  if (!hasMessageAccess(viewer, message, stream, flags !== null, options)) throw invalidMessage();
  return { message, flags, stream };
}

/** The messages of a batch the viewer may see, with their flags (null when never received). */
export async function bulkAccessMessages(db: Knex, viewer: ChannelViewer, messages: MessageRow[]): Promise<{ message: MessageRow; flags: number | null }[]> {
  if (messages.length === 0) return [];
  const ids = messages.map((m) => m.id);
  const streamIds = [...new Set(messages.map((m) => m.stream_id).filter((id): id is number => id !== null))];
  const [ums, streams] = await inParallel<[{ message_id: number; flags: number }[], Stream[]]>(db, [
    () =>
      db('user_messages')
        .where('user_id', viewer.user.id)
        .whereRaw(...anyOf('message_id', ids))
        .select('message_id', 'flags'),
    async () => (streamIds.length === 0 ? [] : Stream.query(db).whereRaw(...anyOf('id', streamIds))),
  ]);
  const flags = new Map<number, number>(ums.map((r) => [r.message_id, r.flags]));
  const byId = new Map(streams.map((s) => [s.id, s]));
  return messages
    .filter((m) => hasMessageAccess(viewer, m, m.stream_id === null ? undefined : byId.get(m.stream_id), flags.has(m.id), { modifying: false }))
    .map((m) => ({ message: m, flags: flags.get(m.id) ?? null }));
}

/**
 * Who hears about an action on messages of one conversation (reactions, edits, deletions), as
 * Zulip computes it: for direct messages, those who received them; for a channel, its current
 * subscribers, narrowed to those who received the messages when history is protected, widened
 * in public channels to non-guests holding a row for them (starred or reacted earlier).
 */
export async function eventRecipientsForMessages(db: Knex, messageIds: number[], stream: Stream | undefined): Promise<Set<number>> {
  const holders = async (excludeGuests: boolean) => {
    const q = db('user_messages')
      .join('users', 'users.id', 'user_messages.user_id')
      .whereRaw(...anyOf('user_messages.message_id', messageIds))
      .where('users.is_active', true)
      .distinct('user_messages.user_id');
    if (excludeGuests) q.whereNot('users.role', 600);
    return new Set((await q).map((r: { user_id: number }) => r.user_id));
  };
  if (!stream) return holders(false);
  const subs: { user_id: number }[] = await db('subscriptions')
    .join('users', 'users.id', 'subscriptions.user_id')
    .where({ 'subscriptions.stream_id': stream.id, 'subscriptions.active': true, 'users.is_active': true })
    .select('subscriptions.user_id');
  const subscribers = new Set(subs.map((s) => s.user_id));
  if (!stream.history_public_to_subscribers) {
    const received = await holders(false);
    return new Set([...received].filter((id) => subscribers.has(id)));
  }
  if (!stream.isPublic()) return subscribers;
  return new Set([...subscribers, ...(await holders(true))]);
}
