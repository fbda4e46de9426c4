import type { Knex } from 'knex';
import { isRowId } from '../../db/ids';
import { ApiError } from '../../errors';
import { REMIND, scheduledRow, ScheduledRow, SEND_LATER } from './model';
import { reminderDict, ReminderDict, scheduledMessageDict, ScheduledMessageDict } from './view';

/** The user's rows of one delivery type not yet delivered, earliest first. */
async function undelivered(db: Knex, realmId: number, userId: number, deliveryType: number): Promise<ScheduledRow[]> {
  const rows = await db('scheduled_messages')
    .where({ realm_id: realmId, sender_id: userId, delivery_type: deliveryType, delivered: false })
    .orderBy([{ column: 'scheduled_timestamp' }, { column: 'id' }]);
  return rows.map(scheduledRow);
}

export async function listScheduledMessages(db: Knex, realmId: number, userId: number): Promise<ScheduledMessageDict[]> {
  return (await undelivered(db, realmId, userId, SEND_LATER)).map(scheduledMessageDict);
}

export async function listReminders(db: Knex, realmId: number, userId: number): Promise<ReminderDict[]> {
  return (await undelivered(db, realmId, userId, REMIND)).map(reminderDict);
}

/** One of the user's own rows of the type (locked for the transaction), or Zulip's 404. */
export async function findOwn(db: Knex, realmId: number, userId: number, id: number, deliveryType: number): Promise<ScheduledRow> {
  const row = isRowId(id)
    ? await db('scheduled_messages').where({ id, realm_id: realmId, sender_id: userId, delivery_type: deliveryType }).forUpdate().first()
    : undefined;
  if (!row) throw new ApiError('BAD_REQUEST', deliveryType === REMIND ? 'Reminder does not exist' : 'Scheduled message does not exist', 404);
  return scheduledRow(row);
}
