import type { Knex } from 'knex';
import type { Delivery } from '../../realtime/bus';
import { CompiledLinkifier, compileLinkifier } from './compiled';
import { listLinkifiers } from './queries';

/**
 * The compiled linkifiers of each organization, kept per process so rendering a message costs no
 * query. An entry is dropped by the action that changes linkifiers once it commits, and on every
 * process by the `realm_linkifiers` event on the bus; a load that overlaps a change is handed to
 * its caller but not kept. Caches are per database (keyed by its connection settings, which its
 * transactions share).
 */
interface Entry {
  loading?: Promise<CompiledLinkifier[]>;
}

const byDatabase = new WeakMap<object, Map<number, Entry>>();

function entries(db: Knex): Map<number, Entry> {
  const key = db.client.config as object;
  let map = byDatabase.get(key);
  if (!map) byDatabase.set(key, (map = new Map()));
  return map;
}

export function realmLinkifiers(db: Knex, realmId: number): Promise<CompiledLinkifier[]> {
  const map = entries(db);
  let entry = map.get(realmId);
  if (!entry) map.set(realmId, (entry = {}));
  if (entry.loading) return entry.loading;
  const current = entry;
  const loading = listLinkifiers(db, realmId).then((rows) => rows.map(compileLinkifier).filter((l): l is CompiledLinkifier => l !== null));
  current.loading = loading;
  loading.catch(() => {
    if (current.loading === loading) current.loading = undefined;
  });
  return loading;
}

export function forgetRealmLinkifiers(db: Knex, realmId: number): void {
  entries(db).delete(realmId);
}

/** For the bus: drops the organization's entry when its linkifiers changed (in any process). */
export function forgetLinkifiersFromDeliveries(db: Knex, deliveries: readonly Delivery[]): void {
  for (const d of deliveries) if (d.event.type === 'realm_linkifiers') forgetRealmLinkifiers(db, d.realmId);
}
