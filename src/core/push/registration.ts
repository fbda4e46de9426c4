import sodium from 'libsodium-wrappers';
import { errors } from '../../errors';

/**
 * The client's part of an E2EE registration that this server reads: its push key, which the
 * notification payloads are encrypted with. The rest (the token, sealed for the push service) only
 * the service can open.
 */

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 4648 standard base64, or null. */
export function decodeBase64(value: string): Buffer | null {
  if (value === '' || !BASE64_RE.test(value)) return null;
  return Buffer.from(value, 'base64');
}

/** The first byte of a push key names its cipher: 0x31 is libsodium's secretbox, the only one so far. */
export const PUSH_KEY_TAG_SECRETBOX = 0x31;

/** The client's push key, as Zulip takes it (feature level 432): base64 of the tag byte and a 32-byte secretbox key. */
export async function checkPushKey(value: string): Promise<string> {
  await sodium.ready;
  const bytes = decodeBase64(value);
  if (!bytes || bytes.length !== 1 + sodium.crypto_secretbox_KEYBYTES || bytes[0] !== PUSH_KEY_TAG_SECRETBOX) {
    throw errors.badRequest('Invalid `push_key`');
  }
  return value;
}

/**
 * The push service's id for the app's FCM/APNs token (token_id): base64 of 8 bytes, which the app
 * derives from the token. Kept and reported in its canonical base64 form.
 */
export function checkTokenId(value: string): string {
  const bytes = decodeBase64(value);
  if (!bytes) throw errors.badRequest('`token_id` is not Base64 encoded');
  if (bytes.length !== 8) throw errors.badRequest('Invalid `token_id`');
  return bytes.toString('base64');
}

/**
 * A payload encrypted with the device's push key, as the apps open it: a random 24-byte nonce
 * followed by the secretbox of the JSON text, in base64.
 */
export async function encryptForDevice(plaintext: Record<string, unknown>, pushKeyBase64: string): Promise<string> {
  await sodium.ready;
  const key = Buffer.from(pushKeyBase64, 'base64').subarray(1);
  const nonce = sodium.randombytes_buf(sodium.crypto_secretbox_NONCEBYTES);
  const box = sodium.crypto_secretbox_easy(Buffer.from(JSON.stringify(plaintext), 'utf8'), nonce, key);
  return Buffer.concat([nonce, box]).toString('base64');
}
