import type { AppDeps } from '../deps';
import { ApiError } from '../../errors';
import type { KeyOwner } from './auth-cache';
import { API_KEY_RE, apiKeyMatches, hashApiKey, sha256Hex, verifyPassword } from './credentials';
import { User } from './model';
import { loginApiKey } from '../accounts/login-keys';
import { placeholderEmail } from './view';
import { ldapLogin } from '../accounts/ldap-login';
import { readKeyOwner } from './key-owners';
import { LoginDevice, recordLogin } from '../accounts/login-emails';

// Authentication failures are 401s that name the Basic scheme, as Zulip's are. Zulip's server
// answers each of them with the code UNAUTHORIZED, keeping the reason in the message.
const WWW_AUTHENTICATE = { 'WWW-Authenticate': 'Basic realm="zulip"' };
const authError = (msg: string) => new ApiError('UNAUTHORIZED', msg, 401, {}, WWW_AUTHENTICATE);
export const invalidApiKey = () => authError('Invalid API key');
export const realmDeactivated = () => new ApiError('REALM_DEACTIVATED', 'This organization has been deactivated', 401, {}, WWW_AUTHENTICATE);

/**
 * Resolves an email and API key to an active account of an active realm. The address may be the
 * real one or the placeholder that hides it. With `credentials` (the Authorization header they came
 * in), a success is remembered under that header's SHA-256 for `rememberedAuthentication`.
 */
export async function authenticateApiKey(deps: AppDeps, email: string, apiKey: string, credentials?: string): Promise<User> {
  apiKey = apiKey.trim();
  if (!API_KEY_RE.test(apiKey)) throw authError('Malformed API key');
  const ticket = deps.authCache.ticket();
  const owner = await findKeyOwner(deps, apiKey);
  if (!owner) throw invalidApiKey();
  const given = email.trim().toLowerCase();
  if (given !== owner.user.delivery_email.toLowerCase() && given !== placeholderEmail(deps.config, owner.user.id).toLowerCase()) {
    throw invalidApiKey();
  }
  const user = activeAccount(owner);
  if (credentials !== undefined) deps.authCache.remember(sha256Hex(credentials), owner, ticket);
  return user;
}

/** An incoming webhook's `api_key` parameter: the key alone names its account (Zulip's validate_api_key for webhooks). */
export async function authenticateKeyOnly(deps: AppDeps, apiKey: string): Promise<User> {
  apiKey = apiKey.trim();
  if (!API_KEY_RE.test(apiKey)) throw invalidApiKey();
  const owner = await findKeyOwner(deps, apiKey);
  if (!owner) throw invalidApiKey();
  return activeAccount(owner);
}

/**
 * Resolves an API key alone (GraphQL's `Authorization: Bearer <key>`): a key names its account, so
 * the address Basic carries beside it adds nothing to the check.
 */
export async function authenticateBearerKey(deps: AppDeps, apiKey: string, credentials: string): Promise<User> {
  apiKey = apiKey.trim();
  if (!API_KEY_RE.test(apiKey)) throw authError('Malformed API key');
  const ticket = deps.authCache.ticket();
  const owner = await findKeyOwner(deps, apiKey);
  if (!owner) throw invalidApiKey();
  const user = activeAccount(owner);
  deps.authCache.remember(sha256Hex(credentials), owner, ticket);
  return user;
}

/**
 * The account behind credentials that were accepted moments ago, while the cache still vouches for
 * them (every change to keys, addresses or accounts empties it): no parsing, no database, no address
 * check. Deactivation is still checked.
 */
export function rememberedAuthentication(deps: AppDeps, credentials: string): User | undefined {
  const owner = deps.authCache.get(sha256Hex(credentials));
  return owner && activeAccount(owner);
}

function activeAccount({ user, realmDeactivated: deactivatedRealm }: KeyOwner): User {
  if (deactivatedRealm) throw realmDeactivated();
  if (!user.is_active) throw authError('Account is deactivated');
  // A fresh instance per request: handlers may treat it as their own. The row is already in model
  // form (no JSON columns), so a copy onto a new instance is all fromDatabaseJson would do, at half the cost.
  return Object.assign(new User(), user);
}

async function findKeyOwner(deps: AppDeps, apiKey: string): Promise<KeyOwner | undefined> {
  const found = await readKeyOwner(deps.knex, deps.realmId, hashApiKey(apiKey));
  if (!found || !apiKeyMatches(apiKey, found.keyHash)) return undefined;
  return { user: found.user, realmDeactivated: found.realmDeactivated };
}

const authenticationFailed = () => new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);

/**
 * POST /fetch_api_key. Unknown address, wrong password and deactivated account all get the same
 * answer, and an unknown address still costs a password hash. As in Zulip, every attempt counts
 * against the username and a success clears its count; failures also count against the client's
 * address (the device's), so one client cannot try a password on every account.
 */
export async function loginWithPassword(
  deps: AppDeps,
  username: string,
  password: string,
  device: LoginDevice,
): Promise<{ api_key: string; email: string; user_id: number }> {
  const user = await checkPasswordLogin(deps, username, password, device.address);
  const apiKey = await loginApiKey(deps, user.id, password);
  await recordLogin(deps, user.id, device);
  return { api_key: apiKey, email: user.delivery_email, user_id: user.id };
}

/** The account an email and password log in to, with loginWithPassword's limits and refusals. */
export async function checkPasswordLogin(deps: AppDeps, username: string, password: string, address?: string): Promise<User> {
  const key = username.trim().toLowerCase();
  const limits = deps.rateLimits;
  if (address !== undefined) await limits.check('authenticate_by_ip', address);
  await limits.hit('authenticate_by_username', key);
  const realm = await deps.knex('realms').where({ id: deps.realmId }).first('deactivated');
  // With a directory configured it is asked first; accounts with a password here still work.
  const fromDirectory = await ldapLogin(deps, username, password);
  if (fromDirectory && !realm?.deactivated) {
    await limits.clear('authenticate_by_username', key);
    return fromDirectory;
  }
  const user = await User.query(deps.knex).where('realm_id', deps.realmId).whereRaw('lower(delivery_email) = ?', [key]).first();
  const ok = await verifyPassword(password, user?.password_hash ?? null);
  if (!user || !ok || !user.is_active || realm?.deactivated) {
    if (address !== undefined) await limits.record('authenticate_by_ip', address);
    // Only the right password learns that the organization is deactivated.
    if (user && ok && user.is_active && realm?.deactivated) throw realmDeactivated();
    throw authenticationFailed();
  }
  await limits.clear('authenticate_by_username', key);
  return user;
}
