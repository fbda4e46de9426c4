import type { Knex } from 'knex';
import type { Delivery, EventBus } from '../realtime/bus';

/**
 * A value derived from a few small tables, held in memory by each process so that hot paths
 * (sending a message) do not read those tables every time. It is dropped, and read again on next
 * use, whenever it may have changed:
 * 1. the action that changed it calls `invalidate` right after its commit (exact in this process);
 * 2. any statement this process sends that writes one of the tables (any action, a script, a test)
 *    drops it and holds it off until the write has settled (a transaction: until it ends), so that
 *    no writer in this process can forget; while held, callers read the database;
 * 3. the bus events named by the cache drop it in every process (with REDIS_URL the bus reaches
 *    all of them): another process's change is seen once its event arrives, which is published
 *    right after its commit.
 * A read that overlapped an invalidation is used once and not kept.
 */
export interface TableCacheSpec<T> {
  /** The tables the value is read from (lower-case names as written in SQL). */
  tables: string[];
  /** Bus event types announcing a change to those tables. */
  eventTypes: string[];
  load(knex: Knex): Promise<T>;
  /**
   * A bound on how long a loaded value is used: a transaction's end is seen when its COMMIT is
   * sent, so a load that starts in the moment before the commit lands can keep what it replaced.
   * Values read on every large request (not only on changes) set this to bound such a miss.
   */
  maxAgeMs?: number;
}

/** How long a write may hold the cache off when its end is never seen (e.g. a lost connection). */
const STALE_HOLD_MS = 60_000;

export class TableCache<T> {
  private value: { data: T; loadedAt: number } | null = null;
  private generation = 0;
  private loading: { generation: number; promise: Promise<T> } | null = null;
  private readonly holds = new Map<string, number>();

  constructor(
    private readonly knex: Knex,
    readonly spec: TableCacheSpec<T>,
  ) {}

  /** The value when it is held and usable now, without waiting (the hot path's fast case). */
  current(): T | undefined {
    if (this.value === null || this.holds.size > 0) return undefined;
    if (this.spec.maxAgeMs !== undefined && Date.now() - this.value.loadedAt > this.spec.maxAgeMs) {
      this.invalidate();
      return undefined;
    }
    return this.value.data;
  }

  /**
   * `db` is the connection to read through when the cache must load: inside a transaction, its
   * own (on PGlite the pool has one connection, held by that transaction). A transaction that wrote
   * the cache's tables holds the cache, so what it reads is never kept.
   */
  async get(db: Knex = this.knex): Promise<T> {
    const held = this.current();
    if (held !== undefined) return held;
    if (!this.writesSettled()) return this.spec.load(db);
    if (this.value) return this.value.data;
    const generation = this.generation;
    if (!this.loading || this.loading.generation !== generation) {
      const loadedAt = Date.now();
      const promise = this.spec.load(db);
      this.loading = { generation, promise };
      promise.then(
        (data) => {
          if (this.loading?.promise === promise) this.loading = null;
          if (generation === this.generation && this.holds.size === 0) this.value = { data, loadedAt };
        },
        () => {
          if (this.loading?.promise === promise) this.loading = null;
        },
      );
    }
    return this.loading.promise;
  }

  invalidate(): void {
    this.generation++;
    this.value = null;
  }

  hold(writeId: string): void {
    if (!this.holds.has(writeId)) this.holds.set(writeId, Date.now());
    this.invalidate();
  }

  release(writeId: string): void {
    if (this.holds.delete(writeId)) this.invalidate();
  }

  onDeliveries(deliveries: Delivery[]): void {
    for (const { event } of deliveries) {
      if (this.spec.eventTypes.includes(event.type)) {
        this.invalidate();
        return;
      }
    }
  }

  private writesSettled(): boolean {
    const now = Date.now();
    for (const [writeId, since] of this.holds) {
      if (now - since > STALE_HOLD_MS) this.holds.delete(writeId);
    }
    return this.holds.size === 0;
  }
}

interface QueryEvent {
  sql?: string;
  __knexTxId?: string;
  __knexQueryUid?: string;
}

const WRITE = /^\s*(?:update|insert\s+into|delete\s+from|alter\s+table|truncate(?:\s+table)?)\s+(?:only\s+)?"?([a-z_]+)"?(?:[\s(]|$)/i;
const ENDS_TRANSACTION = /^\s*(?:commit|rollback|release\s+savepoint)\b/i;

/** Every table cache of one database, with the one knex listener they share. */
class Registry {
  readonly caches = new Map<TableCacheSpec<unknown>, TableCache<unknown>>();
  private readonly byTable = new Map<string, TableCache<unknown>[]>();
  /** Caches held by each open transaction, and by each plain statement in flight. */
  private readonly heldByTx = new Map<string, Set<TableCache<unknown>>>();
  private readonly heldByQuery = new Map<string, TableCache<unknown>[]>();

  constructor(knex: Knex) {
    knex.on('query', (query: QueryEvent) => {
      const sql = query.sql ?? '';
      const tx = query.__knexTxId;
      if (tx && ENDS_TRANSACTION.test(sql)) {
        const held = this.heldByTx.get(tx);
        if (held) {
          this.heldByTx.delete(tx);
          for (const cache of held) cache.release(`tx:${tx}`);
        }
        return;
      }
      const table = WRITE.exec(sql)?.[1];
      const caches = table === undefined ? undefined : this.byTable.get(table.toLowerCase());
      if (!caches) return;
      for (const cache of caches) {
        if (tx) {
          let held = this.heldByTx.get(tx);
          if (!held) this.heldByTx.set(tx, (held = new Set()));
          held.add(cache);
          cache.hold(`tx:${tx}`);
        } else {
          cache.hold(`query:${query.__knexQueryUid}`);
        }
      }
      if (!tx && query.__knexQueryUid) this.heldByQuery.set(query.__knexQueryUid, caches);
    });
    // Runs after every statement: a map lookup unless one of these writes was in flight.
    const settled = (query: QueryEvent) => {
      if (this.heldByQuery.size === 0 || query.__knexTxId || !query.__knexQueryUid) return;
      const caches = this.heldByQuery.get(query.__knexQueryUid);
      if (!caches) return;
      this.heldByQuery.delete(query.__knexQueryUid);
      for (const cache of caches) cache.release(`query:${query.__knexQueryUid}`);
    };
    knex.on('query-response', (_response: unknown, query: QueryEvent) => settled(query));
    knex.on('query-error', (_error: unknown, query: QueryEvent) => settled(query));
  }

  add(cache: TableCache<unknown>): void {
    for (const table of cache.spec.tables) {
      const list = this.byTable.get(table) ?? [];
      list.push(cache);
      this.byTable.set(table, list);
    }
  }
}

const registries = new WeakMap<Knex, Registry>();

/** The process's cache of `spec` for this database, created (and wired to writes and the bus) on first use. */
export function tableCache<T>(deps: { knex: Knex; bus: EventBus }, spec: TableCacheSpec<T>): TableCache<T> {
  let registry = registries.get(deps.knex);
  if (!registry) registries.set(deps.knex, (registry = new Registry(deps.knex)));
  let cache = registry.caches.get(spec as TableCacheSpec<unknown>) as TableCache<T> | undefined;
  if (!cache) {
    const created = new TableCache(deps.knex, spec);
    registry.caches.set(spec as TableCacheSpec<unknown>, created as TableCache<unknown>);
    registry.add(created as TableCache<unknown>);
    deps.bus.subscribe((deliveries) => created.onDeliveries(deliveries));
    cache = created;
  }
  return cache;
}
