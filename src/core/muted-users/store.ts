import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { tableCache, TableCacheSpec } from '../../db/table-cache';

/** Bus event type of a change to someone's muted users (see actions.ts). */
export const MUTED_USERS_EVENT = 'muted_users';

/** Who muted each muted user, for the whole organization: what sending needs. */
export type MutersByUser = ReadonlyMap<number, ReadonlySet<number>>;

const EMPTY: ReadonlySet<number> = new Set();

function mutersSpec(realmId: number): TableCacheSpec<MutersByUser> {
  return {
    tables: ['muted_users'],
    eventTypes: [MUTED_USERS_EVENT],
    async load(knex: Knex) {
      const rows: { user_id: number; muted_user_id: number }[] = await knex('muted_users').where('realm_id', realmId).select('user_id', 'muted_user_id');
      const out = new Map<number, Set<number>>();
      for (const { user_id, muted_user_id } of rows) {
        const set = out.get(muted_user_id);
        if (set) set.add(user_id);
        else out.set(muted_user_id, new Set([user_id]));
      }
      return out;
    },
  };
}

const specs = new Map<number, TableCacheSpec<MutersByUser>>();

/** The process's cache of who muted whom in this organization (see TableCache for how it stays exact). */
export function mutersCache(deps: Pick<AppDeps, 'knex' | 'bus' | 'realmId'>) {
  let spec = specs.get(deps.realmId);
  if (!spec) specs.set(deps.realmId, (spec = mutersSpec(deps.realmId)));
  return tableCache(deps, spec);
}

/**
 * The users who muted `senderId`; answered from memory once the cache is loaded. `db`: the
 * connection the caller works on (its transaction), used when the cache must load.
 */
export async function mutersOf(deps: Pick<AppDeps, 'knex' | 'bus' | 'realmId'>, senderId: number, db: Knex = deps.knex): Promise<ReadonlySet<number>> {
  const cache = mutersCache(deps);
  const byUser = cache.current() ?? (await cache.get(db));
  return byUser.get(senderId) ?? EMPTY;
}

export interface MutedUserDict {
  id: number;
  /** UNIX seconds. */
  timestamp: number;
}

/** The users `userId` muted, oldest mute first: `muted_users` of POST /register and its event. */
export async function mutedUsersOf(db: Knex, userId: number): Promise<MutedUserDict[]> {
  const rows: { muted_user_id: number; date_muted: Date }[] = await db('muted_users')
    .where('user_id', userId)
    .orderBy('id')
    .select('muted_user_id', 'date_muted');
  return rows.map((r) => ({ id: r.muted_user_id, timestamp: Math.floor(new Date(r.date_muted).getTime() / 1000) }));
}
