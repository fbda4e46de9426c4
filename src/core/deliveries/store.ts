import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { UnitOfWork } from '../../db/unit-of-work';
import { listParam } from '../../db/lists';
import type { Delivery } from '../../realtime/bus';

/**
 * The outbox (table `deliveries`): side effects that leave the server, each written in the
 * transaction of the change that causes it and sent afterwards by the delivery worker (worker.ts).
 * A claim is a lease: rows are picked with FOR UPDATE SKIP LOCKED and stamped with `claimed_until`
 * and a token in one statement that commits at once, so no transaction is held while the network
 * is used, two processes never claim the same row, and a process that dies holding a claim leaves
 * it to run out.
 */
export type DeliveryKind = 'webhook' | 'email' | 'push';
export const DELIVERY_KINDS: readonly DeliveryKind[] = ['webhook', 'email', 'push'];
export type DeliveryState = 'pending' | 'sent' | 'dead';

/** How long a claim holds: longer than any one send may take (webhooks time out at 10 s, the push service at 30 s). */
export const CLAIM_LEASE_MS = 60_000;

/** Tells the delivery worker of every process (over the bus) that items were queued or released. */
export const OUTBOX_QUEUED = 'outbox_queued';

export interface NewDelivery {
  kind: DeliveryKind;
  payload: Record<string, unknown>;
  /** Not to be sent before this time (the worker wakes for it then); now when absent. */
  notBefore?: Date;
}

/** A claimed item: its claim token must be shown to settle it. */
export interface ClaimedDelivery {
  id: number;
  kind: DeliveryKind;
  payload: Record<string, unknown>;
  key: string;
  /** Attempts made before this one. */
  attempts: number;
  token: string;
}

export const wakeDelivery = (realmId: number): Delivery => ({ realmId, userIds: [], event: { type: OUTBOX_QUEUED } });

/** Writes items on `db` (the caller's transaction); answers their ids. */
export async function insertDeliveries(db: Knex, realmId: number, items: NewDelivery[]): Promise<number[]> {
  if (items.length === 0) return [];
  const rows = (await db('deliveries')
    .insert(
      items.map((item) => ({
        realm_id: realmId,
        kind: item.kind,
        payload: JSON.stringify(item.payload),
        key: crypto.randomUUID(),
        ...(item.notBefore ? { next_attempt_at: item.notBefore } : {}),
      })),
    )
    .returning('id')) as { id: number | string }[];
  return rows.map((r) => Number(r.id));
}

/** Writes items in the unit of work's transaction; the workers hear of them once it has committed. */
export async function queueDeliveries(uow: UnitOfWork, items: NewDelivery[]): Promise<number[]> {
  const ids = await insertDeliveries(uow.trx, uow.realmId, items);
  if (ids.length > 0) uow.deliveries.push(wakeDelivery(uow.realmId));
  return ids;
}

const RETURNING = 'd.id, d.kind, d.payload, d.key, d.attempts';

function claimed(rows: Record<string, unknown>[], token: string): ClaimedDelivery[] {
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind as DeliveryKind,
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    key: String(r.key),
    attempts: Number(r.attempts),
    token,
  }));
}

/** Claims up to `limit` due items, oldest first. */
export async function claimDue(knex: Knex, realmId: number, now: Date, limit: number, leaseMs = CLAIM_LEASE_MS): Promise<ClaimedDelivery[]> {
  const token = crypto.randomUUID();
  const rows = (
    await knex.raw(
      `WITH due AS (SELECT id FROM deliveries
                     WHERE realm_id = ? AND state = 'pending' AND next_attempt_at <= ? AND (claimed_until IS NULL OR claimed_until < ?)
                     ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED)
       UPDATE deliveries d SET claimed_until = ?, claim_token = ? FROM due WHERE d.id = due.id RETURNING ${RETURNING}`,
      [realmId, now, now, limit, new Date(now.getTime() + leaseMs), token],
    )
  ).rows;
  return claimed(rows, token).sort((a, b) => a.id - b.id);
}

/** Claims the named items if they are pending and nobody holds them (for a send right after the commit). */
export async function claimIds(knex: Knex, ids: number[], now: Date, leaseMs = CLAIM_LEASE_MS): Promise<ClaimedDelivery[]> {
  if (ids.length === 0) return [];
  const token = crypto.randomUUID();
  const rows = (
    await knex.raw(
      `WITH due AS (SELECT id FROM deliveries
                     WHERE id = ANY(?::bigint[]) AND state = 'pending' AND (claimed_until IS NULL OR claimed_until < ?)
                     ORDER BY id FOR UPDATE SKIP LOCKED)
       UPDATE deliveries d SET claimed_until = ?, claim_token = ? FROM due WHERE d.id = due.id RETURNING ${RETURNING}`,
      [listParam(ids, 'bigint'), now, new Date(now.getTime() + leaseMs), token],
    )
  ).rows;
  return claimed(rows, token).sort((a, b) => a.id - b.id);
}

/** Settles a claimed item; false when the claim was lost (it ran out and another process took the item). */
async function settle(db: Knex, item: ClaimedDelivery, set: string, bindings: unknown[]): Promise<boolean> {
  const rows = (
    await db.raw(
      `UPDATE deliveries SET ${set}, attempts = attempts + 1, claimed_until = NULL, claim_token = NULL
        WHERE id = ? AND claim_token = ? AND state = 'pending' RETURNING id`,
      [...bindings, item.id, item.token] as Knex.RawBinding[],
    )
  ).rows;
  return rows.length === 1;
}

export const markSent = (db: Knex, item: ClaimedDelivery) => settle(db, item, `state = 'sent', sent_at = now(), last_error = NULL`, []);

export const markRetry = (db: Knex, item: ClaimedDelivery, error: string, at: Date) =>
  settle(db, item, 'next_attempt_at = ?, last_error = ?', [at, error.slice(0, 200)]);

export const markDead = (db: Knex, item: ClaimedDelivery, error: string) => settle(db, item, `state = 'dead', last_error = ?`, [error.slice(0, 200)]);

/**
 * When the next item falls due or a claim runs out (ms since the epoch), or null when nothing
 * is pending.
 */
export async function nextDueAt(knex: Knex, realmId: number): Promise<number | null> {
  const row = (
    await knex.raw(
      `SELECT min(CASE WHEN claimed_until IS NULL OR claimed_until < next_attempt_at THEN next_attempt_at ELSE claimed_until END) AS next
         FROM deliveries WHERE realm_id = ? AND state = 'pending'`,
      [realmId],
    )
  ).rows[0] as { next: Date | string | null } | undefined;
  return row?.next ? new Date(row.next).getTime() : null;
}

/** Sent items are kept this long (for the operator to look at), then deleted. */
export const SENT_RETENTION_MS = 24 * 60 * 60 * 1000;

export async function pruneSent(knex: Knex, realmId: number, now: Date): Promise<number> {
  return knex('deliveries')
    .where({ realm_id: realmId, state: 'sent' })
    .where('sent_at', '<', new Date(now.getTime() - SENT_RETENTION_MS))
    .delete();
}

export interface DeliveryCount {
  kind: DeliveryKind;
  state: DeliveryState;
  count: number;
}

export async function countDeliveries(knex: Knex, realmId: number): Promise<DeliveryCount[]> {
  const rows = (await knex('deliveries').where('realm_id', realmId).groupBy('kind', 'state').select('kind', 'state').count('* as n')) as {
    kind: DeliveryKind;
    state: DeliveryState;
    n: number | string;
  }[];
  return rows.map((r) => ({ kind: r.kind, state: r.state, count: Number(r.n) })).sort((a, b) => `${a.kind}${a.state}`.localeCompare(`${b.kind}${b.state}`));
}

export interface DeadDelivery {
  id: number;
  kind: DeliveryKind;
  key: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

export async function listDead(knex: Knex, realmId: number, limit = 100): Promise<DeadDelivery[]> {
  const rows = await knex('deliveries')
    .where({ realm_id: realmId, state: 'dead' })
    .orderBy('id')
    .limit(limit)
    .select('id', 'kind', 'key', 'attempts', 'last_error', 'created_at');
  return rows.map((r) => ({
    id: Number(r.id),
    kind: r.kind,
    key: String(r.key),
    attempts: Number(r.attempts),
    lastError: r.last_error ?? null,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/** Dead items back to pending, with their attempts counted afresh: one by id, or all. Answers how many. */
export async function reviveDead(knex: Knex, realmId: number, which: number | 'all'): Promise<number> {
  const query = knex('deliveries').where({ realm_id: realmId, state: 'dead' });
  if (which !== 'all') query.where('id', which);
  return query.update({ state: 'pending', attempts: 0, next_attempt_at: knex.fn.now(), claimed_until: null, claim_token: null });
}
