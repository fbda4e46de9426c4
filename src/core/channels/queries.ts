import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { accessActiveAccount } from '../users/access';
import type { User } from '../users/model';
import { isGuestRole } from '../users/roles';
import {
  accessChannelById,
  accessChannelByName,
  canSeeSubscribers,
  ChannelViewer,
  checkCanSeeSubscribers,
  hasContentAccess,
  hasMetadataAccess,
  loadViewer,
} from './access';
import { activeSubscriberIds } from './audience';
import { Stream, Subscription } from './model';
import { channelDict, ChannelDict, ChannelViewContext, loadChannelViewContext, subscriptionDict, SubscriptionDict } from './view';
import { isRowId } from '../../db/ids';
import { anyOf, noneOf } from '../../db/lists';

/** Read side of channels: what one viewer may see. */

const byName = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export interface ChannelListOptions {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  excludeArchived: boolean;
  /** Every channel the viewer has metadata access to (for administrators: all of them). */
  includeAll: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
  includeCanAccessContent: boolean;
}

export const DEFAULT_CHANNEL_LIST_OPTIONS: ChannelListOptions = {
  includePublic: true,
  includeWebPublic: false,
  includeSubscribed: true,
  excludeArchived: true,
  includeAll: false,
  includeDefault: false,
  includeOwnerSubscribed: false,
  includeCanAccessContent: false,
};

/** Channels selected by GET /streams' include_* options, as the union of the chosen sources. */
export async function listChannelsForViewer(db: Knex, viewer: ChannelViewer, options: ChannelListOptions): Promise<Stream[]> {
  let query = Stream.query(db).where('realm_id', viewer.user.realm_id);
  if (options.excludeArchived) query = query.where('deactivated', false);
  const all = await query;
  if (options.includeAll) return all.filter((s) => hasMetadataAccess(viewer, s)).sort(byName);

  const includePublic = options.includePublic && !isGuestRole(viewer.user.role);
  let ownerSubscribed = new Set<number>();
  if (options.includeOwnerSubscribed && viewer.user.is_bot && viewer.user.bot_owner_id !== null) {
    const rows = await Subscription.query(db).where({ user_id: viewer.user.bot_owner_id, active: true }).select('stream_id');
    ownerSubscribed = new Set(rows.map((r) => r.stream_id));
  }
  const chosen = all.filter((s) => {
    if (options.includeCanAccessContent && hasContentAccess(viewer, s)) return true;
    if (ownerSubscribed.has(s.id)) return true;
    if (options.includeCanAccessContent) return false;
    if (options.includeSubscribed && viewer.subscribed.has(s.id)) return true;
    if (includePublic && !s.invite_only) return true;
    return options.includeWebPublic && s.is_web_public && !s.invite_only && s.history_public_to_subscribers && !s.deactivated;
  });
  return chosen.sort(byName);
}

export async function getChannelsForViewer(deps: AppDeps, user: User, options: ChannelListOptions): Promise<ChannelDict[]> {
  const viewer = await loadViewer(deps.knex, user);
  const streams = await listChannelsForViewer(deps.knex, viewer, options);
  const ctx = await loadChannelViewContext(deps.knex, deps.realmId, streams, { statistics: deps });
  return streams.map((s) => {
    const dict = channelDict(s, ctx);
    // Default channels are not kept yet, so no channel is one.
    if (options.includeDefault) dict.is_default = false;
    return dict;
  });
}

/**
 * GET /streams/{id}: any channel whose metadata the viewer may see, archived ones included (as in
 * Zulip since feature level 480; the channel object says `is_archived`).
 */
export async function getChannelForViewer(deps: AppDeps, user: User, streamId: number): Promise<ChannelDict> {
  const viewer = await loadViewer(deps.knex, user);
  const stream = await accessChannelById(deps.knex, viewer, streamId, { requireContentAccess: false, requireActive: false });
  const ctx = await loadChannelViewContext(deps.knex, deps.realmId, [stream], { statistics: deps });
  return channelDict(stream, ctx);
}

export async function getChannelIdByName(deps: AppDeps, user: User, name: string): Promise<number> {
  const viewer = await loadViewer(deps.knex, user);
  return (await accessChannelByName(deps.knex, viewer, name)).id;
}

/** GET /streams/{id}/members: active subscribers, for viewers allowed to know them. */
export async function getChannelSubscribers(deps: AppDeps, user: User, streamId: number): Promise<number[]> {
  const viewer = await loadViewer(deps.knex, user);
  const stream = await accessChannelById(deps.knex, viewer, streamId, { requireContentAccess: false });
  checkCanSeeSubscribers(viewer, stream);
  return [...(await activeSubscriberIds(deps.knex, stream.id))].sort((a, b) => a - b);
}

/** GET /users/{user_id}/subscriptions/{stream_id}. */
export async function getSubscriptionStatus(deps: AppDeps, user: User, targetId: number, streamId: number): Promise<boolean> {
  const target = await accessActiveAccount(deps.knex, deps.realmId, targetId);
  const viewer = await loadViewer(deps.knex, user);
  const stream = await accessChannelById(deps.knex, viewer, streamId, { requireContentAccess: false });
  const sub = await Subscription.query(deps.knex).findOne({ user_id: target.id, stream_id: stream.id, active: true });
  return sub !== undefined;
}

/**
 * The channels another user or bot is subscribed to (Zulip's GET /users/{user_id}/channels), limited
 * to those whose metadata the viewer may see. Deactivated accounts are refused, as for the
 * subscription status of one channel.
 */
export async function getUserChannelIds(deps: AppDeps, user: User, targetId: number): Promise<number[]> {
  const target = await accessActiveAccount(deps.knex, deps.realmId, targetId);
  const viewer = await loadViewer(deps.knex, user);
  const streams = await Stream.query(deps.knex)
    .join('subscriptions', 'subscriptions.stream_id', 'streams.id')
    .where({ 'streams.realm_id': deps.realmId, 'subscriptions.user_id': target.id, 'subscriptions.active': true })
    .select('streams.*')
    .orderBy('streams.id');
  return streams.filter((s) => hasMetadataAccess(viewer, s)).map((s) => s.id);
}

/** Subscribers of each channel the viewer may see subscribers for; others get an empty list. */
async function subscriberLists(db: Knex, viewer: ChannelViewer, streams: Stream[], partialOf: Set<number> = new Set()): Promise<Map<number, number[]>> {
  const visible = streams.filter((s) => canSeeSubscribers(viewer, s));
  const out = new Map<number, number[]>(streams.map((s) => [s.id, []]));
  if (visible.length === 0) return out;
  const query = db('subscriptions')
    .join('users', 'users.id', 'subscriptions.user_id')
    .whereRaw(
      ...anyOf(
        'subscriptions.stream_id',
        visible.map((s) => s.id),
      ),
    )
    .where({ 'subscriptions.active': true, 'users.is_active': true });
  if (partialOf.size > 0) {
    // Large channels list only their bots and recently active subscribers (Zulip's guarantee for
    // partial lists); everyone else is left for the client to fetch per channel.
    const since = new Date(Date.now() - PARTIAL_ACTIVE_DAYS * 86_400_000);
    const [notLarge, largeIds] = noneOf('subscriptions.stream_id', [...partialOf]);
    query
      .leftJoin('user_presence', 'user_presence.user_id', 'subscriptions.user_id')
      .where((q) =>
        q
          .whereRaw(notLarge, largeIds)
          .orWhere('users.is_bot', true)
          .orWhere('user_presence.last_active_time', '>=', since)
          .orWhere('users.date_joined', '>=', since),
      );
  }
  const rows: { stream_id: number; user_id: number }[] = await query
    .orderBy('subscriptions.user_id')
    .select('subscriptions.stream_id', 'subscriptions.user_id');
  for (const row of rows) out.get(row.stream_id)!.push(row.user_id);
  return out;
}

/** include_subscribers="partial": channels with at least this many subscribers get a partial list. */
export const PARTIAL_SUBSCRIBERS_THRESHOLD = 250;
/** A partial list holds every bot and every subscriber active within this many days. */
const PARTIAL_ACTIVE_DAYS = 14;

/** true, false, or "partial" (Zulip 11, feature level 412). */
export type IncludeSubscribers = boolean | 'partial';

export interface SubscriptionInfo {
  subscriptions: SubscriptionDict[];
  unsubscribed: SubscriptionDict[];
  never_subscribed: ChannelDict[];
}

/**
 * The viewer's channels split three ways: subscribed, previously subscribed (still visible), and
 * visible but never subscribed. Archived channels only when asked for.
 */
export async function gatherSubscriptions(
  db: Knex,
  user: User,
  options: {
    includeSubscribers: IncludeSubscribers;
    includeArchived: boolean;
    /** How the channels' view context is loaded (POST /register shares one between its slices). */
    viewContext?: (streams: Stream[]) => Promise<ChannelViewContext>;
  },
): Promise<SubscriptionInfo> {
  const viewer = await loadViewer(db, user);
  let query = Stream.query(db).where('realm_id', user.realm_id);
  if (!options.includeArchived) query = query.where('deactivated', false);
  const streams = await query;
  const byId = new Map(streams.map((s) => [s.id, s]));
  const subs = (await Subscription.query(db).where('user_id', user.id)).filter((sub) => byId.has(sub.stream_id));
  const ctx = await (options.viewContext ?? ((all) => loadChannelViewContext(db, user.realm_id, all)))(streams);

  const subscribed: SubscriptionDict[] = [];
  const unsubscribed: SubscriptionDict[] = [];
  const seen = new Set<number>();
  for (const sub of subs) {
    const stream = byId.get(sub.stream_id)!;
    seen.add(stream.id);
    if (sub.active) subscribed.push(subscriptionDict(stream, sub, ctx));
    // A channel one left stays listed only while one can still see it.
    else if (hasMetadataAccess(viewer, stream)) unsubscribed.push(subscriptionDict(stream, sub, ctx));
  }
  const neverSubscribed = streams
    .filter((s) => !seen.has(s.id))
    .filter((s) => hasMetadataAccess(viewer, s))
    .map((s) => channelDict(s, ctx));

  if (options.includeSubscribers) {
    const partialOf = new Set<number>();
    if (options.includeSubscribers === 'partial') {
      for (const s of streams) if ((ctx.subscriberCounts.get(s.id) ?? 0) >= PARTIAL_SUBSCRIBERS_THRESHOLD) partialOf.add(s.id);
    }
    const lists = await subscriberLists(db, viewer, streams, partialOf);
    for (const dict of [...subscribed, ...unsubscribed, ...neverSubscribed]) {
      if (partialOf.has(dict.stream_id)) dict.partial_subscribers = lists.get(dict.stream_id)!;
      else dict.subscribers = lists.get(dict.stream_id)!;
    }
  }
  return { subscriptions: subscribed.sort(byName), unsubscribed: unsubscribed.sort(byName), never_subscribed: neverSubscribed.sort(byName) };
}

/** GET /users/me/subscriptions. */
export async function listSubscriptions(deps: AppDeps, user: User, includeSubscribers: IncludeSubscribers): Promise<SubscriptionDict[]> {
  const viewContext = (streams: Stream[]) => loadChannelViewContext(deps.knex, deps.realmId, streams, { statistics: deps });
  return (await gatherSubscriptions(deps.knex, user, { includeSubscribers, includeArchived: false, viewContext })).subscriptions;
}

/**
 * Many channels by id in a fixed number of statements, for batched object links; channels the
 * viewer may not see, or that do not exist, come back as null.
 */
export async function getChannelsByIdForViewer(deps: AppDeps, user: User, ids: readonly number[]): Promise<(ChannelDict | null)[]> {
  const wanted = ids.filter(isRowId);
  if (wanted.length === 0) return ids.map(() => null);
  const viewer = await loadViewer(deps.knex, user);
  const streams = (
    await Stream.query(deps.knex)
      .where('realm_id', deps.realmId)
      .whereRaw(...anyOf('id', wanted))
  ).filter((s) => hasMetadataAccess(viewer, s));
  const ctx = await loadChannelViewContext(deps.knex, deps.realmId, streams, { statistics: deps });
  const dicts = new Map(streams.map((s) => [s.id, channelDict(s, ctx)]));
  return ids.map((id) => dicts.get(id) ?? null);
}
