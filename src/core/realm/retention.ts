import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { describeFailure } from '../../failure-log';
import { Stream } from '../channels/model';
import { deleteMessagesInTransaction } from '../messages/bulk-delete';
import { storedRealmSetting } from './setting-store';
import { log } from '../../log';

/**
 * Message retention (Zulip's message_retention_days): messages older than their channel's policy
 * (the channel's own value, else the organization's) are deleted; direct messages follow the
 * organization's. -1 keeps messages forever. Deletions are announced as message deletions
 * (`delete_message`, one per conversation; feature level 452).
 */
const FOREVER = -1;
/** Messages deleted per transaction, so a large backlog never holds long locks. */
const BATCH = 500;

const cutoff = (days: number, now: Date) => new Date(now.getTime() - days * 24 * 3600 * 1000);

/** Deletes every expired message; returns how many went. */
export async function deleteExpiredMessages(deps: AppDeps, now = new Date()): Promise<number> {
  const realmDays = await storedRealmSetting<number>(deps.knex, deps.realmId, 'message_retention_days', FOREVER);
  let deleted = 0;
  const streams = await Stream.query(deps.knex).where('realm_id', deps.realmId);
  for (const stream of streams) {
    const days = stream.message_retention_days ?? realmDays;
    if (days === FOREVER) continue;
    deleted += await deleteBefore(deps, stream.id, cutoff(days, now));
  }
  if (realmDays !== FOREVER) deleted += await deleteBefore(deps, null, cutoff(realmDays, now));
  return deleted;
}

async function expiredIds(db: Knex, realmId: number, streamId: number | null, before: Date): Promise<number[]> {
  const query = db('messages').where('realm_id', realmId).where('date_sent', '<', before).orderBy('id').limit(BATCH);
  if (streamId === null) query.whereNull('stream_id');
  else query.where('stream_id', streamId);
  return (await query.pluck('id')).map(Number);
}

async function deleteBefore(deps: AppDeps, streamId: number | null, before: Date): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await inTransaction(deps, deps.realmId, async (uow) => {
      const ids = await expiredIds(uow.trx, deps.realmId, streamId, before);
      return deleteMessagesInTransaction(uow, deps, ids, null);
    });
    total += count;
    if (count < BATCH) return total;
  }
}

/** Runs the deletion every `intervalSeconds` (0: never); returns the function that stops it. */
export function startRetentionJob(deps: AppDeps, intervalSeconds: number): () => void {
  if (intervalSeconds <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    deleteExpiredMessages(deps)
      .catch((error) => log().error(`message retention failed: ${describeFailure(error)}`))
      .finally(() => (running = false));
  }, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
