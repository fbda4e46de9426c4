import { Model } from 'objection';

/** A custom emoji of the organization. Deactivated ones stay for old messages and reactions. */
export class RealmEmoji extends Model {
  static tableName = 'realm_emoji';

  id!: number;
  realm_id!: number;
  name!: string;
  file_name!: string | null;
  content_type!: string | null;
  image!: Buffer | null;
  author_id!: number | null;
  deactivated!: boolean;
  date_created!: Date;
}

/** Every column but the image bytes, for listings. */
export const REALM_EMOJI_COLUMNS = ['id', 'realm_id', 'name', 'file_name', 'content_type', 'author_id', 'deactivated', 'date_created'];
