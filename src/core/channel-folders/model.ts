import { Model } from 'objection';

export class ChannelFolder extends Model {
  static tableName = 'channel_folders';

  id!: number;
  realm_id!: number;
  name!: string;
  description!: string;
  rendered_description!: string;
  is_archived!: boolean;
  order!: number;
  creator_id!: number | null;
  date_created!: Date;
}
