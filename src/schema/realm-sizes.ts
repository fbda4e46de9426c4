import type { AppDeps } from '../core/deps';
import type { RealmSizes } from './cost';

/** How long a count stands for the organization: it prices queries, it need not be exact. */
const SIZES_TTL_MS = 30_000;

interface Cached {
  sizes: RealmSizes;
  expiresAt: number;
  pending: Promise<RealmSizes> | null;
}

const cache = new WeakMap<AppDeps, Cached>();

async function countSizes(deps: AppDeps): Promise<RealmSizes> {
  const count = (table: string) => deps.knex(table).where('realm_id', deps.realmId).count({ n: '*' }).first();
  const [users, channels, groups] = await Promise.all([count('users'), count('streams'), count('user_groups')]);
  const n = (row: { n?: unknown } | undefined) => Number(row?.n ?? 0);
  return { users: n(users), channels: n(channels), groups: n(groups) };
}

/**
 * The sizes of the organization's unpaged lists (users, channels, groups), counted at most every 30 s
 * per process; concurrent callers share one count.
 */
export async function realmSizes(deps: AppDeps): Promise<RealmSizes> {
  const now = Date.now();
  const cached = cache.get(deps);
  if (cached && cached.expiresAt > now) return cached.sizes;
  if (cached?.pending) return cached.pending;
  const pending = countSizes(deps);
  const entry: Cached = cached ?? { sizes: { users: 0, channels: 0, groups: 0 }, expiresAt: 0, pending: null };
  entry.pending = pending;
  cache.set(deps, entry);
  try {
    entry.sizes = await pending;
    entry.expiresAt = Date.now() + SIZES_TTL_MS;
    return entry.sizes;
  } finally {
    entry.pending = null;
  }
}
