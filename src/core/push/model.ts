import { Model } from 'objection';

export type TokenKind = 'fcm' | 'apns';
export const TOKEN_KINDS: readonly TokenKind[] = ['fcm', 'apns'];

export class PushDevice extends Model {
  static tableName = 'push_devices';

  id!: number;
  realm_id!: number;
  user_id!: number;
  push_account_id!: number;
  token_kind!: TokenKind;
  token!: string;
  ios_app_id!: string | null;
  push_public_key!: string;
  registered_at!: Date;
}
