import { Model } from 'objection';

export type TokenKind = 'fcm' | 'apns';
export const TOKEN_KINDS: readonly TokenKind[] = ['fcm', 'apns'];

/**
 * A logged-in client device (POST /register_client_device, Zulip's feature level 468): the mobile
 * apps create one per account at sign-in, keep its id, and remove it at sign-out. Its E2EE push
 * registration hangs on it (POST /mobile_push/register): the app's push key and key id, and the
 * push service's ids for the app's FCM/APNs token (base64 of 8 bytes), the registered one and one
 * being registered. The token itself stays with the push service: this server keeps the sealed
 * registration only until the service has taken it (or refused it, with its error code).
 */
export class ClientDevice extends Model {
  static tableName = 'client_devices';

  id!: number;
  realm_id!: number;
  user_id!: number;
  created_at!: Date;
  push_key!: string | null;
  push_key_id!: number | null;
  push_token_kind!: TokenKind | null;
  push_token_id!: string | null;
  pending_push_token_id!: string | null;
  push_token_updated_at!: Date | null;
  push_registration_error_code!: string | null;
  bouncer_public_key!: string | null;
  encrypted_push_registration!: string | null;
  register_due_at!: Date | null;
  register_claimed_until!: Date | null;
  register_attempts!: number;
}

/** A device as the register response's `devices` map holds it. */
export interface ClientDeviceInfo {
  push_key_id: number | null;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_last_updated_timestamp: number | null;
  push_registration_error_code: string | null;
}

export function deviceInfo(row?: ClientDevice): ClientDeviceInfo {
  return {
    push_key_id: row?.push_key_id ?? null,
    push_token_id: row?.push_token_id ?? null,
    pending_push_token_id: row?.pending_push_token_id ?? null,
    push_token_last_updated_timestamp: row?.push_token_updated_at ? Math.floor(new Date(row.push_token_updated_at).getTime() / 1000) : null,
    push_registration_error_code: row?.push_registration_error_code ?? null,
  };
}
