import type { Knex } from 'knex';
import { tableCache, TableCacheSpec } from '../../db/table-cache';
import type { EventBus } from '../../realtime/bus';

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

/** The stored values of the named settings (those never changed are absent), in one query. */
export async function storedRealmSettingsNamed(db: Knex, realmId: number, names: readonly string[]): Promise<Record<string, unknown>> {
  if (names.length === 0) return {};
  const rows: { name: string; value: unknown }[] = await db('realm_settings')
    .where({ realm_id: realmId })
    .whereIn('name', [...names])
    .select('name', 'value');
  return Object.fromEntries(rows.map((r) => [r.name, decode(r.value)]));
}

export async function writeRealmSetting(db: Knex, realmId: number, name: string, value: unknown): Promise<void> {
  await db('realm_settings')
    .insert({ realm_id: realmId, name, value: JSON.stringify({ v: value }) })
    .onConflict(['realm_id', 'name'])
    .merge();
}

const cacheSpec: TableCacheSpec<Map<number, Record<string, unknown>>> = {
  tables: ['realm_settings'],
  eventTypes: ['realm'],
  async load(knex: Knex) {
    const rows: { realm_id: number; name: string; value: unknown }[] = await knex('realm_settings').select('realm_id', 'name', 'value');
    const out = new Map<number, Record<string, unknown>>();
    for (const row of rows) {
      let realm = out.get(row.realm_id);
      if (!realm) out.set(row.realm_id, (realm = {}));
      realm[row.name] = decode(row.value);
    }
    return out;
  },
};

const NONE: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/**
 * The stored settings (changed from the catalog's default) from the process's cache, which `realm`
 * events keep exact in every process: for the hot paths that obey a setting (direct messages,
 * presence), where the default costs a map lookup.
 */
export async function cachedRealmSettings(deps: { knex: Knex; bus: EventBus; realmId: number }, db: Knex = deps.knex): Promise<Record<string, unknown>> {
  const cache = tableCache(deps, cacheSpec);
  const all = cache.current() ?? (await cache.get(db));
  return all.get(deps.realmId) ?? NONE;
}
