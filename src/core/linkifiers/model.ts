import { Model } from 'objection';

/** A linkifier: text matching `pattern` becomes a link to `url_template` filled with its groups. */
export class RealmFilter extends Model {
  static tableName = 'realm_filters';

  id!: number;
  realm_id!: number;
  pattern!: string;
  url_template!: string;
  order!: number;
}

export interface LinkifierDict {
  pattern: string;
  url_template: string;
  id: number;
}
