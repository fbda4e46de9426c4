import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { channelAudience, RealmUsers } from '../channels/audience';
import { streamUpdate } from '../channels/events';
import type { Stream } from '../channels/model';
import { errors } from '../../errors';
import { loadViewer } from '../channels/access';
import type { User } from '../users/model';
import { accessMessage, eventRecipientsForMessages } from './access';
import { deleteMessageEvent } from './events';
import { canDeleteAnyMessage, canDeleteOwnMessage } from './permissions';
import { loadRealmMessageSettings } from './realm-settings';
import { queueRemovalsForDeleted } from '../notifications/queue';
import { mayLinkUploads, releaseDeletedMessages } from '../uploads/claims';

/**
 * Deleting a message (DELETE /messages/{id}): holders of can_delete_any_message_group (by default
 * administrators; also per channel) may delete any message; others may delete their own (and
 * their bots') messages when can_delete_own_message_group allows, within the organization's
 * time limit. The `delete_message` event is published in its bulk shape (see events.ts).
 */
export async function deleteMessage(deps: AppDeps, user: User, messageId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, user);
    const { message, stream } = await accessMessage(db, viewer, messageId, { modifying: true, lock: true });
    const settings = await loadRealmMessageSettings(db, deps.realmId, viewer.systemGroups);
    if (!canDeleteAnyMessage(viewer, settings, stream)) {
      const denied = () => errors.badRequest("You don't have permission to delete this message");
      if (message.sender_id !== user.id) {
        const sender = await db('users').where({ id: message.sender_id }).first('bot_owner_id');
        if (sender?.bot_owner_id !== user.id) throw denied();
      }
      if (!canDeleteOwnMessage(viewer, settings, stream)) throw denied();
      const limit = settings.messageContentDeleteLimitSeconds;
      if (limit !== null && (Date.now() - new Date(message.date_sent).getTime()) / 1000 > limit) {
        throw errors.badRequest('The time limit for deleting this message has passed');
      }
    }
    const recipients = await eventRecipientsForMessages(db, [message.id], stream);
    // The deleter sees the message go too, as they can access it (Zulip sends them the event).
    recipients.add(user.id);
    // user_messages has no foreign key (see its migration): the recipients' rows go explicitly.
    await queueRemovalsForDeleted(db, deps.realmId, [message.id]);
    await db('user_messages').where({ message_id: message.id }).delete();
    await db('messages').where({ id: message.id }).delete();
    if (mayLinkUploads(message.rendered_content)) await releaseDeletedMessages(uow, deps.config, [message.id]);
    if (stream) await refreshFirstMessageId(uow, deps, stream, [message.id]);
    uow.emit(deleteMessageEvent([message.id], stream ? { streamId: stream.id, topic: message.topic } : null), recipients);
  });
}

/**
 * After deleting a channel's messages: when the first of them went, first_message_id moves to the
 * oldest remaining message (null when none), announced as a `stream` update as Zulip does, to
 * everyone who sees the channel (as when sending sets it).
 */
export async function refreshFirstMessageId(uow: UnitOfWork, deps: AppDeps, stream: Stream, deletedIds: number[]): Promise<void> {
  if (stream.first_message_id === null || !deletedIds.includes(stream.first_message_id)) return;
  const db = uow.trx;
  const next = await db('messages').where('stream_id', stream.id).min('id as id').first();
  stream.first_message_id = next?.id ?? null;
  await db('streams').where({ id: stream.id }).update({ first_message_id: stream.first_message_id });
  const audience = await channelAudience(db, stream, await RealmUsers.load(db, deps.realmId));
  uow.emit(streamUpdate(stream, 'first_message_id', stream.first_message_id), audience);
}
