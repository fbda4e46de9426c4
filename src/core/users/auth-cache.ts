import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { UnitOfWork } from '../../db/unit-of-work';
import { isEmbeddedDatabase, watchTableWrites, writesTables } from '../../db/user-value-cache';
import type { Delivery } from '../../realtime/bus';
import type { User } from './model';

/**
 * Recent successful authentications, so a busy client's requests skip parsing and the
 * api_keys/users/realms query. Entries are keyed by the SHA-256 of the credentials as sent (the
 * Authorization header), hold the account row as it was read, and live a few seconds at most. Only
 * successes are cached: unknown credentials always reach the database, so guessing fills nothing.
 *
 * A cached row must not outlive a change to it. Four paths forget entries:
 * 1. Actions that change keys, role, name, activation or permissions call `forgetAuthAfterCommit`:
 *    exact, right after their commit.
 * 2. `watchWrites` sees every statement this process sends that writes users, api_keys or realms
 *    (any feature's action, a script, a test), clears the cache and stores nothing until that write
 *    has settled, so no writer in this process can forget to invalidate.
 * 3. `forgetFromDeliveries`: `realm_user` events, realm deactivation and `auth_changed` (published
 *    by `forgetAuthAfterCommit`, to no client) on the bus. This is how other processes learn of
 *    changes once the bus spans processes, key changes included, which tell clients nothing.
 * 4. The short lifetime bounds the rest: other processes' writes that publish nothing. On the
 *    embedded database no other process can write (its directory is locked by the one process
 *    that opened it), so path 2 sees every write and entries may live much longer
 *    (EMBEDDED_LIFETIME_MS): a client that pings every minute then finds its credentials cached.
 */
export interface KeyOwner {
  /** The users row as read with the key. */
  user: ModelObject<User>;
  realmDeactivated: boolean;
}

/** How long a write may hold off caching when its end is never seen (e.g. a lost connection). */
const STALE_HOLD_MS = 60_000;

/** Lifetime of entries when this process is the database's only writer (see path 4 above). */
export const EMBEDDED_LIFETIME_MS = 10 * 60_000;

interface Entry {
  owner: KeyOwner;
  expiresAt: number;
}

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a lookup that started before one must not store its result. */
  private generation = 0;
  /** Writes in flight that may change cached rows, by id, with when they began. */
  private readonly holds = new Map<string, number>();

  constructor(
    public ttlMs = 5_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Every write to the database goes through this process (see path 4): entries may live `lifetimeMs`. */
  soleWriter(lifetimeMs = EMBEDDED_LIFETIME_MS): void {
    if (this.ttlMs > 0) this.ttlMs = Math.max(this.ttlMs, lifetimeMs);
  }

  /** Call before reading the database; pass the result to `remember`. */
  ticket(): number {
    return this.generation;
  }

  get(credentialsHash: string): KeyOwner | undefined {
    const entry = this.entries.get(credentialsHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(credentialsHash);
      return undefined;
    }
    return entry.owner;
  }

  remember(credentialsHash: string, owner: KeyOwner, ticket: number): void {
    if (ticket !== this.generation || this.ttlMs <= 0 || !this.writesSettled()) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(credentialsHash, { owner, expiresAt: this.now() + this.ttlMs });
  }

  forgetUser(userId: number): void {
    this.generation++;
    for (const [credentialsHash, entry] of this.entries) {
      if (entry.owner.user.id === userId) this.entries.delete(credentialsHash);
    }
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  /** A write that may change cached rows has begun: forget everything, store nothing until `release`. */
  hold(writeId: string): void {
    if (!this.holds.has(writeId)) this.holds.set(writeId, this.now());
    this.forgetAll();
  }

  release(writeId: string): void {
    if (this.holds.delete(writeId)) this.forgetAll();
  }

  private writesSettled(): boolean {
    for (const [writeId, since] of this.holds) {
      if (this.now() - since > STALE_HOLD_MS) this.holds.delete(writeId);
    }
    return this.holds.size === 0;
  }

  /** Invalidation fed by bus deliveries: any change to a user, or to the realm's activation. */
  forgetFromDeliveries(deliveries: Delivery[]): void {
    for (const { event } of deliveries) {
      if (event.type === AUTH_CHANGED && typeof event.user_id === 'number') {
        this.forgetUser(event.user_id);
      } else if (event.type === 'realm_user') {
        const userId = (event.person as { user_id?: unknown } | undefined)?.user_id;
        if (typeof userId === 'number') this.forgetUser(userId);
        else this.forgetAll();
      } else if (event.type === 'realm' && event.op === 'deactivated') {
        this.forgetAll();
      }
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * A bus event for the server's processes only (no recipients): the user's keys, role, activation or
 * permissions changed. Auth caches forget the user; live WebSocket sessions check their credentials.
 */
export const AUTH_CHANGED = 'auth_changed';

/**
 * For actions: forget the user's cached authentications once the transaction commits, in this
 * process at once and in every process through the bus. `watchWrites` stops holding when the COMMIT
 * is sent; this closes the moment until it has taken effect.
 */
export function forgetAuthAfterCommit(deps: { authCache: AuthCache }, uow: UnitOfWork, userId: number): void {
  uow.afterCommit(() => deps.authCache.forgetUser(userId));
  uow.deliveries.push({ realmId: uow.realmId, userIds: [], event: { type: AUTH_CHANGED, user_id: userId } });
}

const WRITES_AUTH_TABLES = writesTables(['users', 'api_keys', 'realms']);

/**
 * Holds the cache while any statement writing users, api_keys or realms is in flight: knex reports
 * every statement (transactions included) before it runs, and a plain statement's end; a
 * transaction's writes are released when it commits or rolls back.
 */
export function watchWrites(knex: Knex, cache: AuthCache): void {
  if (isEmbeddedDatabase(knex)) cache.soleWriter();
  watchTableWrites(knex, WRITES_AUTH_TABLES, cache);
}
