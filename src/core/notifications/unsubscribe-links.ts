import crypto from 'node:crypto';
import type { AppDeps } from '../deps';

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
/** `welcome` turns no setting off: it deletes the pending onboarding emails (as Zulip's does). */
export type UnsubscribeType = keyof typeof UNSUBSCRIBE_SETTINGS | 'welcome';

export async function signingKey(deps: Pick<AppDeps, 'knex' | 'realmId'>): Promise<Buffer> {
  await deps.knex.raw('INSERT INTO email_signing_keys (realm_id, key) VALUES (?, ?) ON CONFLICT (realm_id) DO NOTHING', [
    deps.realmId,
    crypto.randomBytes(32).toString('base64'),
  ]);
  const row = await deps.knex('email_signing_keys').where({ realm_id: deps.realmId }).first();
  return Buffer.from(row.key as string, 'base64');
}

export function sign(key: Buffer, userId: number, type: UnsubscribeType): string {
  return crypto.createHmac('sha256', key).update(`unsubscribe:${type}:${userId}`).digest('base64url');
}

export async function unsubscribeUrl(deps: Pick<AppDeps, 'knex' | 'realmId' | 'config'>, userId: number, type: UnsubscribeType): Promise<string> {
  const key = await signingKey(deps);
  return `${deps.config.externalUrl}/accounts/unsubscribe/${type}/${userId}.${sign(key, userId, type)}`;
}
