import { Model } from 'objection';

/**
 * A logged-in client device (POST /register_client_device, Zulip's feature level 468): the mobile
 * apps create one per account at sign-in, keep its id, and remove it at sign-out. Zulip hangs the
 * device's E2EE push registration on it; here that registration still goes by push account
 * (push_devices), so a device carries no push state yet and reports its push fields as null.
 */
export class ClientDevice extends Model {
  static tableName = 'client_devices';

  id!: number;
  realm_id!: number;
  user_id!: number;
  created_at!: Date;
}

/** A device as the register response's `devices` map holds it. */
export interface ClientDeviceInfo {
  push_key_id: number | null;
  push_token_id: string | null;
  pending_push_token_id: string | null;
  push_token_last_updated_timestamp: number | null;
  push_registration_error_code: string | null;
}

export function deviceInfo(): ClientDeviceInfo {
  return {
    push_key_id: null,
    push_token_id: null,
    pending_push_token_id: null,
    push_token_last_updated_timestamp: null,
    push_registration_error_code: null,
  };
}
