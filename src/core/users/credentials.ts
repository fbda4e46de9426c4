import crypto from 'node:crypto';
import { Algorithm, hash, verify } from '@node-rs/argon2';

/** API keys: 32 characters of [A-Za-z0-9]; only their SHA-256 is stored. */
const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_RE = /^[A-Za-z0-9]{32}$/;

export function generateApiKey(): string {
  // Rejection sampling keeps every character equally likely.
  let key = '';
  while (key.length < 32) {
    for (const byte of crypto.randomBytes(48)) {
      if (byte < 248 && key.length < 32) key += KEY_ALPHABET[byte % 62];
    }
  }
  return key;
}

// Every authenticated request hashes its credentials: the one-shot form (node 20.12+) allocates no
// Hash object.
export const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** A fast hash is right for keys: they are long and random, so there is nothing to brute-force. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

export function apiKeyMatches(key: string, storedHash: string): boolean {
  const computed = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return computed.length === stored.length && crypto.timingSafeEqual(computed, stored);
}

const ARGON2_OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

// Verified against when the account does not exist, so a failed login costs the same either way.
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(password: string, storedHash: string | null): Promise<boolean> {
  if (storedHash === null) {
    dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}

export function generatePassword(): string {
  return crypto.randomBytes(18).toString('base64url');
}
