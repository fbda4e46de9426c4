import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';

/**
 * Regenerating a user's API key signs out every client, phones included, so their mobile
 * notifications stop too, as on Zulip's server: the user's legacy device tokens are forgotten
 * here, in the regenerating transaction, and at the push service (remotes/push/unregister/all).
 * The service is told by the notification worker from a job written in the same transaction, so
 * a service that is down is asked again and a crash loses nothing. The apps register their token
 * again when the user signs back in.
 */

/** Tells the notification worker (in every process) that push jobs were queued outside a message's path. */
export const PUSH_JOBS_QUEUED = 'push_jobs_queued';

export async function forgetPushTokens(deps: AppDeps, uow: UnitOfWork, userId: number): Promise<void> {
  await uow.trx('push_device_tokens').where({ user_id: userId }).delete();
  if (!deps.config.pushService) return;
  await uow.trx('notification_jobs').insert({ realm_id: uow.realmId, user_id: userId, kind: 'push_forget', due_at: new Date() });
  uow.deliveries.push({ realmId: uow.realmId, userIds: [], event: { type: PUSH_JOBS_QUEUED } });
}
