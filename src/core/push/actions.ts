import type { AppDeps } from '../deps';
import { isRowId } from '../../db/ids';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { ClientDevice, TokenKind } from '../devices/model';
import type { User } from '../users/model';
import { checkPushKey, checkTokenId } from './registration';
import { requireHuman } from './tokens';

/**
 * POST /mobile_push/register, as Zulip's server takes it since feature level 468: a client device's
 * E2EE push registration. The push key fields (push_key, push_key_id) and the token fields
 * (token_kind, token_id, bouncer_public_key, encrypted_push_registration) come together for a
 * registration, or alone to rotate the key or the token of a registered device. A new token waits
 * as pending, with the client's sealed registration, until the notification worker has handed it
 * to the push service (forward.ts); each change is a `device` update event.
 */
export interface PushRegistrationRequest {
  deviceId: number;
  pushKey?: string;
  pushKeyId?: number;
  tokenKind?: TokenKind;
  tokenId?: string;
  bouncerPublicKey?: string;
  encryptedPushRegistration?: string;
}

export const pushNotConfigured = () => new ApiError('PUSH_SERVICE_NOT_CONFIGURED', 'Server is not configured to use push notification service.', 400);

const MAX_PUSH_KEY_ID = 2 ** 32 - 1;

export async function registerDevicePush(deps: AppDeps, user: User, request: PushRegistrationRequest): Promise<void> {
  requireHuman(user);
  if (request.pushKeyId !== undefined && (request.pushKeyId < 0 || request.pushKeyId > MAX_PUSH_KEY_ID)) {
    throw errors.badRequest('Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer');
  }
  if (!deps.config.pushService) throw pushNotConfigured();
  await inTransaction(deps, deps.realmId, async (uow) => {
    const device = isRowId(request.deviceId) ? await ClientDevice.query(uow.trx).findOne({ id: request.deviceId, user_id: user.id }).forUpdate() : undefined;
    if (!device) throw errors.badRequest('Invalid `device_id`');
    const { pushKey, pushKeyId, tokenKind, tokenId, bouncerPublicKey, encryptedPushRegistration } = request;
    const key = pushKey !== undefined && pushKeyId !== undefined ? { pushKey, pushKeyId } : null;
    const token =
      tokenKind !== undefined && tokenId !== undefined && bouncerPublicKey !== undefined && encryptedPushRegistration !== undefined
        ? { tokenKind, tokenId, bouncerPublicKey, encryptedPushRegistration }
        : null;
    if (!key && !token) throw errors.badRequest('Missing parameters: must provide either all push key fields, all token fields, or both.');
    if (key && !token) {
      if (device.push_key_id === null) throw errors.badRequest('No push registration exists to rotate key for.');
      await rotateKey(uow, device, await checkPushKey(key.pushKey), key.pushKeyId);
      return;
    }
    // One request to the push service at a time per device.
    if (device.push_registration_error_code === null && device.pending_push_token_id !== null) {
      throw errors.badRequest('A registration for the device already in progress.');
    }
    const tokenIdBase64 = checkTokenId(token!.tokenId);
    const now = new Date();
    const pending = { pending_push_token_id: tokenIdBase64, push_token_updated_at: now, push_registration_error_code: null };
    let event: Record<string, unknown>;
    if (!key) {
      if (device.push_key_id === null) throw errors.badRequest('No push registration exists to rotate token for.');
      if (device.push_registration_error_code === null && device.push_token_id === tokenIdBase64) return;
      event = {};
      await queue(uow, device, token!, pending);
    } else {
      const pushKeyValue = await checkPushKey(key.pushKey);
      const same =
        device.push_registration_error_code === null &&
        device.push_key_id === key.pushKeyId &&
        device.push_key === pushKeyValue &&
        device.push_token_id === tokenIdBase64 &&
        device.push_token_kind === token!.tokenKind;
      if (same) return;
      event = { push_key_id: key.pushKeyId };
      await queue(uow, device, token!, { ...pending, push_key: pushKeyValue, push_key_id: key.pushKeyId, push_token_kind: token!.tokenKind });
    }
    uow.emit(
      {
        type: 'device',
        op: 'update',
        device_id: device.id,
        ...event,
        pending_push_token_id: tokenIdBase64,
        push_token_last_updated_timestamp: Math.floor(now.getTime() / 1000),
        push_registration_error_code: null,
      },
      [device.user_id],
    );
  });
}

async function rotateKey(uow: UnitOfWork, device: ClientDevice, pushKey: string, pushKeyId: number): Promise<void> {
  if (device.push_key_id === pushKeyId && device.push_key === pushKey) return;
  await ClientDevice.query(uow.trx).patch({ push_key: pushKey, push_key_id: pushKeyId }).where('id', device.id);
  uow.emit({ type: 'device', op: 'update', device_id: device.id, push_key_id: pushKeyId }, [device.user_id]);
}

/** Stores the token's sealed registration for the worker to hand to the push service after commit. */
async function queue(
  uow: UnitOfWork,
  device: ClientDevice,
  token: { bouncerPublicKey: string; encryptedPushRegistration: string },
  fields: Partial<ClientDevice>,
): Promise<void> {
  await ClientDevice.query(uow.trx)
    .patch({
      ...fields,
      bouncer_public_key: token.bouncerPublicKey,
      encrypted_push_registration: token.encryptedPushRegistration,
      register_due_at: new Date(),
      register_claimed_until: null,
      register_attempts: 0,
    })
    .where('id', device.id);
}
