import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { AppDeps } from '../deps';
import { inSingleStatement } from '../../db/unit-of-work';
import { ApiError } from '../../errors';
import { forgetAuthAfterCommit, type KeyOwner } from '../users/auth-cache';
import { sha256Hex } from '../users/credentials';
import { User } from '../users/model';
import { LoginDevice, recordLogin } from './login-emails';

/**
 * Web login sessions: the cookie holds a random secret, the database its SHA-256. A session ends
 * at logout, after SESSION_DAYS, when the account's password changes (except the session that
 * changed it) or the account is deactivated. Every end publishes `auth_changed` after the commit,
 * so each process forgets the cached session and closes the WebSockets it authenticated.
 */
const SESSION_DAYS = 14;
export const SESSION_MAX_AGE_SECONDS = SESSION_DAYS * 24 * 3600;

/** What createSession issues: 32 random bytes, base64url. Anything else names no session. */
const SECRET_RE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Sessions are remembered in the authentication cache under the SHA-256 of this prefix and the
 * secret: a NUL cannot appear in a header, so no Authorization header ever finds such an entry.
 */
const CACHE_PREFIX = '\u0000session ';

/** Zulip's answer to a browser request without a usable session. */
export const notLoggedIn = () => new ApiError('UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);

export const sessionHashOf = (secret: string): string => sha256Hex(secret);

/** A login's session; `device` is where the login came from (for the new-login email). */
export async function createSession(deps: AppDeps, userId: number, device: LoginDevice): Promise<string> {
  const secret = crypto.randomBytes(32).toString('base64url');
  await deps.knex('web_sessions').insert({
    realm_id: deps.realmId,
    user_id: userId,
    session_hash: sha256Hex(secret),
    expires_at: new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000),
  });
  await recordLogin(deps, userId, device);
  return secret;
}

type SessionRow = ModelObject<User> & { realm_deactivated: boolean; session_expires_at: Date | string };

/**
 * The active account a session cookie's secret belongs to, while the session is current; refused
 * (401, without a Basic challenge, which would make a browser ask for a password) otherwise. A
 * success is cached like an API key's, unless the session ends sooner than a cache entry would:
 * `fresh` reads the database regardless (checking a live WebSocket again).
 */
export async function authenticateSession(deps: AppDeps, secret: string | undefined, { fresh = false } = {}): Promise<User> {
  if (secret === undefined || !SECRET_RE.test(secret)) throw notLoggedIn();
  const cacheKey = sha256Hex(CACHE_PREFIX + secret);
  if (!fresh) {
    const remembered = deps.authCache.get(cacheKey);
    if (remembered) return sessionAccount(remembered);
  }
  const ticket = deps.authCache.ticket();
  const row = (await deps
    .knex('web_sessions')
    .join('users', 'users.id', 'web_sessions.user_id')
    .join('realms', 'realms.id', 'users.realm_id')
    .where({ 'web_sessions.realm_id': deps.realmId, 'web_sessions.session_hash': sha256Hex(secret) })
    .where('web_sessions.expires_at', '>', new Date())
    .first('users.*', 'realms.deactivated as realm_deactivated', 'web_sessions.expires_at as session_expires_at')) as SessionRow | undefined;
  if (!row) throw notLoggedIn();
  const { realm_deactivated, session_expires_at, ...user } = row;
  const owner: KeyOwner = { user, realmDeactivated: realm_deactivated };
  const account = sessionAccount(owner);
  if (new Date(session_expires_at).getTime() - Date.now() > deps.authCache.ttlMs) deps.authCache.remember(cacheKey, owner, ticket);
  return account;
}

function sessionAccount({ user, realmDeactivated }: KeyOwner): User {
  if (realmDeactivated) throw new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401);
  if (!user.is_active) throw notLoggedIn();
  return Object.assign(new User(), user);
}

/** The active account a session cookie belongs to, if the session is current. */
export async function sessionUser(deps: AppDeps, secret: string | undefined): Promise<User | undefined> {
  try {
    return await authenticateSession(deps, secret);
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** Logout: the session ends here and in every process, with the WebSockets it opened. */
export async function endSession(deps: AppDeps, secret: string | undefined): Promise<void> {
  if (!secret || secret.length > 100) return;
  await inSingleStatement(deps, deps.realmId, async (uow) => {
    const ended = (await uow
      .trx('web_sessions')
      .where({ realm_id: deps.realmId, session_hash: sha256Hex(secret) })
      .delete()
      .returning('user_id')) as { user_id: number }[];
    for (const { user_id } of ended) forgetAuthAfterCommit(deps, uow, user_id);
  });
}

/**
 * Inside an action's transaction: ends the account's sessions, but `keep` (a session's hash: the
 * one that changed its own password). The caller publishes `auth_changed` (forgetAuthAfterCommit).
 */
export async function deleteUserSessions(trx: Knex, userId: number, keep?: string): Promise<void> {
  const query = trx('web_sessions').where({ user_id: userId });
  if (keep !== undefined) query.whereNot('session_hash', keep);
  await query.delete();
}
