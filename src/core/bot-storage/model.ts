import { Model } from 'objection';

/** One entry of an account's bot storage (Zulip's BotStorageData). */
export class BotStorageEntry extends Model {
  static tableName = 'bot_storage';

  id!: number;
  realm_id!: number;
  user_id!: number;
  key!: string;
  value!: string;
}
