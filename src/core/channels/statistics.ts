import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { tableCache, TableCacheSpec } from '../../db/table-cache';

/**
 * Per-channel figures that every channel dictionary carries (subscriber_count and the traffic
 * behind stream_weekly_traffic), for all channels at once. POST /register in a large organization
 * needs them for hundreds of channels; counting them is two aggregate statements over the
 * subscriptions and messages tables (about half of such a register's database time), so each
 * process keeps them:
 * - subscriber counts in a table cache, exact in the way TableCache describes (dropped on any write
 *   to subscriptions or users, and on the bus events that announce one), and read again at least
 *   every COUNTS_LIFETIME_MS (its maxAgeMs) to bound what a change no event names could leave behind;
 * - traffic for TRAFFIC_LIFETIME_MS, then served while it is read again in the background.
 *   Zulip derives stream_weekly_traffic from analytics counts that it updates hourly, so clients
 *   expect a figure that trails new messages.
 */
export type ChannelStatisticsDeps = Pick<AppDeps, 'knex' | 'bus'>;

const COUNTS_LIFETIME_MS = 60_000;
const TRAFFIC_LIFETIME_MS = 10 * 60_000;

const countsSpec: TableCacheSpec<Map<number, number>> = {
  tables: ['subscriptions', 'users'],
  maxAgeMs: COUNTS_LIFETIME_MS,
  // Subscribing, unsubscribing and peer changes; accounts deactivated or reactivated; channels created or deleted.
  eventTypes: ['subscription', 'realm_user', 'stream'],
  async load(knex: Knex) {
    const rows: { stream_id: number; n: number | string }[] = await knex('subscriptions')
      .join('users', 'users.id', 'subscriptions.user_id')
      .where({ 'subscriptions.active': true, 'users.is_active': true })
      .groupBy('subscriptions.stream_id')
      .select('subscriptions.stream_id')
      .count('* as n');
    return new Map(rows.map((row) => [row.stream_id, Number(row.n)]));
  },
};

/** Active subscribers of each channel (channels without any are absent). */
export async function subscriberCounts(deps: ChannelStatisticsDeps): Promise<ReadonlyMap<number, number>> {
  return tableCache(deps, countsSpec).get();
}

interface Traffic {
  byChannel: Map<number, number>;
  loadedAt: number;
}

const traffic = new WeakMap<Knex, Map<number, { current: Traffic | null; loading: Promise<Traffic> | null }>>();

async function readTraffic(knex: Knex, realmId: number): Promise<Traffic> {
  const loadedAt = Date.now();
  const rows: { stream_id: number; n: number | string }[] = await knex('messages')
    .where('realm_id', realmId)
    .whereNotNull('stream_id')
    .where('date_sent', '>', knex.raw("now() - interval '28 days'"))
    .groupBy('stream_id')
    .select('stream_id')
    .count('* as n');
  return { byChannel: new Map(rows.map((row) => [row.stream_id, Number(row.n)])), loadedAt };
}

/** Messages sent to each channel of the realm in the last 28 days, as of at most TRAFFIC_LIFETIME_MS ago. */
export async function recentTraffic(knex: Knex, realmId: number): Promise<ReadonlyMap<number, number>> {
  let byRealm = traffic.get(knex);
  if (!byRealm) traffic.set(knex, (byRealm = new Map()));
  let entry = byRealm.get(realmId);
  if (!entry) byRealm.set(realmId, (entry = { current: null, loading: null }));
  const held = entry;
  if (held.current && Date.now() - held.current.loadedAt <= TRAFFIC_LIFETIME_MS) return held.current.byChannel;
  if (!held.loading) {
    // A failed read is left for the next caller to retry; only a first caller, who waits, sees its error.
    held.loading = readTraffic(knex, realmId).then(
      (read) => {
        held.loading = null;
        held.current = read;
        return read;
      },
      (error: unknown) => {
        held.loading = null;
        throw error;
      },
    );
    held.loading.catch(() => {});
  }
  // An expired figure is still served while the new one is read; only the first read is waited for.
  return held.current ? held.current.byChannel : (await held.loading).byChannel;
}
