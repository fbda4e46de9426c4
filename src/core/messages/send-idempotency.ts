import type { AppDeps } from '../deps';
import { ApiError, errors } from '../../errors';

/**
 * Sends with an idempotency key: a client that lost the answer to a send (a timeout, a dropped
 * connection) retries with the same key and gets the first message's id back instead of a second
 * message. The key is claimed before sending (message_id null while the send runs), so two
 * requests racing with one key send once; a send that fails gives its claim up, and so does one
 * that never finished (a claim left by a crash lapses after a minute). Keys live for a day.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 128;
const KEY_LIFETIME = "interval '24 hours'";
const ABANDONED_CLAIM = "interval '60 seconds'";
/** How long a retry waits for a send with its key still under way, before saying so. */
const WAIT_FOR_FIRST_MS = 10_000;

export async function sendOnce<T extends { id: number }>(deps: AppDeps, userId: number, key: string, send: () => Promise<T>): Promise<T | { id: number }> {
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw errors.badRequest(`Invalid idempotency key: 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters`);
  }
  const started = Date.now();
  for (;;) {
    if (await claim(deps, userId, key)) break;
    const row = await deps.knex('send_idempotency_keys').where({ user_id: userId, key }).first('message_id');
    if (row?.message_id != null) return { id: Number(row.message_id) };
    if (Date.now() - started > WAIT_FOR_FIRST_MS) {
      throw new ApiError('BAD_REQUEST', 'A message with this idempotency key is still being sent', 409);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  let result: T;
  try {
    result = await send();
  } catch (error) {
    await deps.knex('send_idempotency_keys').where({ user_id: userId, key }).whereNull('message_id').delete();
    throw error;
  }
  await deps.knex('send_idempotency_keys').where({ user_id: userId, key }).update({ message_id: result.id });
  return result;
}

/** Takes the key for this send: a new key, an expired one, or an abandoned claim. Prunes the user's old keys. */
async function claim(deps: AppDeps, userId: number, key: string): Promise<boolean> {
  await deps.knex.raw(`DELETE FROM send_idempotency_keys WHERE user_id = ? AND created_at < now() - ${KEY_LIFETIME}`, [userId]);
  const result = await deps.knex.raw(
    `INSERT INTO send_idempotency_keys (user_id, key, message_id, created_at) VALUES (?, ?, NULL, now())
     ON CONFLICT (user_id, key) DO UPDATE SET message_id = NULL, created_at = now()
       WHERE send_idempotency_keys.created_at < now() - ${KEY_LIFETIME}
          OR (send_idempotency_keys.message_id IS NULL AND send_idempotency_keys.created_at < now() - ${ABANDONED_CLAIM})
     RETURNING user_id`,
    [userId, key],
  );
  return (result.rows as unknown[]).length > 0;
}
