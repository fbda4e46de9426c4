import type { AppDeps } from '../deps';
import { ApiError } from '../../errors';
import { BouncerError, postToBouncer, realmUuid, userUuid } from '../notifications/bouncer';
import { realmIdentity } from '../notifications/push-payloads';
import type { User } from '../users/model';
import { pushNotConfigured } from './actions';
import { clientError, SERVICE_TOKEN_KIND } from './service';
import { DeviceTokenKind, requireHuman } from './tokens';

/**
 * POST /mobile_push/test_notification: a test notification to the device tokens the user registered
 * (POST /users/me/apns_device_token, /users/me/android_gcm_reg_id), or to the one token named, sent
 * within the request through the push service's push/test_notification, one request per token, as
 * Zulip's server does. Answers how many tokens it went to (none is not an error, as in Zulip).
 */
export const unknownDeviceToken = () => new ApiError('INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized', 400);
export const unknownRemoteDeviceToken = () => new ApiError('INVALID_REMOTE_PUSH_DEVICE_TOKEN', 'Device not recognized by the push bouncer', 400);

export async function sendLegacyTestNotification(deps: AppDeps, user: User, token: string | undefined): Promise<number> {
  requireHuman(user);
  const service = deps.config.pushService;
  if (!service) throw pushNotConfigured();
  const query = deps.knex('push_device_tokens').where({ realm_id: deps.realmId, user_id: user.id }).orderBy('id');
  if (token !== undefined) query.where('token', token);
  const tokens: { kind: DeviceTokenKind; token: string }[] = await query.select('kind', 'token');
  if (token !== undefined && tokens.length === 0) throw unknownDeviceToken();
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first('name');
  const identity = realmIdentity(deps.config, deps.realmId, realm?.name ?? deps.config.realmName);
  // Zulip's get_base_payload: what lets an app tell which account a notification is for.
  const basePayload = {
    server: identity.server,
    realm_id: deps.realmId,
    realm_uri: identity.realmUrl,
    realm_url: identity.realmUrl,
    realm_name: identity.realmName,
    user_id: user.id,
  };
  for (const device of tokens) {
    const body = {
      realm_uuid: realmUuid(service, deps.realmId),
      user_uuid: userUuid(service, deps.realmId, user.id),
      user_id: user.id,
      token: device.token,
      token_kind: SERVICE_TOKEN_KIND[device.kind],
      base_payload: basePayload,
    };
    try {
      await postToBouncer(service, 'push/test_notification', body);
    } catch (error) {
      if (error instanceof BouncerError && error.code === 'INVALID_REMOTE_PUSH_DEVICE_TOKEN') throw unknownRemoteDeviceToken();
      throw clientError(error);
    }
  }
  return tokens.length;
}
