import { Model } from 'objection';

/** The service an outgoing-webhook bot calls (Zulip's Service). */
export class BotService extends Model {
  static tableName = 'bot_services';

  id!: number;
  realm_id!: number;
  bot_id!: number;
  name!: string;
  base_url!: string;
  interface!: number;
  token!: string;
}
