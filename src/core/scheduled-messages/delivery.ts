import type { AppDeps } from '../deps';
import { UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { describeFailure } from '../../failure-log';
import { loadViewer } from '../channels/access';
import { accessMessage } from '../messages/access';
import { sendInternalMessage, sendMessageWithin } from '../messages/send';
import { notificationBot } from '../system-bots/notification-bot';
import { User } from '../users/model';
import { REMIND, scheduledRow, ScheduledRow } from './model';
import { reminderContent } from './reminder-content';
import { directTo, scheduledMessageDict } from './view';
import { log } from '../../log';

/** How late a scheduled message may still go out (Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES). */
export const LATE_CUTOFF_MS = 10 * 60_000;

/** Failures that tell nobody: the sender, or the organization, can no longer read a notice. */
class SilentFailure extends ApiError {}

/**
 * Claims the earliest due row and delivers it, in one transaction: the claim (a row lock other
 * servers skip), the message sent and the row marked delivered commit together or not at all, so
 * a crash before the commit leaves the row due and nothing sent, and no two servers deliver one row.
 * A delivery the send refuses marks the row failed instead and tells its sender, as Zulip does.
 * Returns whether a due row was found.
 */
export async function deliverOneDue(deps: AppDeps): Promise<boolean> {
  let outer: UnitOfWork | null = null;
  const found = await deps.knex.transaction(async (trx) => {
    const raw = await trx('scheduled_messages')
      .where({ realm_id: deps.realmId, delivered: false, failed: false })
      .where('scheduled_timestamp', '<=', new Date())
      .orderBy([{ column: 'scheduled_timestamp' }, { column: 'id' }])
      .forUpdate()
      .skipLocked()
      .first();
    if (!raw) return false;
    const row = scheduledRow(raw);
    const uow = (outer = new UnitOfWork(trx, deps.realmId));
    try {
      // In a savepoint: a refused send leaves nothing behind but the failure recorded below.
      const attempt = await trx.transaction(async (sub) => {
        const inner = new UnitOfWork(sub, deps.realmId);
        await deliver(deps, inner, row);
        return inner;
      });
      uow.absorb(attempt);
    } catch (error) {
      await recordFailure(deps, uow, row, error);
    }
    return true;
  });
  if (outer) {
    const done: UnitOfWork = outer;
    done.runAfterCommit();
    await deps.bus.publish(done.deliveries);
  }
  return found;
}

async function deliver(deps: AppDeps, uow: UnitOfWork, row: ScheduledRow): Promise<void> {
  const db = uow.trx;
  const realm: { deactivated: boolean } = await db('realms').where({ id: row.realm_id }).first('deactivated');
  if (realm.deactivated) throw new SilentFailure('REALM_DEACTIVATED', 'This organization has been deactivated', 401);
  const sender = await User.query(db).findById(row.sender_id);
  if (!sender || !sender.is_active) throw new SilentFailure('USER_DEACTIVATED', 'Account is deactivated', 401);

  let messageId: number;
  if (row.delivery_type === REMIND) {
    // Reminders quote the message as it is now, if the user can still see it.
    let content = row.content;
    try {
      const { message } = await accessMessage(db, await loadViewer(db, sender), row.reminder_target_message_id!, { modifying: false });
      content = await reminderContent(db, deps.config, message, row.reminder_note);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
    messageId = await sendInternalMessage(deps, uow, await notificationBot(db), { users: [sender] }, content);
    uow.emit({ type: 'reminders', op: 'remove', reminder_id: row.id }, [sender.id]);
  } else {
    if (Date.now() > row.scheduled_timestamp.getTime() + LATE_CUTOFF_MS) throw errors.badRequest('Message could not be sent at the scheduled time.');
    // Checked again as a send: permissions may have changed since it was scheduled.
    const addressee =
      row.type === 'stream' ? { type: 'stream' as const, channel: row.stream_id } : { type: 'private' as const, userIds: directTo(row), emails: null };
    const sent = await sendMessageWithin(deps, uow, sender, {
      addressee,
      topic: row.type === 'stream' ? row.topic : null,
      content: row.content,
      client: row.sending_client,
      readBySender: row.read_by_sender,
    });
    messageId = sent.id;
    uow.emit({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: row.id }, [sender.id]);
  }
  await db('scheduled_messages').where({ id: row.id }).update({ delivered: true, delivered_message_id: messageId });
}

/** `<time:…>` of a delivery time, as Zulip's global-time markdown writes it. */
function globalTime(date: Date): string {
  return `<time:${date.toISOString().replace(/\.\d{3}Z$/, '+00:00')}>`;
}

async function recordFailure(deps: AppDeps, uow: UnitOfWork, row: ScheduledRow, error: unknown): Promise<void> {
  const known = error instanceof ApiError;
  if (!known) log().error(`scheduled message ${row.id} could not be delivered: ${describeFailure(error)}`);
  const failureMessage = known ? error.message : 'Internal server error';
  const db = uow.trx;
  await db('scheduled_messages').where({ id: row.id }).update({ failed: true, failure_message: failureMessage });
  // Reminders have no failure notice; nor has a deactivated sender or organization.
  if (row.delivery_type === REMIND || error instanceof SilentFailure) return;
  const failed = scheduledRow(await db('scheduled_messages').where({ id: row.id }).first());
  uow.emit({ type: 'scheduled_messages', op: 'update', scheduled_message: scheduledMessageDict(failed) }, [row.sender_id]);
  const sender = await User.query(db).findById(row.sender_id);
  if (!sender) return;
  const content =
    `The message you scheduled for ${globalTime(row.scheduled_timestamp)} was not sent because of the following error:\n\n` +
    `> ${failureMessage}\n\n[View scheduled messages](#scheduled)\n\n`;
  await sendInternalMessage(deps, uow, await notificationBot(db), { users: [sender] }, content);
}
