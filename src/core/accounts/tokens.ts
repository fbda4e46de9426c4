import crypto from 'node:crypto';
import type { Knex } from 'knex';
import { ApiError } from '../../errors';
import { sha256Hex } from '../users/credentials';

/**
 * Single-use confirmation links. The link carries a random secret; only its SHA-256 is stored, so a
 * copy of the database cannot be turned into working links.
 */
export type TokenPurpose = 'password_reset' | 'email_change';

export interface AccountToken {
  id: number;
  realm_id: number;
  user_id: number;
  purpose: TokenPurpose;
  new_email: string | null;
  old_email: string | null;
  expires_at: Date;
  used_at: Date | null;
}

/** Zulip's confirmation keys: 24 lowercase letters and digits. */
const TOKEN_RE = /^[a-z0-9]{24}$/;

function generateSecret(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  while (out.length < 24) {
    for (const byte of crypto.randomBytes(32)) if (byte < 252 && out.length < 24) out += alphabet[byte % 36];
  }
  return out;
}

export async function createToken(
  db: Knex,
  fields: { realmId: number; userId: number; purpose: TokenPurpose; validMinutes: number; newEmail?: string; oldEmail?: string },
): Promise<string> {
  const secret = generateSecret();
  await db('account_tokens').insert({
    realm_id: fields.realmId,
    user_id: fields.userId,
    purpose: fields.purpose,
    token_hash: sha256Hex(secret),
    new_email: fields.newEmail ?? null,
    old_email: fields.oldEmail ?? null,
    expires_at: new Date(Date.now() + fields.validMinutes * 60_000),
  });
  return secret;
}

/** Zulip's answer to a link that is unknown, used or expired. */
export const invalidLink = () => new ApiError('BAD_REQUEST', 'Whoops. The confirmation link has expired or been deactivated.', 400);

/** The token behind a link, while it is unused and unexpired (`forUpdate` inside a transaction). */
export async function findUsableToken(db: Knex, realmId: number, purpose: TokenPurpose, secret: string, forUpdate = false): Promise<AccountToken> {
  if (!TOKEN_RE.test(secret)) throw invalidLink();
  let query = db('account_tokens')
    .where({ realm_id: realmId, purpose, token_hash: sha256Hex(secret) })
    .first<AccountToken | undefined>();
  if (forUpdate) query = query.forUpdate();
  const row = await query;
  if (!row || row.used_at !== null || new Date(row.expires_at).getTime() <= Date.now()) throw invalidLink();
  return row;
}

/** Marks the token used; a second use of the same link is refused. */
export async function markUsed(db: Knex, tokenId: number): Promise<void> {
  const changed = await db('account_tokens').where({ id: tokenId }).whereNull('used_at').update({ used_at: new Date() });
  if (changed !== 1) throw invalidLink();
}
