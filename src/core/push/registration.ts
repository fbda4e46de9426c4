import sodium from 'libsodium-wrappers';
import type { PushBouncerKeys } from '../../config';
import { ApiError, errors } from '../../errors';
import type { TokenKind } from './model';

/**
 * Opening the registration a mobile client sealed for the push bouncer. The client encrypts
 * {token, token_kind, timestamp, ios_app_id?} to the bouncer's public key with a NaCl sealed box,
 * so only the holder of the bouncer's secret key learns the device token.
 */

/** How old a registration may be: a day, as Zulip allows its bouncer. */
export const REGISTRATION_MAX_AGE_SECONDS = 24 * 60 * 60;
const MAX_TOKEN_LENGTH = 4096;
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
// Apple bundle identifiers: dot-separated alphanumeric and hyphen segments.
const IOS_APP_ID_RE = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

export interface PushRegistration {
  token: string;
  tokenKind: TokenKind;
  iosAppId: string | null;
  timestamp: number;
}

/** RFC 4648 standard base64, or null. */
export function decodeBase64(value: string): Buffer | null {
  if (value === '' || !BASE64_RE.test(value)) return null;
  return Buffer.from(value, 'base64');
}

export const invalidBouncerKey = () => new ApiError('INVALID_BOUNCER_PUBLIC_KEY', 'Invalid bouncer_public_key', 400);
export const invalidRegistration = () => new ApiError('INVALID_ENCRYPTED_PUSH_REGISTRATION', 'Invalid encrypted_push_registration', 400);
export const registrationExpired = () => new ApiError('REQUEST_EXPIRED', 'Request expired', 400);

/** The client's public key: base64 of a 32-byte X25519 key. */
export function checkPushPublicKey(value: string): string {
  const bytes = decodeBase64(value);
  if (!bytes || bytes.length !== sodium.crypto_box_PUBLICKEYBYTES) throw errors.badRequest('Invalid push_public_key');
  return value;
}

export async function openRegistration(
  keys: PushBouncerKeys,
  bouncerPublicKey: string,
  encrypted: string,
  expectedKind: TokenKind,
  nowSeconds: number,
): Promise<PushRegistration> {
  await sodium.ready;
  const claimed = decodeBase64(bouncerPublicKey);
  if (!claimed || !claimed.equals(keys.publicKey)) throw invalidBouncerKey();
  const sealed = decodeBase64(encrypted);
  if (!sealed || sealed.length < sodium.crypto_box_SEALBYTES) throw invalidRegistration();
  let plaintext: Uint8Array;
  try {
    plaintext = sodium.crypto_box_seal_open(sealed, keys.publicKey, keys.secretKey);
  } catch {
    throw invalidRegistration();
  }
  const registration = parseRegistration(Buffer.from(plaintext).toString('utf8'));
  if (!registration || registration.tokenKind !== expectedKind) throw invalidRegistration();
  if (nowSeconds - registration.timestamp > REGISTRATION_MAX_AGE_SECONDS) throw registrationExpired();
  return registration;
}

function parseRegistration(text: string): PushRegistration | null {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { token, token_kind, ios_app_id = null, timestamp } = data as Record<string, unknown>;
  if (typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) return null;
  if (token_kind !== 'fcm' && token_kind !== 'apns') return null;
  if (typeof timestamp !== 'number' || !Number.isSafeInteger(timestamp)) return null;
  if (ios_app_id !== null && (typeof ios_app_id !== 'string' || !IOS_APP_ID_RE.test(ios_app_id))) return null;
  // APNs tokens are hex and come from an iOS app; FCM tokens come without one.
  if (token_kind === 'apns' && (ios_app_id === null || !/^(?:[0-9a-fA-F]{2})+$/.test(token))) return null;
  if (token_kind === 'fcm' && ios_app_id !== null) return null;
  return { token, tokenKind: token_kind, iosAppId: ios_app_id as string | null, timestamp };
}
