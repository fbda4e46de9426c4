import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { announceNewChannels } from './announcements';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { User } from '../users/model';
import { canSeeDeliveryEmail, placeholderEmail } from '../users/view';
import { accessChannelById, canAddSubscribers, canRemoveSubscribers, hasContentAccess, loadViewer } from './access';
import { SUBSCRIPTION_COLORS } from './constants';
import * as ev from './events';
import { Stream, Subscription } from './model';
import { holdsRealmPolicy } from './realm-policy';
import { checkChannelName, checkColor, normalizeDescription } from './validation';
import { anyOf, listParam } from '../../db/lists';
import { insufficientPermission, checkNewChannelSettings } from './action-checks';
import { AddedSubscription, emitSubscriptionsAdded, emitSubscriptionsRemoved } from './subscription-events';
import { createChannels, NewChannelSettings } from './admin-actions';

/**
 * Subscriptions: subscribing (creating channels on first use), unsubscribing and personal
 * subscription settings. Each action validates everything first, changes the database in one
 * transaction, and queues Zulip's events with explicit recipients.
 */

type Principals = string[] | number[];
/** Users named by id or by API email (the placeholder, or the real address where visible). */
export async function resolvePrincipals(deps: AppDeps, db: Knex, actor: User, principals: Principals): Promise<User[]> {
  if (principals.length === 0) return [];
  let users: User[];
  if (typeof principals[0] === 'number') {
    const ids = [...new Set(principals as number[])];
    users = await User.query(db)
      .where('realm_id', deps.realmId)
      .whereRaw(...anyOf('id', ids));
    if (users.length !== ids.length) throw errors.noSuchUser();
  } else {
    const wanted = [...new Set((principals as string[]).map((e) => e.trim().toLowerCase()))];
    const placeholderIds = wanted
      .map((email) => /^user(\d+)@(.+)$/.exec(email))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .filter((id) => Number.isSafeInteger(id));
    const candidates = await User.query(db)
      .where('realm_id', deps.realmId)
      .where((q) => {
        q.whereRaw('lower(delivery_email) = ANY(?::text[])', [listParam(wanted, 'text')]);
        if (placeholderIds.length > 0) q.orWhereRaw(...anyOf('id', placeholderIds));
      });
    const byEmail = new Map<string, User>();
    for (const user of candidates) {
      byEmail.set(placeholderEmail(deps.config, user.id).toLowerCase(), user);
      if (canSeeDeliveryEmail(actor, user)) byEmail.set(user.delivery_email.toLowerCase(), user);
    }
    users = [];
    for (const email of wanted) {
      const user = byEmail.get(email);
      if (!user) throw errors.noSuchUser();
      if (!users.includes(user)) users.push(user);
    }
  }
  for (const user of users) if (!user.is_active) throw errors.badRequest('User is deactivated');
  return users;
}

// ---------------------------------------------------------------------------------------------
// Subscribing (and creating channels on first use)

export interface SubscribeRequest extends NewChannelSettings {
  subscriptions: { name: string; description?: string; color?: string }[];
  principals?: Principals;
  authorizationErrorsFatal: boolean;
  /** Whether channels created by the request are announced (new_stream_announcements_stream_id). */
  announce: boolean;
}

export interface SubscribeResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

/**
 * POST /users/me/subscriptions. Anyone may call it, guests included: each named channel the
 * caller cannot access goes to `unauthorized` (or fails the request with
 * authorization_errors_fatal), the others are subscribed or already_subscribed, as in Zulip.
 */
export async function subscribe(deps: AppDeps, actor: User, request: SubscribeRequest): Promise<SubscribeResult> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, actor);
    const { groupSettings, retentionDays } = await checkNewChannelSettings(db, viewer, request);

    // One entry per channel name (letter case ignored), in request order.
    const wanted = new Map<string, { name: string; description: string; color?: string }>();
    for (const item of request.subscriptions) {
      const name = item.name.trim();
      checkChannelName(name);
      if (!wanted.has(name.toLowerCase())) {
        wanted.set(name.toLowerCase(), { name, description: normalizeDescription(item.description ?? ''), color: item.color });
      }
    }
    const principals = request.principals ?? [];
    const subscribingOthers = principals.length > 0 && !principals.every((p) => p === actor.id);

    const existing =
      wanted.size === 0
        ? []
        : await Stream.query(db)
            .where('realm_id', deps.realmId)
            .whereRaw('lower(name) = ANY(?::text[])', [listParam([...wanted.keys()], 'text')]);
    const existingByName = new Map(existing.map((s) => [s.name.toLowerCase(), s]));
    const missing = [...wanted.entries()].filter(([key]) => !existingByName.has(key)).map(([, item]) => item);

    const created = missing.length > 0 ? await createChannels(deps, uow, viewer, missing, { ...request, groupSettings }, retentionDays) : [];

    const unauthorized: Stream[] = [];
    const authorized: Stream[] = [];
    let cannotAdd = false;
    const realmAllowsAdding = await holdsRealmPolicy(db, actor, viewer.groupIds, viewer.systemGroups, 'can_add_subscribers_group');
    for (const stream of [...wanted.keys()].map((k) => existingByName.get(k)).filter((s): s is Stream => !!s)) {
      if (!hasContentAccess(viewer, stream)) unauthorized.push(stream);
      else if (subscribingOthers && !canAddSubscribers(viewer, stream, realmAllowsAdding)) cannotAdd = true;
      else authorized.push(stream);
    }
    if (unauthorized.length > 0 && request.authorizationErrorsFatal) {
      throw errors.badRequest(`Unable to access channel (${unauthorized[0].name}).`);
    }
    if (cannotAdd) throw insufficientPermission();

    const streams = [...authorized, ...created];
    const subscribers = subscribingOthers ? await resolvePrincipals(deps, db, actor, principals) : [actor];
    const colors = new Map<number, string>();
    for (const stream of streams) {
      const color = wanted.get(stream.name.toLowerCase())?.color;
      if (color !== undefined) colors.set(stream.id, color);
    }
    const { added, already } = await addSubscriptions(uow, streams, subscribers, colors);
    if (request.announce) await announceNewChannels(deps, uow, actor, created);

    const result: SubscribeResult = { subscribed: {}, already_subscribed: {} };
    for (const { user, stream } of added) (result.subscribed[String(user.id)] ??= []).push(stream.name);
    for (const { user, stream } of already) (result.already_subscribed[String(user.id)] ??= []).push(stream.name);
    if (!request.authorizationErrorsFatal) result.unauthorized = unauthorized.map((s) => s.name);
    return result;
  });
}

/**
 * Subscribes a just-created account to channels chosen for it by someone who was allowed to (an
 * accepted invitation), with the events of any subscription. Channels archived since are skipped.
 */
export async function subscribeNewAccount(uow: UnitOfWork, user: User, streamIds: number[]): Promise<void> {
  if (streamIds.length === 0) return;
  const streams = await Stream.query(uow.trx)
    .where({ realm_id: user.realm_id, deactivated: false })
    .whereRaw(...anyOf('id', streamIds))
    .orderBy('id');
  await addSubscriptions(uow, streams, [user], new Map());
}

/** Picks, per new subscription, a color the user does not use yet (cycling once all are used). */
function pickColor(used: Set<string>, streamId: number): string {
  const free = SUBSCRIPTION_COLORS.find((c) => !used.has(c));
  const color = free ?? SUBSCRIPTION_COLORS[streamId % SUBSCRIPTION_COLORS.length];
  used.add(color);
  return color;
}

export async function addSubscriptions(
  uow: UnitOfWork,
  streams: Stream[],
  users: User[],
  colors: Map<number, string>,
): Promise<{ added: AddedSubscription[]; already: AddedSubscription[] }> {
  const db = uow.trx;
  if (streams.length === 0 || users.length === 0) return { added: [], already: [] };
  const realmId = streams[0].realm_id;
  const userIds = users.map((u) => u.id);
  const rows = await Subscription.query(db).whereRaw(...anyOf('user_id', userIds));
  const added: AddedSubscription[] = [];
  const already: AddedSubscription[] = [];
  const toActivate: number[] = [];
  const toInsert: Record<string, unknown>[] = [];
  for (const user of users) {
    const mine = rows.filter((r) => r.user_id === user.id);
    const used = new Set(mine.map((r) => r.color));
    for (const stream of streams) {
      const row = mine.find((r) => r.stream_id === stream.id);
      if (row?.active) {
        already.push({ user, stream });
      } else if (row) {
        toActivate.push(row.id);
        added.push({ user, stream });
      } else {
        const color = colors.get(stream.id) ?? pickColor(used, stream.id);
        toInsert.push({ realm_id: realmId, user_id: user.id, stream_id: stream.id, color, active: true });
        added.push({ user, stream });
      }
    }
  }
  if (added.length === 0) return { added, already };
  // A concurrent request may have subscribed the same user a moment ago; that is not an error.
  if (toInsert.length > 0) await db('subscriptions').insert(toInsert).onConflict(['user_id', 'stream_id']).ignore();
  if (toActivate.length > 0)
    await db('subscriptions')
      .whereRaw(...anyOf('id', toActivate))
      .update({ active: true });
  await emitSubscriptionsAdded(uow, added);
  return { added, already };
}

// ---------------------------------------------------------------------------------------------
// Unsubscribing

export async function unsubscribe(
  deps: AppDeps,
  actor: User,
  names: string[],
  principals: Principals | undefined,
): Promise<{ removed: string[]; not_removed: string[] }> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, actor);
    let targets: User[] = [actor];
    let unsubscribingOthers = false;
    if (principals && principals.length > 0) {
      targets = await resolvePrincipals(deps, db, actor, principals);
      unsubscribingOthers = targets.some((t) => t.id !== actor.id && !(t.is_bot && t.bot_owner_id === actor.id));
    }

    const trimmed = names.map((n) => n.trim());
    for (const name of trimmed) checkChannelName(name);
    const keys = [...new Set(trimmed.map((n) => n.toLowerCase()))];
    const existing =
      keys.length === 0
        ? []
        : await Stream.query(db)
            .where('realm_id', deps.realmId)
            .whereRaw('lower(name) = ANY(?::text[])', [listParam(keys, 'text')]);
    if (unsubscribingOthers && !canRemoveSubscribers(viewer, existing)) throw insufficientPermission();
    const byKey = new Map(existing.map((s) => [s.name.toLowerCase(), s]));
    const missing = [...new Set(trimmed.filter((n) => !byKey.has(n.toLowerCase())))];
    if (missing.length > 0) throw errors.badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
    const streams = keys.map((k) => byKey.get(k)!);

    const rows = await Subscription.query(db)
      .whereRaw(
        ...anyOf(
          'user_id',
          targets.map((t) => t.id),
        ),
      )
      .whereRaw(
        ...anyOf(
          'stream_id',
          streams.map((s) => s.id),
        ),
      )
      .where('active', true);
    const removed: AddedSubscription[] = [];
    const notRemoved: AddedSubscription[] = [];
    for (const user of targets) {
      for (const stream of streams) {
        const row = rows.find((r) => r.user_id === user.id && r.stream_id === stream.id);
        (row ? removed : notRemoved).push({ user, stream });
      }
    }
    if (removed.length > 0) {
      const ids = rows.map((r) => r.id);
      await db('subscriptions')
        .whereRaw(...anyOf('id', ids))
        .update({ active: false });
      await emitSubscriptionsRemoved(uow, removed);
    }
    return { removed: removed.map((r) => r.stream.name), not_removed: notRemoved.map((r) => r.stream.name) };
  });
}

// ---------------------------------------------------------------------------------------------
// Personal subscription settings

export const SUBSCRIPTION_PROPERTIES = [
  'color',
  'is_muted',
  'in_home_view',
  'pin_to_top',
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;
export type SubscriptionProperty = (typeof SUBSCRIPTION_PROPERTIES)[number];

export interface SubscriptionPropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

/** Checks one requested change as Zulip does: the property must exist and the value fit it. */
export function checkSubscriptionPropertyChange(change: SubscriptionPropertyChange): {
  stream_id: number;
  property: SubscriptionProperty;
  value: string | boolean;
} {
  if (change.property === 'color') return { ...change, property: 'color', value: checkColor('color', change.value) };
  if (!(SUBSCRIPTION_PROPERTIES as readonly string[]).includes(change.property)) {
    throw errors.badRequest(`Unknown subscription property: ${change.property}`);
  }
  if (typeof change.value !== 'boolean') throw errors.badRequest(`${change.property} is not a boolean`);
  return { stream_id: change.stream_id, property: change.property as SubscriptionProperty, value: change.value };
}

export async function updateSubscriptionProperties(deps: AppDeps, actor: User, changes: SubscriptionPropertyChange[]): Promise<void> {
  const checked = changes.map(checkSubscriptionPropertyChange);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, actor);
    for (const change of checked) {
      const stream = await accessChannelById(db, viewer, change.stream_id, { requireActive: false });
      const sub = await Subscription.query(db).findOne({ user_id: actor.id, stream_id: stream.id, active: true });
      if (!sub) throw errors.badRequest(`Not subscribed to channel ID ${change.stream_id}`);
      // in_home_view is the inverse of is_muted, which is what is stored.
      const column = change.property === 'in_home_view' ? 'is_muted' : change.property;
      const value = change.property === 'in_home_view' ? !change.value : change.value;
      await db('subscriptions')
        .where({ id: sub.id })
        .update({ [column]: value });
      if (column === 'is_muted') uow.emit(ev.subscriptionUpdate(stream.id, 'in_home_view', !value), [actor.id]);
      uow.emit(ev.subscriptionUpdate(stream.id, column, value), [actor.id]);
    }
  });
}
