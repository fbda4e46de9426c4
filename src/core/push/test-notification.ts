import type { AppDeps } from '../deps';
import { isRowId } from '../../db/ids';
import { ApiError } from '../../errors';
import { sendE2ee } from '../notifications/push';
import { realmIdentity } from '../notifications/push-payloads';
import type { User } from '../users/model';
import { pushNotConfigured } from './actions';
import { ClientDevice } from '../devices/model';
import { clientError } from './service';
import { requireHuman } from './tokens';

/**
 * POST /mobile_push/e2ee/test_notification: an E2EE notification of type "test", sent within the
 * request to one of the user's client devices (by device id, since feature level 468) or to all of
 * them, as Zulip does. Only devices whose token the push service has registered can receive it;
 * when there is none the request fails.
 */
export const noActivePushDevice = () => new ApiError('NO_ACTIVE_PUSH_DEVICE', 'No active registered push device', 400);

export async function sendE2eeTestNotification(deps: AppDeps, user: User, deviceId: number | undefined): Promise<void> {
  requireHuman(user);
  const service = deps.config.pushService;
  if (!service) throw pushNotConfigured();
  const query = ClientDevice.query(deps.knex).where({ user_id: user.id }).whereNotNull('push_token_id').whereNotNull('push_key');
  if (deviceId !== undefined) query.where('id', isRowId(deviceId) ? deviceId : 0);
  const devices = await query;
  if (devices.length === 0) throw noActivePushDevice();
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first('name');
  const identity = realmIdentity(deps.config, deps.realmId, realm?.name ?? deps.config.realmName);
  const plaintext = {
    realm_name: identity.realmName,
    realm_url: identity.realmUrl,
    time: Math.floor(Date.now() / 1000),
    type: 'test',
    user_id: user.id,
  };
  try {
    await sendE2ee(deps, service, deps.realmId, user.id, devices, plaintext);
  } catch (error) {
    throw clientError(error);
  }
}
