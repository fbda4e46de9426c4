import type { Knex } from 'knex';
import { listParam } from '../../db/lists';
import { FLAG_BITS } from '../messages/flags';

/**
 * Claiming due notification jobs. A claim is a lease: the rows are picked with FOR UPDATE SKIP
 * LOCKED (two processes never pick the same row), stamped with `claimed_until` and committed at
 * once, so no transaction stays open while a job is rendered. A job is deleted in the transaction
 * that writes its outbox items (what is sent, see core/deliveries); a process that dies holding a
 * claim leaves it to run out, and another process takes the job then.
 */

export const CLAIM_LEASE_MS = 60_000;

export interface JobRow {
  id: number;
  user_id: number;
  kind: 'email' | 'push' | 'push_remove' | 'push_forget';
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

/** Due mobile notifications, removals and forgotten tokens (push/forget.ts), oldest first. */
export async function claimPushJobs(knex: Knex, realmId: number, now: Date, limit = 100): Promise<JobRow[]> {
  return knex.transaction(async (trx) => {
    const rows = (
      await trx.raw(
        `SELECT id, user_id, kind, message_id, message_ids, trigger, due_at, attempts FROM notification_jobs
          WHERE kind IN ('push', 'push_remove', 'push_forget') AND realm_id = ? AND due_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
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

const KINDS = ['email', 'push', 'push_remove', 'push_forget'] as const;

/**
 * When the next job falls due or a claim on one runs out (ms), or null when none waits. Each part
 * is the first entry of an index (jobs by kind and due time; claimed jobs by lease end), so asking
 * costs the same however many jobs wait, such as a long backlog of batched emails.
 */
export async function nextDueAt(knex: Knex, realmId: number): Promise<number | null> {
  const firstDue = (kind: string) =>
    `(SELECT due_at FROM notification_jobs WHERE kind = '${kind}' AND realm_id = ? AND (claimed_until IS NULL OR claimed_until <= now()) ORDER BY due_at LIMIT 1)`;
  const row = (
    await knex.raw(
      `SELECT LEAST(${KINDS.map(firstDue).join(', ')},
                    (SELECT min(claimed_until) FROM notification_jobs WHERE claimed_until > now() AND realm_id = ?)) AS next`,
      [...KINDS.map(() => realmId), realmId],
    )
  ).rows[0] as { next: Date | null } | undefined;
  return row?.next ? new Date(row.next).getTime() : null;
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

/**
 * Queues the removal of mobile notifications whose messages have been read: every row still
 * flagged with a showing notification and now read loses the flag, and its user gets a
 * push_remove job naming the messages. One statement, so the flag and the job change together: a
 * crash leaves either both or neither, and the next scan finds what is left. Concurrent scans
 * never queue a message twice (the second finds the flag already cleared). Returns the jobs made.
 */
export async function queueRemovals(knex: Knex, realmId: number, now: Date): Promise<number> {
  const active = FLAG_BITS.active_mobile_push_notification;
  const rows = (
    await knex.raw(
      `WITH cleared AS (
         UPDATE user_messages SET flags = flags & ~${active}
          WHERE (flags & ${active}) <> 0 AND (flags & ${FLAG_BITS.read}) <> 0
            AND user_id IN (SELECT id FROM users WHERE realm_id = ?)
         RETURNING user_id, message_id)
       INSERT INTO notification_jobs (realm_id, user_id, kind, message_id, message_ids, trigger, due_at)
       SELECT ?, user_id, 'push_remove', NULL, array_agg(message_id ORDER BY message_id), 'remove', ?
         FROM cleared GROUP BY user_id
       RETURNING id`,
      [realmId, realmId, now],
    )
  ).rows as { id: number }[];
  return rows.length;
}

/**
 * Queues, inside the transaction deleting the messages, the removal of mobile notifications still
 * showing for them, as Zulip does: one push_remove job per user, written before the recipients'
 * rows (which carry the flag) are deleted, so the two commit together.
 */
export async function queueRemovalsForDeleted(trx: Knex, realmId: number, messageIds: number[]): Promise<void> {
  if (messageIds.length === 0) return;
  await trx.raw(
    `INSERT INTO notification_jobs (realm_id, user_id, kind, message_id, message_ids, trigger, due_at)
     SELECT ?, user_id, 'push_remove', NULL, array_agg(message_id ORDER BY message_id), 'remove', ?
       FROM user_messages
      WHERE message_id = ANY(?::int[]) AND (flags & ${FLAG_BITS.active_mobile_push_notification}) <> 0
      GROUP BY user_id`,
    [realmId, new Date(), listParam(messageIds)],
  );
}

/**
 * After an edit of a channel message: the users it no longer mentions lose the mobile
 * notification the mention brought, unless the channel's push notifications would have brought
 * one anyway (Zulip's rule). Same statement shape as queueRemovals, inside the edit's transaction.
 */
export async function queueRemovalsForLostMentions(trx: Knex, realmId: number, streamId: number, messageId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  const active = FLAG_BITS.active_mobile_push_notification;
  await trx.raw(
    `WITH cleared AS (
       UPDATE user_messages um SET flags = um.flags & ~${active}
        WHERE um.message_id = ? AND um.user_id = ANY(?::int[]) AND (um.flags & ${active}) <> 0
          AND NOT EXISTS (SELECT 1 FROM subscriptions s JOIN user_settings us ON us.user_id = s.user_id
                           WHERE s.user_id = um.user_id AND s.stream_id = ? AND s.active
                             AND COALESCE(s.push_notifications, us.enable_stream_push_notifications))
       RETURNING um.user_id, um.message_id)
     INSERT INTO notification_jobs (realm_id, user_id, kind, message_id, message_ids, trigger, due_at)
     SELECT ?, user_id, 'push_remove', NULL, ARRAY[message_id], 'remove', ? FROM cleared`,
    [messageId, listParam(userIds), streamId, realmId, new Date()],
  );
}
