import type { Knex } from 'knex';
import { LinkifierDict, RealmFilter } from './model';

/** The organization's linkifiers in the order they apply (ties by id, oldest first). */
export async function listLinkifiers(db: Knex, realmId: number): Promise<LinkifierDict[]> {
  const rows = await RealmFilter.query(db)
    .select('id', 'pattern', 'url_template', 'example_input', 'reverse_template', 'alternative_url_templates')
    .where('realm_id', realmId)
    .orderBy([{ column: 'order' }, { column: 'id' }]);
  return rows.map((r) => ({
    pattern: r.pattern,
    url_template: r.url_template,
    id: r.id,
    example_input: r.example_input,
    reverse_template: r.reverse_template,
    alternative_url_templates: r.alternative_url_templates ?? [],
  }));
}
