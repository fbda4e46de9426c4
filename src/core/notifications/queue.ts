import type { Knex } from 'knex';
import { listParam } from '../../db/lists';

/**
 * Claiming due notification jobs. A claim is a lease: the rows are picked with FOR UPDATE SKIP
 * LOCKED (two processes never pick the same row), stamped with `claimed_until` and committed at
 * once, so no transaction stays open while mail or HTTP is sent. A job is deleted once delivered;
 * a process that dies holding a claim leaves it to run out, and another process delivers it then.
 */

export const CLAIM_LEASE_MS = 60_000;

export interface JobRow {
  id: number;
  user_id: number;
  kind: 'email' | 'push' | 'push_remove';
  message_id: number | null;
  message_ids: number[] | null;
  trigger: string;
  due_at: Date;
  attempts: number;
}

/**
 * Email jobs of users with at least one due: all of each such user's pending email jobs, as Zulip
 * sends everything waiting for a user once the first batch period ends.
 */
export async function claimEmailJobs(knex: Knex, realmId: number, now: Date, maxUsers = 20): Promise<JobRow[]> {
  return knex.transaction(async (trx) => {
    const rows = (
      await trx.raw(
        `SELECT id, user_id, kind, message_id, message_ids, trigger, due_at, attempts FROM notification_jobs
          WHERE kind = 'email' AND realm_id = ? AND (claimed_until IS NULL OR claimed_until < ?)
            AND user_id IN (SELECT user_id FROM notification_jobs
                             WHERE kind = 'email' AND realm_id = ? AND due_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
                             LIMIT ?)
          ORDER BY id FOR UPDATE SKIP LOCKED`,
        [realmId, now, realmId, now, now, maxUsers],
      )
    ).rows as JobRow[];
    await stamp(trx, rows, now);
    return rows;
  });
}

/** Due mobile notifications and removals, oldest first. */
export async function claimPushJobs(knex: Knex, realmId: number, now: Date, limit = 100): Promise<JobRow[]> {
  return knex.transaction(async (trx) => {
    const rows = (
      await trx.raw(
        `SELECT id, user_id, kind, message_id, message_ids, trigger, due_at, attempts FROM notification_jobs
          WHERE kind IN ('push', 'push_remove') AND realm_id = ? AND due_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
          ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`,
        [realmId, now, now, limit],
      )
    ).rows as JobRow[];
    await stamp(trx, rows, now);
    return rows;
  });
}

async function stamp(trx: Knex, rows: JobRow[], now: Date): Promise<void> {
  if (rows.length === 0) return;
  await trx.raw('UPDATE notification_jobs SET claimed_until = ? WHERE id = ANY(?::int[])', [
    new Date(now.getTime() + CLAIM_LEASE_MS),
    listParam(rows.map((r) => r.id)),
  ]);
}

/** Delivered, cancelled or given up: the jobs are gone. */
export async function finishJobs(knex: Knex, ids: number[]): Promise<void> {
  if (ids.length > 0) await knex.raw('DELETE FROM notification_jobs WHERE id = ANY(?::int[])', [listParam(ids)]);
}

/** Try again later: the claim is released and the attempt counted. */
export async function retryJobs(knex: Knex, ids: number[], dueAt: Date): Promise<void> {
  if (ids.length === 0) return;
  await knex.raw('UPDATE notification_jobs SET claimed_until = NULL, attempts = attempts + 1, due_at = ? WHERE id = ANY(?::int[])', [dueAt, listParam(ids)]);
}

export async function addRemoveJob(knex: Knex, realmId: number, userId: number, messageIds: number[], now: Date): Promise<void> {
  await knex('notification_jobs').insert({
    realm_id: realmId,
    user_id: userId,
    kind: 'push_remove',
    message_id: null,
    message_ids: listParam(messageIds),
    trigger: 'remove',
    due_at: now,
  });
}
