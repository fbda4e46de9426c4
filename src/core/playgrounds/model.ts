import { Model } from 'objection';

/** A code playground: a site code blocks of one Pygments language can be opened in. */
export class RealmPlayground extends Model {
  static tableName = 'realm_playgrounds';

  id!: number;
  realm_id!: number;
  name!: string;
  pygments_language!: string;
  url_template!: string;
}

export interface PlaygroundDict {
  id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

export const MAX_PYGMENTS_LANGUAGE_LENGTH = 40;
