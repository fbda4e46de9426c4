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
  if (kind === 'apns' && !decodesAsBase64(token)) throw errors.badRequest('Invalid APNS token');
}

function checkAppId(appId: string): void {
  if (!APP_ID.test(appId)) throw errors.badRequest('Invalid app ID');
}

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;

/**
 * Whether a lenient base64 decoder (Python's default, which Zulip uses to read APNs tokens) accepts
 * the text: characters outside the alphabet are skipped, and the data must end on a whole group,
 * or be closed by enough padding, after which anything is ignored.
 */
export function decodesAsBase64(text: string): boolean {
  // Only ASCII text is decoded at all.
  if (/[^\x00-\x7f]/.test(text)) return false;
  let quadPos = 0;
  let pads = 0;
  for (const c of text) {
    if (c === '=') {
      if (quadPos >= 2 && quadPos + ++pads >= 4) return true;
      continue;
    }
    if (!BASE64_ALPHABET.test(c)) continue;
    pads = 0;
    quadPos = (quadPos + 1) % 4;
  }
  return quadPos === 0;
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
