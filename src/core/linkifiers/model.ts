import { Model } from 'objection';

/** A linkifier: text matching `pattern` becomes a link to `url_template` filled with its groups. */
export class RealmFilter extends Model {
  static tableName = 'realm_filters';

  id!: number;
  realm_id!: number;
  pattern!: string;
  url_template!: string;
  /** Text the pattern matches; needed by a reverse template, which must turn it back into itself. */
  example_input!: string | null;
  /** `{group}` placeholders (`{{`/`}}` for braces): the text a pasted URL matching a template becomes. */
  reverse_template!: string | null;
  /** Further URL templates recognized only when converting pasted URLs back into text. */
  alternative_url_templates!: string[];
  order!: number;
}

export interface LinkifierDict {
  pattern: string;
  url_template: string;
  id: number;
  example_input: string | null;
  reverse_template: string | null;
  alternative_url_templates: string[];
}
