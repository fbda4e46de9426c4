import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { PushDevice, TokenKind } from './model';
import { checkPushKey } from './registration';

export interface PushRegistrationRequest {
  tokenKind: TokenKind;
  pushAccountId: number;
  pushKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

export const pushNotConfigured = () => new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.', 400);

/**
 * POST /mobile_push/register, as Zulip's server takes it: the device is stored as pending with the
 * client's sealed registration, which the notification worker hands to the push service after
 * commit (service.ts in notifications' worker); the service's answer makes it active or failed,
 * each with a push_device event. A push account already registered or pending is left as it is; a
 * failed one is registered anew.
 */
export async function registerPushDevice(deps: AppDeps, user: User, request: PushRegistrationRequest): Promise<void> {
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
  if (!deps.config.pushService) throw pushNotConfigured();
  const pushKey = await checkPushKey(request.pushKey);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const existing = await PushDevice.query(uow.trx).findOne({ user_id: user.id, push_account_id: request.pushAccountId }).forUpdate();
    if (existing && existing.error_code === null) return;
    const now = new Date();
    const row = {
      token_kind: request.tokenKind,
      push_key: pushKey,
      registered_at: now,
      bouncer_device_id: null,
      error_code: null,
      bouncer_public_key: request.bouncerPublicKey,
      encrypted_push_registration: request.encryptedPushRegistration,
      register_due_at: now,
      register_claimed_until: null,
      register_attempts: 0,
    };
    if (existing) {
      await PushDevice.query(uow.trx).patch(row).where('id', existing.id);
    } else {
      // A concurrent registration of the same account got there first: theirs stands.
      const inserted = await uow
        .trx('push_devices')
        .insert({ realm_id: deps.realmId, user_id: user.id, push_account_id: request.pushAccountId, ...row })
        .onConflict(['user_id', 'push_account_id'])
        .ignore()
        .returning('id');
      if (inserted.length === 0) return;
    }
    uow.emit({ type: 'push_device', push_account_id: String(request.pushAccountId), status: 'pending' }, [user.id]);
  });
}
