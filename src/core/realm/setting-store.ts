import type { Knex } from 'knex';

/**
 * Organization settings that no feature keeps in its own tables: one JSON value per setting in
 * `realm_settings`. A missing row means the catalog's default.
 */
// Values are wrapped ({"v": value}) so that a string value is never mistaken for encoded JSON.
const decode = (value: unknown): unknown => ((typeof value === 'string' ? JSON.parse(value) : value) as { v: unknown }).v;

export async function storedRealmSettings(db: Knex, realmId: number): Promise<Record<string, unknown>> {
  const rows: { name: string; value: unknown }[] = await db('realm_settings').where({ realm_id: realmId }).select('name', 'value');
  return Object.fromEntries(rows.map((r) => [r.name, decode(r.value)]));
}

/** One setting's stored value, or `fallback` when it has never been changed. */
export async function storedRealmSetting<T>(db: Knex, realmId: number, name: string, fallback: T): Promise<T> {
  const row = await db('realm_settings').where({ realm_id: realmId, name }).first('value');
  return row ? (decode(row.value) as T) : fallback;
}

export async function writeRealmSetting(db: Knex, realmId: number, name: string, value: unknown): Promise<void> {
  await db('realm_settings')
    .insert({ realm_id: realmId, name, value: JSON.stringify({ v: value }) })
    .onConflict(['realm_id', 'name'])
    .merge();
}
