import type { Knex } from 'knex';

/**
 * A per-process cache of one value per user, read from the database on a miss and kept exact by
 * whoever owns it: events on the bus (from every process) update or forget entries, and writes this
 * process sends to the tables behind the values hold it (see `watchTableWrites`).
 *
 * A read that began before an update or a forget must not store what it read: `ticket` before the
 * read, `store` with it after. Entries also expire after `ttlMs`, which bounds changes nobody
 * announced (another process's script, on a database this process does not own).
 */
export class UserValueCache<T> {
  private readonly entries = new Map<number, { value: T; expiresAt: number }>();
  /** Bumped by `forgetAll`; a ticket from before it is void. */
  private generation = 0;
  /** Per user, bumped by every change to that user's value; a ticket from before it is void. */
  private readonly versions = new Map<number, number>();
  private readonly holds: WriteHolds;

  constructor(
    public ttlMs: number,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.holds = new WriteHolds(now);
  }

  get(userId: number): T | undefined {
    const entry = this.entries.get(userId);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(userId);
      return undefined;
    }
    return entry.value;
  }

  ticket(userId: number): string {
    return `${this.generation}:${this.versions.get(userId) ?? 0}`;
  }

  store(userId: number, value: T, ticket: string): void {
    if (ticket !== this.ticket(userId) || this.ttlMs <= 0 || !this.holds.settled()) return;
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(userId, { value, expiresAt: this.now() + this.ttlMs });
  }

  /** Changes a cached value in place (when there is one); reads in flight will not store. */
  update(userId: number, change: (value: T) => T): void {
    this.versions.set(userId, (this.versions.get(userId) ?? 0) + 1);
    const entry = this.entries.get(userId);
    if (entry) entry.value = change(entry.value);
  }

  forget(userId: number): void {
    this.versions.set(userId, (this.versions.get(userId) ?? 0) + 1);
    this.entries.delete(userId);
  }

  forgetAll(): void {
    this.generation++;
    this.versions.clear();
    this.entries.clear();
  }

  /** A write that may change values has begun: forget everything, store nothing until `release`. */
  hold(writeId: string): void {
    this.holds.add(writeId);
    this.forgetAll();
  }

  release(writeId: string): void {
    if (this.holds.remove(writeId)) this.forgetAll();
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Writes in flight that hold a cache, by id, with when they began. */
export class WriteHolds {
  private readonly since = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  add(writeId: string): void {
    if (!this.since.has(writeId)) this.since.set(writeId, this.now());
  }

  /** Whether the write was holding. */
  remove(writeId: string): boolean {
    return this.since.delete(writeId);
  }

  settled(): boolean {
    for (const [writeId, since] of this.since) {
      // A write whose end is never seen (e.g. a lost connection) stops holding after a minute.
      if (this.now() - since > 60_000) this.since.delete(writeId);
    }
    return this.since.size === 0;
  }
}

export interface WriteHolder {
  hold(writeId: string): void;
  release(writeId: string): void;
}

/** Which statements hold a cache (a RegExp will do); told whether the statement runs in a transaction. */
export interface StatementTest {
  test(sql: string, inTransaction: boolean): boolean;
}

const ENDS_TRANSACTION = /^\s*(?:commit|rollback|release\s+savepoint)\b/i;

interface QueryEvent {
  sql?: string;
  __knexTxId?: string;
  __knexQueryUid?: string;
}

/**
 * Holds `cache` while a statement matching `writes` is in flight: knex reports every statement
 * before it runs and a plain statement's end; a transaction's writes are released when it ends.
 * Statements sent outside knex's query events (prepared ones, see src/db/prepared.ts) are not seen.
 */
export function watchTableWrites(knex: Knex, writes: StatementTest, cache: WriteHolder): void {
  knex.on('query', (query: QueryEvent) => {
    const sql = query.sql ?? '';
    const tx = query.__knexTxId;
    if (tx && ENDS_TRANSACTION.test(sql)) cache.release(`tx:${tx}`);
    else if (writes.test(sql, tx !== undefined)) cache.hold(tx ? `tx:${tx}` : `query:${query.__knexQueryUid}`);
  });
  const settled = (query: QueryEvent) => {
    if (!query.__knexTxId) cache.release(`query:${query.__knexQueryUid}`);
  };
  knex.on('query-response', (_response: unknown, query: QueryEvent) => settled(query));
  knex.on('query-error', (_error: unknown, query: QueryEvent) => settled(query));
}

/** The regular expression of statements that write any of `tables` (by name, optionally quoted). */
export function writesTables(tables: string[], verbs = 'update|insert\\s+into|delete\\s+from|alter\\s+table|truncate(?:\\s+table)?'): RegExp {
  return new RegExp(`^\\s*(?:${verbs})\\s+(?:only\\s+)?"?(?:${tables.join('|')})"?(?:[\\s(]|$)`, 'i');
}

/**
 * The embedded database (PGlite, through its knex client class): only this process can write it.
 * PostgreSQL is named by the 'pg' driver and may have other writers.
 */
export function isEmbeddedDatabase(knex: Knex): boolean {
  const client = (knex as { client?: { config?: { client?: unknown } } }).client?.config?.client;
  return typeof client === 'function';
}

/**
 * One value for the whole organization (e.g. every account row), kept like `UserValueCache`'s
 * entries: read on a miss, dropped by `forget` and by watched writes, never stored by a read that
 * began before either. Callers must not change what it returns.
 */
export class SnapshotCache<T> {
  private entry: { value: T; expiresAt: number } | undefined;
  private generation = 0;
  /**
   * The read under way, which callers of the same generation share: when the value expires under
   * load, one read serves every request that arrives meanwhile instead of one read each (for the
   * organization's account rows, thousands of rows per read).
   */
  private reading: { generation: number; value: Promise<T> } | undefined;
  private readonly holds: WriteHolds;

  constructor(
    public ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.holds = new WriteHolds(now);
  }

  get(read: () => Promise<T>): Promise<T> {
    if (this.entry && this.entry.expiresAt > this.now()) return Promise.resolve(this.entry.value);
    const ticket = this.generation;
    // A read that began before a change (forget, hold) is not shared with callers after it.
    if (this.reading?.generation === ticket) return this.reading.value;
    const value = read().then((result) => {
      if (ticket === this.generation && this.ttlMs > 0 && this.holds.settled()) this.entry = { value: result, expiresAt: this.now() + this.ttlMs };
      return result;
    });
    const reading = { generation: ticket, value };
    this.reading = reading;
    const done = () => {
      if (this.reading === reading) this.reading = undefined;
    };
    value.then(done, done);
    return value;
  }

  forget(): void {
    this.generation++;
    this.entry = undefined;
  }

  hold(writeId: string): void {
    this.holds.add(writeId);
    this.forget();
  }

  release(writeId: string): void {
    if (this.holds.remove(writeId)) this.forget();
  }
}
