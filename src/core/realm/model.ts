import { Model } from 'objection';

export class Realm extends Model {
  static tableName = 'realms';

  id!: number;
  string_id!: string;
  name!: string;
  description!: string;
  deactivated!: boolean;
  date_created!: Date;
}
