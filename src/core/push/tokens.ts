import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import type { User } from '../users/model';
import { registerTokenWithService, unregisterTokenWithService } from './service';

/**
 * Device tokens of the mobile apps' original push registration (POST/DELETE
 * /users/me/apns_device_token and /users/me/android_gcm_reg_id), stored per user, kind and token.
 * They are stored whether or not this server can send notifications, as Zulip does; with the push
 * service configured, each is also registered there (and unregistered) within the request, since
 * the service sends a user's notifications to the tokens it holds for that user.
 */
export type DeviceTokenKind = 'apns' | 'fcm';

export const MAX_DEVICE_TOKEN_LENGTH = 4096;

/** The apps' own identifiers: letters, digits, dots and dashes. */
const APP_ID = /^[.a-zA-Z0-9-]+$/;

export function requireHuman(user: User): void {
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
}

function checkToken(token: string, kind: DeviceTokenKind): void {
  if (token === '' || token.length > MAX_DEVICE_TOKEN_LENGTH) throw errors.badRequest('Empty or invalid length token');
  if (kind === 'apns' && !decodesAsHex(token)) throw errors.badRequest('Invalid APNS token');
}

function checkAppId(appId: string): void {
  if (!APP_ID.test(appId)) throw errors.badRequest('Invalid app ID');
}

/** Python's bytes.fromhex, which Zulip uses to read APNs tokens: pairs of hex digits, with ASCII
 * whitespace allowed between pairs only. */
const HEX_PAIRS = /^(?:[ \t\n\r\f\v]*[0-9a-fA-F]{2})*[ \t\n\r\f\v]*$/;

export function decodesAsHex(text: string): boolean {
  return HEX_PAIRS.test(text);
}

/**
 * Registers a token (iOS devices name their app); registering one already known changes nothing
 * here and is repeated at the service, which ignores a token it has. The local row stays when the
 * service cannot be reached: the app registers again on its next start.
 */
export async function addDeviceToken(deps: AppDeps, user: User, kind: DeviceTokenKind, token: string, iosAppId: string | null): Promise<void> {
  requireHuman(user);
  if (iosAppId !== null) checkAppId(iosAppId);
  checkToken(token, kind);
  await deps
    .knex('push_device_tokens')
    .insert({ realm_id: deps.realmId, user_id: user.id, kind, token, ios_app_id: iosAppId, last_updated: new Date() })
    .onConflict(['user_id', 'kind', 'token'])
    .ignore();
  const service = deps.config.pushService;
  if (service) await registerTokenWithService(service, user, kind, token, iosAppId);
}

/**
 * Forgets one of the user's tokens ("Token does not exist" when they have no such token). With the
 * service configured, the service decides that: a token registered there before it was stored
 * here is still removed there.
 */
export async function removeDeviceToken(deps: AppDeps, user: User, kind: DeviceTokenKind, token: string): Promise<void> {
  requireHuman(user);
  checkToken(token, kind);
  const deleted = await deps.knex('push_device_tokens').where({ user_id: user.id, kind, token }).delete().returning('id');
  const service = deps.config.pushService;
  if (service) await unregisterTokenWithService(service, user, kind, token);
  else if (deleted.length === 0) throw errors.badRequest('Token does not exist');
}
