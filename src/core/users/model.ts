import { Model } from 'objection';

export class User extends Model {
  static tableName = 'users';

  id!: number;
  realm_id!: number;
  delivery_email!: string;
  full_name!: string;
  role!: number;
  is_active!: boolean;
  is_bot!: boolean;
  bot_type!: number | null;
  bot_owner_id!: number | null;
  /** A bot the server runs itself, outside the organization (see core/system-bots). */
  is_system_bot!: boolean;
  password_hash!: string | null;
  timezone!: string;
  date_joined!: Date;
  /** Created through the API and not logged in yet: date_joined moves to the first login. */
  awaiting_first_login!: boolean;
  avatar_source!: string;
  avatar_version!: number;
  can_create_users!: boolean;
  email_address_visibility!: number;
  /** Bots' defaults (Zulip's bot settings); null when unset. */
  default_sending_stream_id!: number | null;
  default_events_register_stream_id!: number | null;
  default_all_public_streams!: boolean;
}

/** The account a request is made as, after authentication. */
export type AuthedUser = User;

export class ApiKey extends Model {
  static tableName = 'api_keys';

  id!: number;
  realm_id!: number;
  user_id!: number;
  key_hash!: string;
  /** The key sealed with the password of the login that issued it (accounts/login-keys.ts); null otherwise. */
  sealed!: string | null;
  /** A bot's key kept readable for those who manage the bot (GET /bots/{bot_id}/api_key); null for people's keys. */
  bot_key!: string | null;
  created_at!: Date;
}
