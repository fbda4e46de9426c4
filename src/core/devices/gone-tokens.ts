import type { UnitOfWork } from '../../db/unit-of-work';
import { listParam } from '../../db/lists';

/**
 * Tokens the push service answered it no longer has (push/e2ee/notify's delete_token_ids: the app
 * was uninstalled, or FCM/APNs expired the token): the user's devices registered with them have no
 * registered token any more, which a `device` update event tells their clients, so that the apps
 * register again.
 */
export async function forgetGoneTokens(uow: UnitOfWork, userId: number, answer: Record<string, unknown>): Promise<void> {
  const gone = Array.isArray(answer.delete_token_ids) ? answer.delete_token_ids.filter((id): id is string => typeof id === 'string') : [];
  if (gone.length === 0) return;
  const rows = (
    await uow.trx.raw('UPDATE client_devices SET push_token_id = NULL WHERE user_id = ? AND push_token_id = ANY(?::text[]) RETURNING id', [
      userId,
      listParam(gone, 'text'),
    ])
  ).rows as { id: number }[];
  for (const row of rows) uow.emit({ type: 'device', op: 'update', device_id: row.id, push_token_id: null }, [userId]);
}
