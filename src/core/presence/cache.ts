import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { Delivery } from '../../realtime/bus';
import { presenceTimes } from './format';
import { watchTableWrites, WriteHolds, writesTables } from '../../db/user-value-cache';

/**
 * The organization's presence, held in memory by each server process so that a presence report
 * (every client, every minute) needs no database read, and writes only when the stored times are
 * old enough (see reportPresence).
 *
 * What it holds is exactly the user_presence table as of update id `watermark`, plus this process's
 * own later writes. Update ids are handed out by one counter row per realm that each write keeps
 * locked until it commits, so committed ids have no gaps and become visible in order: every id up
 * to `watermark` is known, and an answer "what changed after X" built from ids in (X, watermark]
 * never lets a client skip a change it has not seen. A cache that lags only answers as the
 * database would have a moment earlier; the client gets the rest at its next poll.
 *
 * It is brought up to date by:
 * 1. this process's reports, applied as they are written;
 * 2. a read of the rows changed after `watermark` when an id is missing (another process wrote it:
 *    with REDIS_URL every write announces its id on the bus), and at least every SYNC_MS anyway;
 * 3. a full reload, which also refreshes each account's state and presence_enabled, whenever this
 *    process writes users, user_settings or presence by other statements (any action, a script, a
 *    test), when the bus reports a change to a user or to presence_enabled (from any process), and
 *    at least every FULL_MS. While such a write is in flight or its transaction open, the cache is
 *    not used and callers read the database.
 */

/** Bus event (never delivered to a client: it has no recipients) announcing a presence write. */
export const PRESENCE_WRITTEN = 'presence_written';

/** The longest the cache goes without reading what other processes wrote. */
export const SYNC_MS = 1_000;
const FULL_MS = 60_000;

export interface CachedPresence {
  userId: number;
  updateId: number;
  lastActiveMs: number | null;
  lastConnectedMs: number;
  /** UNIX seconds, as sent to clients (see presenceTimes). */
  active: number;
  connected: number;
  /** An active, human account: part of the organization's presence. */
  listed: boolean;
  presenceEnabled: boolean;
}

type Tuple = [number, number, number, number, number | null, number, boolean, boolean];

function entryOf([userId, updateId, active, connected, lastActiveMs, lastConnectedMs, listed, presenceEnabled]: Tuple): CachedPresence {
  return { userId, updateId: Number(updateId), active: Number(active), connected: Number(connected), lastActiveMs, lastConnectedMs, listed, presenceEnabled };
}

const SECONDS = (column: string) => `floor(date_part('epoch', ${column}))::bigint`;
const MILLIS = (column: string) => `floor(date_part('epoch', ${column}) * 1000)::bigint`;

/** Rows after `afterId` and the counter, read in one statement, hence from one snapshot. */
async function readRows(db: Knex, realmId: number, afterId: number): Promise<{ watermark: number; rows: CachedPresence[] }> {
  const result = await db.raw(
    `SELECT (SELECT last_update_id FROM presence_sequences WHERE realm_id = ?) AS watermark,
            (SELECT coalesce(json_agg(json_build_array(
                      p.user_id, p.last_update_id,
                      ${SECONDS('coalesce(p.last_active_time, least(u.date_joined, p.last_connected_time))')},
                      ${SECONDS('p.last_connected_time')},
                      ${MILLIS('p.last_active_time')}, ${MILLIS('p.last_connected_time')},
                      u.is_active AND NOT u.is_bot, coalesce(s.presence_enabled, true))), '[]')::text
               FROM user_presence p
               JOIN users u ON u.id = p.user_id
               LEFT JOIN user_settings s ON s.user_id = p.user_id
              WHERE p.realm_id = ? AND p.last_update_id > ?) AS rows`,
    [realmId, realmId, afterId],
  );
  const row = result.rows[0];
  const tuples: Tuple[] = JSON.parse(row.rows);
  return { watermark: Number(row.watermark ?? 0), rows: tuples.map(entryOf) };
}

export class PresenceCache {
  private entries = new Map<number, CachedPresence>();
  /** Entries by update id, ascending; superseded ones stay until compaction (see `changedAfter`). */
  private log: CachedPresence[] = [];
  private watermark = 0;
  /** Ids above the watermark already applied (this process's writes that overtook another). */
  private readonly ahead = new Set<number>();
  private loaded = false;
  private needFull = true;
  private needSync = false;
  private lastFullAt = 0;
  private lastSyncAt = 0;
  private refreshing: Promise<void> | null = null;
  private readonly holds: WriteHolds;

  constructor(
    private readonly db: Knex,
    private readonly realmId: number,
    private readonly now: () => number = Date.now,
  ) {
    this.holds = new WriteHolds(now);
  }

  /**
   * Brings the cache up to date as needed; false when it must not be used for this request (a write
   * that may change what it holds is in flight): read the database instead.
   */
  async ready(): Promise<boolean> {
    // Ages are measured from when the caller asked, not from after a wait: a refresh that began
    // after that is fresh enough, however long the database took under load. Measured from "now",
    // a slow refresh would be stale on arrival, the caller would read the database instead, and
    // those reads (the whole organization's presence each) would slow the next refresh further.
    const asked = this.now();
    for (let attempt = 0; attempt < 3; attempt++) {
      if (!this.holds.settled()) return false;
      const full = this.needFull || !this.loaded || asked - this.lastFullAt > FULL_MS;
      const sync = this.needSync || asked - this.lastSyncAt > SYNC_MS;
      if (!full && !sync) return true;
      if (!this.refreshing) {
        const done = () => {
          this.refreshing = null;
        };
        this.refreshing = (full ? this.reload() : this.sync()).then(done, (error) => {
          done();
          throw error;
        });
      }
      await this.refreshing;
    }
    return false;
  }

  /** The user's stored presence, when the cache knows it (it must be `ready`). */
  own(userId: number): CachedPresence | undefined {
    return this.entries.get(userId);
  }

  /** Listed entries with update ids in (afterId, watermark], oldest first. */
  changedAfter(afterId: number): CachedPresence[] {
    const out: CachedPresence[] = [];
    const log = this.log;
    let lo = 0;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (log[mid].updateId <= afterId) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < log.length; i++) {
      const entry = log[i];
      if (entry.updateId > this.watermark) break;
      if (entry.listed && this.entries.get(entry.userId) === entry) out.push(entry);
    }
    return out;
  }

  /** Every listed entry up to the watermark. */
  all(): CachedPresence[] {
    return this.changedAfter(0);
  }

  /** A write of this process's, committed: `updateId` is the id the database gave it. */
  applyWrite(userId: number, lastActive: Date | null, lastConnected: Date, dateJoined: Date, presenceEnabled: boolean, updateId: number): void {
    const times = presenceTimes(lastActive, lastConnected, dateJoined);
    this.apply({
      userId,
      updateId,
      active: times.active,
      connected: times.connected,
      lastActiveMs: lastActive ? lastActive.getTime() : null,
      lastConnectedMs: lastConnected.getTime(),
      listed: true,
      presenceEnabled,
    });
    if (updateId === this.watermark + 1) {
      this.watermark = updateId;
      while (this.ahead.delete(this.watermark + 1)) this.watermark++;
    } else if (updateId > this.watermark) {
      // Another write (of another process, or one of ours still running) took the ids between.
      this.ahead.add(updateId);
      this.needSync = true;
    }
  }

  /** Another process wrote presence under `updateId`. */
  noteWrite(updateId: number): void {
    if (updateId > this.watermark && !this.ahead.has(updateId)) this.needSync = true;
  }

  /** The next use reloads everything. */
  invalidate(): void {
    this.needFull = true;
  }

  /** Invalidation by bus deliveries, from this process or another. */
  onDeliveries(deliveries: Delivery[]): void {
    for (const { event } of deliveries) {
      if (event.type === PRESENCE_WRITTEN) {
        if (typeof event.update_id === 'number') this.noteWrite(event.update_id);
      } else if (event.type === 'realm_user' || (event.type === 'realm' && event.op === 'deactivated')) {
        this.needFull = true;
      } else if (event.type === 'user_settings' && event.property === 'presence_enabled') {
        this.needFull = true;
      }
    }
  }

  hold(writeId: string): void {
    this.holds.add(writeId);
    this.needFull = true;
  }

  release(writeId: string): void {
    if (this.holds.remove(writeId)) this.needFull = true;
  }

  private apply(entry: CachedPresence): void {
    const current = this.entries.get(entry.userId);
    if (current && current.updateId >= entry.updateId) return;
    this.entries.set(entry.userId, entry);
    const log = this.log;
    if (log.length === 0 || log[log.length - 1].updateId < entry.updateId) log.push(entry);
    else {
      let lo = 0;
      let hi = log.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (log[mid].updateId < entry.updateId) lo = mid + 1;
        else hi = mid;
      }
      log.splice(lo, 0, entry);
    }
    if (log.length > 2 * this.entries.size + 1_000) this.log = log.filter((e) => this.entries.get(e.userId) === e);
  }

  private async reload(): Promise<void> {
    this.needFull = false;
    this.needSync = false;
    const startedAt = this.now();
    const { watermark, rows } = await readRows(this.db, this.realmId, 0);
    const previous = this.entries;
    const previousWatermark = this.loaded ? this.watermark : 0;
    this.entries = new Map();
    this.log = [];
    for (const entry of rows.sort((a, b) => a.updateId - b.updateId)) this.apply(entry);
    // This process's writes that committed after the snapshot are newer than what it holds.
    for (const entry of previous.values()) if (entry.updateId > watermark) this.apply(entry);
    this.watermark = Math.max(watermark, previousWatermark);
    for (const id of this.ahead) if (id <= this.watermark) this.ahead.delete(id);
    while (this.ahead.delete(this.watermark + 1)) this.watermark++;
    this.loaded = true;
    this.lastFullAt = startedAt;
    this.lastSyncAt = startedAt;
  }

  private async sync(): Promise<void> {
    this.needSync = false;
    const startedAt = this.now();
    const { watermark, rows } = await readRows(this.db, this.realmId, this.watermark);
    for (const entry of rows.sort((a, b) => a.updateId - b.updateId)) this.apply(entry);
    if (watermark > this.watermark) this.watermark = watermark;
    for (const id of this.ahead) if (id <= this.watermark) this.ahead.delete(id);
    while (this.ahead.delete(this.watermark + 1)) this.watermark++;
    this.lastSyncAt = startedAt;
  }
}

const WRITES_WATCHED_TABLES = writesTables(['users', 'user_settings', 'user_presence', 'presence_sequences']);
/** writePresence's statement, when it runs inside a transaction (its result is applied only after the commit). */
const WRITES_PRESENCE = /\binsert\s+into\s+presence_sequences\b/i;

/** Holds the cache while a statement that may change what it holds is in flight (as the auth cache's watchWrites). */
function watchWrites(knex: Knex, cache: PresenceCache): void {
  watchTableWrites(
    knex,
    { test: (sql: string, inTransaction: boolean) => WRITES_WATCHED_TABLES.test(sql) || (inTransaction && WRITES_PRESENCE.test(sql)) },
    cache,
  );
}

const caches = new WeakMap<Knex, PresenceCache>();

/** The process's presence cache for this database, created (and wired to writes and the bus) on first use. */
export function presenceCache(deps: AppDeps): PresenceCache {
  let cache = caches.get(deps.knex);
  if (!cache) {
    cache = new PresenceCache(deps.knex, deps.realmId);
    caches.set(deps.knex, cache);
    watchWrites(deps.knex, cache);
    const subscribed = cache;
    deps.bus.subscribe((deliveries) => subscribed.onDeliveries(deliveries));
  }
  return cache;
}

/** Tells other processes of a presence write, when there are any (a bus shared through Redis). */
export async function announceWrite(deps: AppDeps, updateId: number): Promise<void> {
  if (!deps.config.redisUrl) return;
  await deps.bus.publish([{ realmId: deps.realmId, userIds: [], event: { type: PRESENCE_WRITTEN, update_id: updateId } }]);
}
