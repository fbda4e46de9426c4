import type { Knex } from 'knex';
import { WriteBatcher } from '../../db/write-batches';

/**
 * Flag flips of existing rows (a client marking what it shows as read, above all), grouped across
 * requests by a WriteBatcher: requests of the same turn, and those arriving while a write runs, go
 * together in the next write, one statement for all. With thousands of open clients, each read
 * marking would otherwise be a round trip of its own, and under load round trips are what the
 * server spends most on.
 *
 * Each request learns exactly the messages its flip changed: the UPDATE touches only rows whose
 * flag differs (re-checked by PostgreSQL against concurrent writers), and a row that two requests
 * of one batch both named is credited to the one that arrived first.
 */
const MAX_PAIRS = 20_000;
/** Attempts of a batch that lost a deadlock (another process's batch locking the same rows). */
const ATTEMPTS = 3;

interface Flip {
  userId: number;
  messageIds: number[];
}

/** One statement for a batch of flips; each gets its share of what changed. */
async function flipAll(db: Knex, bit: number, adding: boolean, batch: Flip[]): Promise<number[][]> {
  const users: number[] = [];
  const messages: number[] = [];
  const seen = new Set<string>();
  for (const { userId, messageIds } of batch) {
    for (const id of messageIds) {
      const key = `${userId}:${id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      users.push(userId);
      messages.push(id);
    }
  }
  const changed = users.length === 0 ? new Set<string>() : await runFlip(db, bit, adding, users, messages);
  return batch.map((flip) => creditTo(flip, changed));
}

async function runFlip(db: Knex, bit: number, adding: boolean, users: number[], messages: number[]): Promise<Set<string>> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await db.raw(
        `UPDATE user_messages um SET flags = ${adding ? 'um.flags | ?' : 'um.flags & ~?::int'}
           FROM unnest(?::int[], ?::int[]) AS t(user_id, message_id)
          WHERE um.user_id = t.user_id AND um.message_id = t.message_id AND (um.flags & ?) ${adding ? '= 0' : '<> 0'}
          RETURNING um.user_id, um.message_id`,
        [bit, users, messages, bit],
      );
      return new Set((result.rows as { user_id: number; message_id: number }[]).map((r) => `${r.user_id}:${r.message_id}`));
    } catch (error) {
      if (attempt >= ATTEMPTS || (error as { code?: string }).code !== '40P01') throw error;
    }
  }
}

/** The request's share of what changed, in the order it named the messages; what it takes is gone. */
function creditTo(pending: Flip, changed: Set<string>): number[] {
  const mine: number[] = [];
  for (const id of pending.messageIds) {
    const key = `${pending.userId}:${id}`;
    if (changed.delete(key)) mine.push(id);
  }
  return mine;
}

const writers = new WeakMap<Knex, Map<string, WriteBatcher<Flip, number[]>>>();

/**
 * Sets (`adding`) or clears the flag `bit` on the user's existing rows of `messageIds` (distinct,
 * storable ids), through the database's writer; resolves with the ids whose flag changed.
 */
export function flipFlagOfExistingRows(db: Knex, userId: number, bit: number, adding: boolean, messageIds: number[]): Promise<number[]> {
  let byFlip = writers.get(db);
  if (!byFlip) writers.set(db, (byFlip = new Map()));
  const key = `${bit}:${adding}`;
  let writer = byFlip.get(key);
  if (!writer) {
    writer = new WriteBatcher<Flip, number[]>((batch) => flipAll(db, bit, adding, batch), {
      maxInFlight: 1,
      maxWeight: MAX_PAIRS,
      weigh: (flip) => flip.messageIds.length,
    });
    byFlip.set(key, writer);
  }
  return writer.submit({ userId, messageIds });
}
