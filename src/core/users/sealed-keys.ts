import crypto from 'node:crypto';
import { Algorithm, hashRaw } from '@node-rs/argon2';

/**
 * An API key sealed with a password: AES-256-GCM under a key derived from the password by
 * argon2id with the cost of stored password hashes, so the sealed copy is no easier to attack than
 * the password's own hash. Only someone who knows the password can open it.
 * Format: v1.<salt>.<iv>.<tag>.<ciphertext>, each part base64url.
 */
const KDF_OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1, outputLen: 32 };

const keyFrom = (password: string, salt: Buffer) => hashRaw(password, { ...KDF_OPTIONS, salt });

export async function sealApiKey(apiKey: string, password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', await keyFrom(password, salt), iv);
  const sealed = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
  return ['v1', salt, iv, cipher.getAuthTag(), sealed].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

/** The key, or null when the password is not the one it was sealed with (or the text is not a seal). */
export async function openApiKey(sealed: string, password: string): Promise<string | null> {
  const parts = sealed.split('.');
  if (parts.length !== 5 || parts[0] !== 'v1') return null;
  const [salt, iv, tag, data] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', await keyFrom(password, salt), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
