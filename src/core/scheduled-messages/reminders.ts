import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { loadViewer } from '../channels/access';
import { accessMessage } from '../messages/access';
import { checkMessage } from '../messages/send';
import type { User } from '../users/model';
import { deliveryTime } from './actions';
import { REMIND } from './model';
import { findOwn } from './queries';
import { normalizeNote, reminderContent } from './reminder-content';
import { reminderDict, ReminderDict } from './view';

/**
 * Reminders (POST /reminders): a direct message from the notification bot to the user, at the
 * time they chose, quoting a message they can see.
 */
export interface NewReminder {
  messageId: number;
  scheduledDeliveryTimestamp: number;
  note?: string;
  client: string;
}

export async function createReminder(deps: AppDeps, user: User, input: NewReminder): Promise<number> {
  const at = deliveryTime(input.scheduledDeliveryTimestamp);
  const note = input.note === undefined ? null : normalizeNote(input.note);
  const { message } = await accessMessage(deps.knex, await loadViewer(deps.knex, user), input.messageId, { modifying: false });
  const content = await reminderContent(deps.knex, deps.config, message, note);
  // Checked as a direct message to oneself, which the reminder is.
  const checked = await checkMessage(deps, deps.knex, user, {
    addressee: { type: 'private', userIds: [user.id], emails: null },
    topic: null,
    content,
    client: input.client,
  });
  return inTransaction(deps, deps.realmId, async (uow) => {
    const [row] = await uow
      .trx('scheduled_messages')
      .insert({
        realm_id: deps.realmId,
        sender_id: user.id,
        delivery_type: REMIND,
        type: 'private',
        stream_id: null,
        participant_ids: JSON.stringify(checked.participantIds),
        topic: '',
        content: checked.content,
        rendered_content: checked.renderedContent,
        sending_client: input.client.slice(0, 30),
        read_by_sender: false,
        scheduled_timestamp: at,
        reminder_target_message_id: message.id,
        reminder_note: note,
      })
      .returning('id');
    const created = await findOwn(uow.trx, deps.realmId, user.id, Number(row.id), REMIND);
    uow.emit({ type: 'reminders', op: 'add', reminders: [reminderDict(created)] }, [user.id]);
    return created.id;
  });
}

/** Cancels one of the user's reminders; returns it as it was. */
export async function deleteReminder(deps: AppDeps, user: User, id: number): Promise<ReminderDict> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const existing = await findOwn(uow.trx, deps.realmId, user.id, id, REMIND);
    await uow.trx('scheduled_messages').where({ id: existing.id }).delete();
    uow.emit({ type: 'reminders', op: 'remove', reminder_id: existing.id }, [user.id]);
    return reminderDict(existing);
  });
}
