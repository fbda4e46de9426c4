import type { AppDeps } from '../deps';
import { issueApiKey } from '../users/actions';
import { apiKeyMatches } from '../users/credentials';
import { ApiKey } from '../users/model';
import { openApiKey, sealApiKey } from '../users/sealed-keys';

/**
 * The API key a login with a password hands out. Zulip gives every login the user's one key;
 * Parley stores keys only as hashes, so it cannot hand an existing key out again unless it kept a
 * copy. It keeps one: the key of the user's latest password login, sealed with that password
 * (users/sealed-keys.ts). A later login with the same password opens it and gets the same key, so
 * logging in again (on another phone, or the same one) adds no key; a wrong password opens
 * nothing, and whoever reads the database learns no key without the password. After a password
 * change the old copy no longer opens: that login issues a new sealed key (the old key keeps
 * working, as keys survive password changes in Zulip). Logins without a password (single sign-on)
 * have nothing to open a copy with and issue a key each time.
 */
export async function loginApiKey(deps: AppDeps, userId: number, password: string): Promise<string> {
  const row = await ApiKey.query(deps.knex).where({ user_id: userId }).whereNotNull('sealed').orderBy('id', 'desc').first();
  if (row?.sealed) {
    const apiKey = await openApiKey(row.sealed, password);
    if (apiKey !== null && apiKeyMatches(apiKey, row.key_hash)) return apiKey;
  }
  return issueApiKey(deps, userId, (apiKey) => sealApiKey(apiKey, password));
}
