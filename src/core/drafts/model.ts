import { Model } from 'objection';

export type DraftType = '' | 'stream' | 'private';

export class Draft extends Model {
  static tableName = 'drafts';

  id!: number;
  realm_id!: number;
  user_id!: number;
  type!: DraftType;
  to!: number[];
  topic!: string;
  content!: string;
  last_edit_time!: Date;
}
