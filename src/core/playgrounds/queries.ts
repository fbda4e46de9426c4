import type { Knex } from 'knex';
import { PlaygroundDict, RealmPlayground } from './model';

export async function listPlaygrounds(db: Knex, realmId: number): Promise<PlaygroundDict[]> {
  const rows = await RealmPlayground.query(db).where('realm_id', realmId).orderBy('id');
  return rows.map((r) => ({ id: r.id, name: r.name, pygments_language: r.pygments_language, url_template: r.url_template }));
}
