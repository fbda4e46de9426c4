import { Model } from 'objection';

export class SavedSnippet extends Model {
  static tableName = 'saved_snippets';

  id!: number;
  realm_id!: number;
  user_id!: number;
  title!: string;
  content!: string;
  date_created!: Date;
}
