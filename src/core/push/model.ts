import { Model } from 'objection';

export type TokenKind = 'fcm' | 'apns';
export const TOKEN_KINDS: readonly TokenKind[] = ['fcm', 'apns'];

export type PushDeviceStatus = 'pending' | 'active' | 'failed';

/**
 * A device registered for E2EE push notifications. The token stays with the push service: this
 * server keeps the client's key, the sealed registration until the service has taken it, then the
 * service's id for the device (or the service's error code).
 */
export class PushDevice extends Model {
  static tableName = 'push_devices';

  id!: number;
  realm_id!: number;
  user_id!: number;
  push_account_id!: number;
  token_kind!: TokenKind;
  push_key!: string;
  registered_at!: Date;
  bouncer_device_id!: number | null;
  error_code!: string | null;
  bouncer_public_key!: string | null;
  encrypted_push_registration!: string | null;
  register_due_at!: Date | null;
  register_claimed_until!: Date | null;
  register_attempts!: number;
}

/** As Zulip reports it: failed with an error code, active once the service has named the device. */
export function deviceStatus(device: Pick<PushDevice, 'error_code' | 'bouncer_device_id'>): PushDeviceStatus {
  if (device.error_code !== null) return 'failed';
  return device.bouncer_device_id === null ? 'pending' : 'active';
}
