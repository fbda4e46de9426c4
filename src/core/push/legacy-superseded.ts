import crypto from 'node:crypto';
import type { PushServiceConfig } from '../../config';
import type { UnitOfWork } from '../../db/unit-of-work';
import { describeFailure } from '../../failure-log';
import type { TokenKind } from '../devices/model';
import { unregisterTokenWithService } from './service';

/**
 * A device's E2EE registration supersedes the app's legacy registration of the same token (POST
 * /users/me/apns_device_token or /users/me/android_gcm_reg_id), as on Zulip's server since feature
 * level 483: once the push service has taken the E2EE registration, the user's legacy tokens of the
 * same kind whose token_id is the registered one are deleted, in the settling transaction, so the
 * phone is not notified twice. After commit they are also unregistered at the service; a failure
 * there is only logged, as Zulip's server does: with no legacy token left here for the user, this
 * server stops sending legacy notifications for them at all.
 */

/** The push service's id for an FCM/APNs token, as the apps derive it: base64 of SHA-256's first 8 bytes. */
export const tokenIdOf = (token: string) => crypto.createHash('sha256').update(token, 'utf8').digest().subarray(0, 8).toString('base64');

export async function dropSupersededLegacyTokens(
  uow: UnitOfWork,
  service: PushServiceConfig,
  userId: number,
  kind: TokenKind | null,
  tokenId: string,
): Promise<void> {
  if (kind === null) return;
  const legacy = (await uow.trx('push_device_tokens').where({ user_id: userId, kind }).select('id', 'token')) as { id: number; token: string }[];
  const superseded = legacy.filter((row) => tokenIdOf(row.token) === tokenId);
  if (superseded.length === 0) return;
  await uow
    .trx('push_device_tokens')
    .whereIn(
      'id',
      superseded.map((row) => row.id),
    )
    .delete();
  const user = { realm_id: uow.realmId, id: userId };
  uow.afterCommit(() => {
    for (const { token } of superseded) {
      unregisterTokenWithService(service, user, kind, token).catch((error) =>
        console.warn(`unregistering a superseded legacy push token of user ${userId} failed: ${describeFailure(error).split('\n')[0]}`),
      );
    }
  });
}
