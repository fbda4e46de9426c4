import crypto from 'node:crypto';
import type { AppDeps } from '../deps';
import { sha256Hex } from '../users/credentials';
import { User } from '../users/model';

/**
 * Web login sessions: the cookie holds a random secret, the database its SHA-256. A session ends
 * at logout, after SESSION_DAYS, or when the account's password is reset or it leaves.
 */
const SESSION_DAYS = 14;
export const SESSION_MAX_AGE_SECONDS = SESSION_DAYS * 24 * 3600;

export async function createSession(deps: AppDeps, userId: number): Promise<string> {
  const secret = crypto.randomBytes(32).toString('base64url');
  await deps.knex('web_sessions').insert({
    realm_id: deps.realmId,
    user_id: userId,
    session_hash: sha256Hex(secret),
    expires_at: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
  });
  return secret;
}

/** The active account a session cookie belongs to, if the session is current. */
export async function sessionUser(deps: AppDeps, secret: string | undefined): Promise<User | undefined> {
  if (!secret || secret.length > 100) return undefined;
  const row = await deps
    .knex('web_sessions')
    .where({ realm_id: deps.realmId, session_hash: sha256Hex(secret) })
    .where('expires_at', '>', new Date())
    .first('user_id');
  if (!row) return undefined;
  const user = await User.query(deps.knex).findById(row.user_id);
  return user?.is_active ? user : undefined;
}

export async function endSession(deps: AppDeps, secret: string | undefined): Promise<void> {
  if (!secret || secret.length > 100) return;
  await deps
    .knex('web_sessions')
    .where({ realm_id: deps.realmId, session_hash: sha256Hex(secret) })
    .delete();
}
