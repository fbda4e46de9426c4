import { registerClientDevice, removeClientDevice } from '../core/devices/actions';
import { TOKEN_KINDS } from '../core/devices/model';
import { registerDevicePush } from '../core/push/actions';
import { sendE2eeTestNotification } from '../core/push/test-notification';
import { addDeviceToken, DeviceTokenKind, removeDeviceToken, requireHuman } from '../core/push/tokens';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const pushRoutes: Route[] = [
  {
    method: 'POST',
    path: '/register_client_device',
    endpoint: endpoint({
      params: {},
      handler: async ({ deps, user }) => ({ device_id: await registerClientDevice(deps, user) }),
    }),
  },
  {
    method: 'POST',
    path: '/remove_client_device',
    endpoint: endpoint({
      params: { device_id: p.int() },
      handler: async ({ deps, user, params }) => {
        await removeClientDevice(deps, user, params.device_id);
      },
    }),
  },
  {
    method: 'POST',
    path: '/mobile_push/register',
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: {
        device_id: p.int(),
        push_key: p.string().optional(),
        push_key_id: p.int().optional(),
        token_kind: p.enum(TOKEN_KINDS).optional(),
        token_id: p.string().optional(),
        bouncer_public_key: p.string().optional(),
        encrypted_push_registration: p.string().optional(),
      },
      handler: async ({ deps, user, params }) => {
        await registerDevicePush(deps, user, {
          deviceId: params.device_id,
          pushKey: params.push_key,
          pushKeyId: params.push_key_id,
          tokenKind: params.token_kind,
          tokenId: params.token_id,
          bouncerPublicKey: params.bouncer_public_key,
          encryptedPushRegistration: params.encrypted_push_registration,
        });
      },
    }),
  },
  {
    method: 'POST',
    path: '/mobile_push/e2ee/test_notification',
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: { device_id: p.int().optional() },
      handler: async ({ deps, user, params }) => {
        await sendE2eeTestNotification(deps, user, params.device_id);
      },
    }),
  },
  {
    method: 'POST',
    path: '/users/me/apns_device_token',
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: { appid: p.string(), token: p.string() },
      handler: async ({ deps, user, params }) => {
        await addDeviceToken(deps, user, 'apns', params.token, params.appid);
      },
    }),
  },
  removeTokenRoute('/users/me/apns_device_token', 'apns'),
  {
    method: 'POST',
    path: '/users/me/android_gcm_reg_id',
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: { token: p.string() },
      handler: async ({ deps, user, params }) => {
        await addDeviceToken(deps, user, 'fcm', params.token, null);
      },
    }),
  },
  removeTokenRoute('/users/me/android_gcm_reg_id', 'fcm'),
];

/** The apps remove their token at logout. */
function removeTokenRoute(path: string, kind: DeviceTokenKind): Route {
  return {
    method: 'DELETE',
    path,
    endpoint: endpoint({
      guard: ({ user }) => requireHuman(user),
      params: { token: p.string() },
      handler: async ({ deps, user, params }) => {
        await removeDeviceToken(deps, user, kind, params.token);
      },
    }),
  };
}
