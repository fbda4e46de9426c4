import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import type { ZulipEvent } from '../../realtime/bus';
import { loadViewer } from '../channels/access';
import { MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS, TypingOp } from '../typing/actions';
import { hasSetting, usersWithSetting } from '../typing/preferences';
import type { User } from '../users/model';
import { accessMessage } from './access';
import { activeSubscribers, checkCanEditContent } from './edit';
import { dmParticipants } from './model';
import { loadRealmMessageSettings } from './realm-settings';
import { anyOf } from '../../db/lists';

/**
 * POST /messages/{id}/typing: "I am editing this message", as Zulip's typing_edit_message (feature
 * level 351). Only someone who may edit the message's content now (no grace period) may say so.
 * Nothing is stored; the event goes at once to whoever would see the edit and wants typing
 * notifications: the channel's active subscribers (none past the typing size limit), or the
 * active participants of the direct conversation, who are also the event's `user_ids`.
 */
export async function sendEditMessageTyping(deps: AppDeps, user: User, messageId: number, op: TypingOp): Promise<void> {
  const db = deps.knex;
  const viewer = await loadViewer(db, user);
  const { message } = await accessMessage(db, viewer, messageId, { modifying: true });
  checkCanEditContent(user, message, await loadRealmMessageSettings(db, deps.realmId, viewer.systemGroups), 0);
  let event: ZulipEvent;
  let userIds: number[];
  if (message.stream_id !== null) {
    if (!(await hasSetting(deps, user.id, 'send_stream_typing_notifications'))) {
      throw errors.badRequest('User has disabled typing notifications for channel messages');
    }
    const subscribers = [...(await activeSubscribers(db, message.stream_id))];
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return;
    userIds = await usersWithSetting(deps, subscribers, 'receives_typing_notifications');
    event = recipientEvent(op, user, message.id, { type: 'channel', channel_id: message.stream_id, topic: message.topic });
  } else {
    if (!(await hasSetting(deps, user.id, 'send_private_typing_notifications'))) {
      throw errors.badRequest('User has disabled typing notifications for direct messages');
    }
    const participants = message.dm_key === null ? [user.id] : dmParticipants(message.dm_key);
    const active = (
      await db('users')
        .whereRaw(...anyOf('id', participants))
        .where('is_active', true)
        .select('id')
    ).map((r: { id: number }) => r.id);
    userIds = await usersWithSetting(
      deps,
      participants.filter((id) => active.includes(id)),
      'receives_typing_notifications',
    );
    event = recipientEvent(op, user, message.id, { type: 'direct', user_ids: userIds });
  }
  if (userIds.length > 0) await deps.bus.publish([{ realmId: deps.realmId, userIds, event }]);
}

const recipientEvent = (op: TypingOp, sender: User, messageId: number, recipient: Record<string, unknown>): ZulipEvent => ({
  type: 'typing_edit_message',
  op,
  sender_id: sender.id,
  message_id: messageId,
  recipient,
});
