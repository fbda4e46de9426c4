import crypto from 'node:crypto';
import type { AppDeps } from '../deps';
import { sanitizeFileName } from './paths';

/**
 * Zulip's temporary download links, for clients that cannot send credentials (an image view, a
 * browser): /user_uploads/temporary/<token>/<file name>, valid for a minute. The token is the
 * path_id and its expiry, signed with the organization's key; nothing is stored per link.
 */
export const TEMPORARY_URL_SECONDS = 60;

const keys = new WeakMap<object, Map<number, Promise<Buffer>>>();

/** The organization's signing key, made on first use (every server process reads the same one). */
function signingKey(deps: AppDeps): Promise<Buffer> {
  let byRealm = keys.get(deps.knex);
  if (!byRealm) {
    byRealm = new Map();
    keys.set(deps.knex, byRealm);
  }
  let key = byRealm.get(deps.realmId);
  if (!key) {
    key = (async () => {
      const fresh = crypto.randomBytes(32).toString('base64');
      await deps.knex('realms').where({ id: deps.realmId }).whereNull('upload_signing_key').update({ upload_signing_key: fresh });
      const row = await deps.knex('realms').where({ id: deps.realmId }).first('upload_signing_key');
      return Buffer.from(row.upload_signing_key as string, 'base64');
    })();
    key.catch(() => byRealm!.delete(deps.realmId));
    byRealm.set(deps.realmId, key);
  }
  return key;
}

const sign = (key: Buffer, payload: string) => crypto.createHmac('sha256', key).update(payload).digest('base64url');

export async function temporaryUrl(deps: AppDeps, pathId: string, now = Date.now()): Promise<string> {
  const expires = Math.floor(now / 1000) + TEMPORARY_URL_SECONDS;
  const payload = Buffer.from(`${expires}:${pathId}`).toString('base64url');
  const token = `${payload}.${sign(await signingKey(deps), payload)}`;
  const name = sanitizeFileName(pathId.slice(pathId.lastIndexOf('/') + 1));
  return `/user_uploads/temporary/${token}/${encodeURIComponent(name)}`;
}

/** The path_id a valid, unexpired token names; null otherwise. */
export async function pathIdFromToken(deps: AppDeps, token: string, now = Date.now()): Promise<string | null> {
  const dot = token.indexOf('.');
  if (dot < 0) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(sign(await signingKey(deps), payload));
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
  const decoded = Buffer.from(payload, 'base64url').toString();
  const colon = decoded.indexOf(':');
  const expires = Number(decoded.slice(0, colon));
  if (colon < 0 || !Number.isSafeInteger(expires) || expires * 1000 < now) return null;
  return decoded.slice(colon + 1);
}
