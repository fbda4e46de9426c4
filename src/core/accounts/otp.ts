import type { Config } from '../../config';

/**
 * The mobile apps' login through the web page (Zulip's mobile_flow_otp): the app passes a one-time
 * pad of 64 hex digits and receives the new API key XORed with it, through a redirect to its
 * zulip:// URL scheme, so another app registered for that scheme learns nothing usable.
 */
export function isValidOtp(otp: string): boolean {
  return /^[0-9a-fA-F]{64}$/.test(otp);
}

function xorHex(a: string, b: string): string {
  let out = '';
  for (let i = 0; i < a.length; i++) out += (parseInt(a[i], 16) ^ parseInt(b[i], 16)).toString(16);
  return out;
}

/** The key's ASCII as hex, XORed digit by digit with the pad (Zulip's otp_encrypt_api_key). */
export function otpEncryptApiKey(apiKey: string, otp: string): string {
  const hex = Buffer.from(apiKey, 'ascii').toString('hex');
  if (hex.length !== otp.length) throw new Error('the pad must be as long as the hex-encoded key');
  return xorHex(hex, otp);
}

export function otpDecryptApiKey(encrypted: string, otp: string): string {
  return Buffer.from(xorHex(encrypted, otp), 'hex').toString('ascii');
}

/** Where the login page sends the app: zulip://login with the fields in Zulip's order. */
export function mobileFlowRedirect(config: Config, otp: string, apiKey: string, user: { id: number; delivery_email: string }): string {
  const params = new URLSearchParams({
    otp_encrypted_api_key: otpEncryptApiKey(apiKey, otp),
    email: user.delivery_email,
    user_id: String(user.id),
    realm: config.externalUrl,
  });
  return `zulip://login?${params.toString()}`;
}
