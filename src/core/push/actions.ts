import type { AppDeps } from '../../deps';
import { inTransaction } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { PushDevice, TokenKind } from './model';
import { checkPushPublicKey, openRegistration } from './registration';

export interface PushRegistrationRequest {
  tokenKind: TokenKind;
  pushAccountId: number;
  pushPublicKey: string;
  bouncerPublicKey: string;
  encryptedPushRegistration: string;
}

export const pushNotConfigured = () => new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.', 400);

/**
 * POST /mobile_push/register. The server holds the bouncer's key pair itself, so it opens the
 * sealed registration at once and stores the device; registering the same push account again
 * replaces the earlier device.
 */
export async function registerPushDevice(deps: AppDeps, user: User, request: PushRegistrationRequest): Promise<void> {
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
  const keys = deps.config.pushBouncer;
  if (!keys) throw pushNotConfigured();
  const pushPublicKey = checkPushPublicKey(request.pushPublicKey);
  const registration = await openRegistration(
    keys,
    request.bouncerPublicKey,
    request.encryptedPushRegistration,
    request.tokenKind,
    Math.floor(Date.now() / 1000),
  );
  await inTransaction(deps, deps.realmId, async (uow) => {
    const row = {
      token_kind: registration.tokenKind,
      token: registration.token,
      ios_app_id: registration.iosAppId,
      push_public_key: pushPublicKey,
      registered_at: new Date(),
    };
    const existing = await PushDevice.query(uow.trx).findOne({ user_id: user.id, push_account_id: request.pushAccountId });
    if (existing) {
      await PushDevice.query(uow.trx).patch(row).where('id', existing.id);
    } else {
      await PushDevice.query(uow.trx).insert({ realm_id: deps.realmId, user_id: user.id, push_account_id: request.pushAccountId, ...row });
    }
    uow.emit({ type: 'push_device', push_account_id: String(request.pushAccountId), status: 'active' }, [user.id]);
  });
}
