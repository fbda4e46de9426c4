import type { ModelObject } from 'objection';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { Delivery } from '../../realtime/bus';
import type { User } from './model';

/**
 * Recent successful API-key lookups, so a busy client's requests skip the api_keys/users/realms
 * query. Entries are keyed by the key's SHA-256 (what api_keys stores), hold the account row as it
 * was read, and live a few seconds at most.
 *
 * Whatever can make a cached row wrong must forget it at once:
 * - in this process, actions that change keys, role, name or activation call `forgetUser` after
 *   their commit;
 * - every `realm_user` event (and realm deactivation) on the bus does the same through
 *   `forgetFromDeliveries`, which is how other processes learn of those changes once the bus spans
 *   processes. The short lifetime bounds staleness from writers that reach neither path.
 *
 * Only successes are cached: unknown keys always reach the database, so guessing fills nothing.
 */
export interface KeyOwner {
  /** The users row as read with the key. */
  user: ModelObject<User>;
  realmDeactivated: boolean;
}

interface Entry {
  owner: KeyOwner;
  expiresAt: number;
}

export class AuthCache {
  private readonly entries = new Map<string, Entry>();
  /** Bumped by every invalidation: a lookup that started before one must not store its result. */
  private generation = 0;

  constructor(
    readonly ttlMs = 5_000,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Call before reading the database; pass the result to `remember`. */
  ticket(): number {
    return this.generation;
  }

  get(keyHash: string): KeyOwner | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(keyHash);
      return undefined;
    }
    return entry.owner;
  }

  remember(keyHash: string, owner: KeyOwner, ticket: number): void {
    if (ticket !== this.generation || this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(keyHash, { owner, expiresAt: this.now() + this.ttlMs });
  }

  forgetUser(userId: number): void {
    this.generation++;
    for (const [keyHash, entry] of this.entries) {
      if (entry.owner.user.id === userId) this.entries.delete(keyHash);
    }
  }

  forgetAll(): void {
    this.generation++;
    this.entries.clear();
  }

  /** Invalidation fed by bus deliveries: any change to a user, or to the realm's activation. */
  forgetFromDeliveries(deliveries: Delivery[]): void {
    for (const { event } of deliveries) {
      if (event.type === 'realm_user') {
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
 * For actions: forget the user's cached authentications once the transaction commits. Needed by
 * every change to a user's keys or users row that emits no `realm_user` event.
 */
export function forgetAuthAfterCommit(deps: { authCache: AuthCache }, uow: UnitOfWork, userId: number): void {
  uow.afterCommit(() => deps.authCache.forgetUser(userId));
}
