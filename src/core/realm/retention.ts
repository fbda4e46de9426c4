import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { listParam } from '../../db/lists';
import { describeFailure } from '../../failure-log';
import { Stream } from '../channels/model';
import { eventRecipientsForMessages } from '../messages/access';
import { refreshFirstMessageId } from '../messages/delete';
import { deleteMessageEvent } from '../messages/events';
import { storedRealmSetting } from './setting-store';
import { releaseDeletedMessages } from '../uploads/claims';
import { log } from '../../log';

/**
 * Message retention (Zulip's message_retention_days): messages older than their channel's policy
 * (the channel's own value, else the organization's) are deleted; direct messages follow the
 * organization's. -1 keeps messages forever. Deletions are announced as message deletions.
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
      const db = uow.trx;
      const ids = await expiredIds(db, deps.realmId, streamId, before);
      if (ids.length === 0) return 0;
      const stream = streamId === null ? undefined : await Stream.query(db).findById(streamId);
      const recipients = await eventRecipientsForMessages(db, ids, stream);
      const topics = stream
        ? await db('messages')
            .whereRaw('id = ANY(?::int[])', [listParam(ids)])
            .select('id', 'topic')
        : [];
      await db('user_messages')
        .whereRaw('message_id = ANY(?::int[])', [listParam(ids)])
        .delete();
      await db('messages')
        .whereRaw('id = ANY(?::int[])', [listParam(ids)])
        .delete();
      await releaseDeletedMessages(uow, deps.config, ids);
      if (stream) {
        await refreshFirstMessageId(uow, deps, stream, ids);
        // One event per topic, as the bulk delete_message event names a single topic.
        const byTopic = new Map<string, number[]>();
        for (const row of topics as { id: number; topic: string }[]) byTopic.set(row.topic, [...(byTopic.get(row.topic) ?? []), Number(row.id)]);
        for (const [topic, topicIds] of byTopic) uow.emit(deleteMessageEvent(topicIds, { streamId: stream.id, topic }), recipients);
      } else {
        uow.emit(deleteMessageEvent(ids, null), recipients);
      }
      return ids.length;
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
