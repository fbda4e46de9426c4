import sodium from 'libsodium-wrappers';
import { errors } from '../../errors';

/**
 * The client's part of an E2EE registration that this server reads: its public key, which the
 * notification payloads are sealed to. The rest (the token, sealed for the push service) only the
 * service can open.
 */

const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 4648 standard base64, or null. */
export function decodeBase64(value: string): Buffer | null {
  if (value === '' || !BASE64_RE.test(value)) return null;
  return Buffer.from(value, 'base64');
}

/** The client's public key: base64 of a 32-byte X25519 key. */
export async function checkPushPublicKey(value: string): Promise<string> {
  await sodium.ready;
  const bytes = decodeBase64(value);
  if (!bytes || bytes.length !== sodium.crypto_box_PUBLICKEYBYTES) throw errors.badRequest('Invalid push_public_key');
  return value;
}
