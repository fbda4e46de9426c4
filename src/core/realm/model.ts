import { Model } from 'objection';

export class Realm extends Model {
  static tableName = 'realms';

  id!: number;
  string_id!: string;
  name!: string;
  description!: string;
  deactivated!: boolean;
  date_created!: Date;
  icon_source!: string;
  icon_version!: number;
  logo_source!: string;
  logo_version!: number;
  night_logo_source!: string;
  night_logo_version!: number;
}
