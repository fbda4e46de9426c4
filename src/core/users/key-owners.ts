import type { Knex } from 'knex';
import type { ModelObject } from 'objection';
import type { KeyOwner } from './auth-cache';
import type { User } from './model';

/**
 * API key lookups, grouped: keys asked for while the requests already received have their turn
 * (setImmediate) are read in one statement. A burst of clients whose credentials are not cached
 * yet (a restart, many users starting their apps) then costs one query per turn instead of one
 * per request, which matters most on the embedded database, where each statement is planned and
 * run in the server's own thread. A lone request waits for nothing but that turn.
 */
const MAX_BATCH = 500;

type Row = ModelObject<User> & { key_hash: string; realm_deactivated: boolean };
type Waiter = { resolve(owner: (KeyOwner & { keyHash: string }) | undefined): void; reject(error: unknown): void };

class KeyOwnerReader {
  private queue = new Map<string, Waiter[]>();
  private scheduled = false;

  constructor(
    private readonly db: Knex,
    private readonly realmId: number,
  ) {}

  read(keyHash: string): Promise<(KeyOwner & { keyHash: string }) | undefined> {
    return new Promise((resolve, reject) => {
      const waiting = this.queue.get(keyHash);
      if (waiting) waiting.push({ resolve, reject });
      else this.queue.set(keyHash, [{ resolve, reject }]);
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.drain();
      });
    });
  }

  private drain(): void {
    while (this.queue.size > 0) {
      const batch = new Map<string, Waiter[]>();
      for (const [keyHash, waiters] of this.queue) {
        batch.set(keyHash, waiters);
        this.queue.delete(keyHash);
        if (batch.size === MAX_BATCH) break;
      }
      void this.lookUp(batch);
    }
  }

  private async lookUp(batch: Map<string, Waiter[]>): Promise<void> {
    try {
      const rows = (await this.db('api_keys')
        .join('users', 'users.id', 'api_keys.user_id')
        .join('realms', 'realms.id', 'users.realm_id')
        .whereIn('api_keys.key_hash', [...batch.keys()])
        .where('users.realm_id', this.realmId)
        .select('users.*', 'api_keys.key_hash as key_hash', 'realms.deactivated as realm_deactivated')) as Row[];
      const owners = new Map<string, KeyOwner & { keyHash: string }>();
      for (const { key_hash, realm_deactivated, ...user } of rows) owners.set(key_hash, { user, realmDeactivated: realm_deactivated, keyHash: key_hash });
      for (const [keyHash, waiters] of batch) for (const w of waiters) w.resolve(owners.get(keyHash));
    } catch (error) {
      for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
    }
  }
}

const readers = new WeakMap<Knex, Map<number, KeyOwnerReader>>();

/** The account (and its realm's state) an API key's hash belongs to, read with other lookups of the same turn. */
export function readKeyOwner(db: Knex, realmId: number, keyHash: string): Promise<(KeyOwner & { keyHash: string }) | undefined> {
  let byRealm = readers.get(db);
  if (!byRealm) readers.set(db, (byRealm = new Map()));
  let reader = byRealm.get(realmId);
  if (!reader) byRealm.set(realmId, (reader = new KeyOwnerReader(db, realmId)));
  return reader.read(keyHash);
}
