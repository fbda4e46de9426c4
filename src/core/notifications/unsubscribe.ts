import crypto from 'node:crypto';
import type { AppDeps } from '../deps';
import { updateOwnSettings } from '../settings/actions';
import { User } from '../users/model';

/**
 * Unsubscribe links in notification and new-login emails: `/accounts/unsubscribe/<type>/<token>`, where the
 * token names the user and is signed with the realm's key (made once, kept in the database), so
 * a link works without logging in and cannot be made for someone else.
 */
export const UNSUBSCRIBE_SETTINGS = {
  missed_messages: 'enable_offline_email_notifications',
  digest: 'enable_digest_emails',
  login: 'enable_login_emails',
} as const;
export type UnsubscribeType = keyof typeof UNSUBSCRIBE_SETTINGS;

async function signingKey(deps: Pick<AppDeps, 'knex' | 'realmId'>): Promise<Buffer> {
  await deps.knex.raw('INSERT INTO email_signing_keys (realm_id, key) VALUES (?, ?) ON CONFLICT (realm_id) DO NOTHING', [
    deps.realmId,
    crypto.randomBytes(32).toString('base64'),
  ]);
  const row = await deps.knex('email_signing_keys').where({ realm_id: deps.realmId }).first();
  return Buffer.from(row.key as string, 'base64');
}

function sign(key: Buffer, userId: number, type: UnsubscribeType): string {
  return crypto.createHmac('sha256', key).update(`unsubscribe:${type}:${userId}`).digest('base64url');
}

export async function unsubscribeUrl(deps: Pick<AppDeps, 'knex' | 'realmId' | 'config'>, userId: number, type: UnsubscribeType): Promise<string> {
  const key = await signingKey(deps);
  return `${deps.config.externalUrl}/accounts/unsubscribe/${type}/${userId}.${sign(key, userId, type)}`;
}

/** Turns the setting off for the token's user; false when the link is not valid. */
export async function unsubscribe(deps: AppDeps, type: string, token: string): Promise<boolean> {
  if (!(type in UNSUBSCRIBE_SETTINGS)) return false;
  const match = /^(\d{1,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return false;
  const userId = Number(match[1]);
  const expected = Buffer.from(sign(await signingKey(deps), userId, type as UnsubscribeType));
  const given = Buffer.from(match[2]);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) return false;
  const user = await User.query(deps.knex).findById(userId);
  if (!user || !user.is_active || user.realm_id !== deps.realmId) return false;
  await updateOwnSettings(deps, user, { settings: { [UNSUBSCRIBE_SETTINGS[type as UnsubscribeType]]: false } });
  return true;
}
