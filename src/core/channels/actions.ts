import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { renderStoredDescription } from '../markdown';
import { User } from '../users/model';
import { dropDefaultChannel } from '../default-channels/store';
import { isAdminRole, isGuestRole, isOwnerRole } from '../users/roles';
import { canSeeDeliveryEmail, placeholderEmail } from '../users/view';
import {
  accessChannelById,
  accessChannelForUpdate,
  canAddSubscribers,
  canRemoveSubscribers,
  canSeeSubscribers,
  ChannelViewer,
  channelContentAccessRequired,
  hasContentAccess,
  hasMetadataAccess,
  hasMetadataAccessViaGroups,
  loadViewer,
} from './access';
import { activeSubscriberIds, channelAudience, metadataGroupUserIds, RealmUsers, without } from './audience';
import {
  CHANNEL_PERMISSION_SETTING_NAMES,
  CHANNEL_PERMISSION_SETTINGS,
  ChannelPermissionSetting,
  CONTENT_ACCESS_REQUIRED_SETTINGS,
  DELETE_POLICY_SETTINGS,
  METADATA_ACCESS_SETTINGS,
  SUBSCRIPTION_COLORS,
  TopicsPolicy,
} from './constants';
import * as ev from './events';
import { checkGroupSettingValue, GroupSettingValue, normalizeGroupSettingValue, sameGroupSettingValue, SystemGroupIds } from './group-settings';
import { channelHasOnlyEmptyTopicMessages } from './message-hooks';
import { Stream, Subscription } from './model';
import { channelLinkResolver } from './links';
import { holdsRealmPolicy, userChannelNotificationDefaults, webPublicChannelsEnabled } from './realm-policy';
import { SUBSCRIPTION_NOTIFICATION_SETTINGS } from './constants';
import { checkChannelName, checkColor, normalizeDescription, parseMessageRetentionDays } from './validation';
import { channelDict, ChannelDict, loadChannelViewContext, streamPostPolicy, subscriptionDict } from './view';
import { anyOf, listParam } from '../../db/lists';
import { isRowId } from '../../db/ids';

/**
 * Every change to channels and subscriptions. Each action validates everything first, changes the
 * database in one transaction, and queues Zulip's events with explicit recipients.
 */

type Principals = string[] | number[];
type GroupSettingsInput = Partial<Record<ChannelPermissionSetting, GroupSettingValue>>;

const insufficientPermission = () => errors.badRequest('Insufficient permission');
export const channelAlreadyExists = (name: string) => new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`, 400, { channel_name: name });

async function checkFolder(db: Knex, realmId: number, folderId: number): Promise<void> {
  const folder = isRowId(folderId) ? await db('channel_folders').where({ realm_id: realmId, id: folderId }).first('id') : undefined;
  if (!folder) throw errors.badRequest('Invalid channel folder ID');
}

/** Deleting messages is a policy only those allowed to set it may grant (beyond role:nobody). */
async function checkDeletePolicyGrant(db: Knex, viewer: ChannelViewer, setting: ChannelPermissionSetting, value: GroupSettingValue): Promise<void> {
  if (!DELETE_POLICY_SETTINGS.includes(setting) || value === viewer.systemGroups['role:nobody']) return;
  if (!(await holdsRealmPolicy(db, viewer.user, viewer.groupIds, viewer.systemGroups, 'can_set_delete_message_policy_group'))) {
    throw insufficientPermission();
  }
}

/** With protected history everyone must be able to start topics (role:everyone exactly). */
function checkTopicCreationWithProtectedHistory(historyPublic: boolean, canCreateTopic: GroupSettingValue, sys: SystemGroupIds): void {
  if (!historyPublic && canCreateTopic !== sys['role:everyone']) {
    throw errors.badRequest('Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group');
  }
}

async function checkTopicsPolicyPermission(db: Knex, viewer: ChannelViewer): Promise<void> {
  if (!(await holdsRealmPolicy(db, viewer.user, viewer.groupIds, viewer.systemGroups, 'can_set_topics_policy_group'))) throw insufficientPermission();
}

async function validateGroupSettings(db: Knex, viewer: ChannelViewer, requested: GroupSettingsInput): Promise<GroupSettingsInput> {
  const out: GroupSettingsInput = {};
  for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
    const value = requested[setting];
    if (value === undefined) continue;
    out[setting] = await checkGroupSettingValue(db, viewer.user.realm_id, setting, value, viewer.systemGroups);
  }
  return out;
}

/** Users named by id or by API email (the placeholder, or the real address where visible). */
async function resolvePrincipals(deps: AppDeps, db: Knex, actor: User, principals: Principals): Promise<User[]> {
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

async function channelDicts(db: Knex, realmId: number, streams: Stream[], withTraffic: boolean): Promise<Map<number, ChannelDict>> {
  const ctx = await loadChannelViewContext(db, realmId, streams, { withTraffic });
  return new Map(streams.map((s) => [s.id, channelDict(s, ctx)]));
}

/** Descriptions are Markdown; channel links in them resolve as their writer sees channels. */
function renderChannelDescription(deps: AppDeps, db: Knex, writer: ChannelViewer['user'], description: string): Promise<string> {
  return renderStoredDescription(db, deps.realmId, description, {
    realmUrl: deps.config.externalUrl,
    resolveChannels: channelLinkResolver(db, writer),
  });
}

async function reloadStream(db: Knex, streamId: number): Promise<Stream> {
  return Stream.query(db).findById(streamId).throwIfNotFound();
}

// ---------------------------------------------------------------------------------------------
// Subscribing (and creating channels on first use)

export interface NewChannelSettings {
  inviteOnly: boolean;
  isWebPublic: boolean;
  historyPublicToSubscribers: boolean | null;
  /** "realm_default", "unlimited" or days. */
  messageRetentionDays: string | number;
  topicsPolicy?: TopicsPolicy;
  folderId?: number | null;
  groupSettings: GroupSettingsInput;
}

export interface SubscribeRequest extends NewChannelSettings {
  subscriptions: { name: string; description?: string; color?: string }[];
  principals?: Principals;
  authorizationErrorsFatal: boolean;
  /** Announcing new channels needs messages; accepted and currently without effect. */
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
    const groupSettings = await validateGroupSettings(db, viewer, request.groupSettings);
    if (request.folderId !== undefined && request.folderId !== null) await checkFolder(db, deps.realmId, request.folderId);
    if (request.topicsPolicy !== undefined && request.topicsPolicy !== 'inherit') await checkTopicsPolicyPermission(db, viewer);
    const retentionDays = parseMessageRetentionDays(request.messageRetentionDays);

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

async function createChannels(
  deps: AppDeps,
  uow: UnitOfWork,
  viewer: ChannelViewer,
  items: { name: string; description: string }[],
  settings: NewChannelSettings,
  retentionDays: number | null,
): Promise<Stream[]> {
  const db = uow.trx;
  const { user } = viewer;
  const sys = viewer.systemGroups;
  const can = (policy: Parameters<typeof holdsRealmPolicy>[4]) => holdsRealmPolicy(db, user, viewer.groupIds, sys, policy);
  // Zulip checks these per new channel; the request's settings are the same for each.
  if (settings.inviteOnly && !(await can('can_create_private_channel_group'))) throw insufficientPermission();
  if (!settings.inviteOnly && !(await can('can_create_public_channel_group'))) throw insufficientPermission();
  if (settings.isWebPublic) {
    if (!(await webPublicChannelsEnabled(db, deps.realmId))) throw errors.badRequest('Web-public channels are not enabled.');
    if (!(await can('can_create_web_public_channel_group'))) throw insufficientPermission();
  }
  if (retentionDays !== null && !isOwnerRole(user.role)) throw errors.mustBeOwner();

  const historyPublic = settings.inviteOnly ? (settings.historyPublicToSubscribers ?? false) : true;
  const values: Record<string, GroupSettingValue> = {};
  for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
    const given = settings.groupSettings[setting];
    if (given !== undefined) {
      await checkDeletePolicyGrant(db, viewer, setting, given);
      values[setting] = given;
      continue;
    }
    const fallback = CHANNEL_PERMISSION_SETTINGS[setting].defaultGroup;
    values[setting] = fallback === 'channel_creator' ? { direct_members: [user.id], direct_subgroups: [] } : sys[fallback];
  }
  checkTopicCreationWithProtectedHistory(historyPublic, values.can_create_topic_group, sys);

  const created: Stream[] = [];
  for (const item of items) {
    const row: Record<string, unknown> = {
      realm_id: user.realm_id,
      name: item.name,
      description: item.description,
      rendered_description: await renderChannelDescription(deps, db, user, item.description),
      invite_only: settings.inviteOnly,
      is_web_public: settings.isWebPublic,
      history_public_to_subscribers: historyPublic,
      folder_id: settings.folderId ?? null,
      topics_policy: settings.topicsPolicy ?? 'inherit',
      message_retention_days: retentionDays,
      creator_id: user.id,
    };
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) row[setting] = JSON.stringify(values[setting]);
    let id: number;
    try {
      const [inserted] = await db('streams').insert(row).returning('id');
      id = typeof inserted === 'object' ? inserted.id : inserted;
    } catch (error) {
      if (isUniqueViolation(error)) throw channelAlreadyExists(item.name);
      throw error;
    }
    created.push(await reloadStream(db, id));
  }

  const users = await RealmUsers.load(db, user.realm_id);
  const dicts = await channelDicts(db, user.realm_id, created, false);
  for (const stream of created) {
    uow.emit(ev.streamCreate([dicts.get(stream.id)!]), await channelAudience(db, stream, users));
  }
  return created;
}

interface AddedSubscription {
  user: User;
  stream: Stream;
}

/** Picks, per new subscription, a color the user does not use yet (cycling once all are used). */
function pickColor(used: Set<string>, streamId: number): string {
  const free = SUBSCRIPTION_COLORS.find((c) => !used.has(c));
  const color = free ?? SUBSCRIPTION_COLORS[streamId % SUBSCRIPTION_COLORS.length];
  used.add(color);
  return color;
}

async function addSubscriptions(
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

/** The subscriptions with null notification settings replaced by the user's defaults; null if none is null. */
async function withNotificationDefaults<T extends Record<string, unknown>>(db: Knex, user: { id: number; realm_id: number }, dicts: T[]): Promise<T[] | null> {
  const settings = Object.entries(SUBSCRIPTION_NOTIFICATION_SETTINGS);
  if (!dicts.some((d) => settings.some(([name]) => d[name] === null))) return null;
  const defaults = await userChannelNotificationDefaults(db, user);
  return dicts.map((d) => {
    const copy: Record<string, unknown> = { ...d };
    for (const [name, fallback] of settings) if (copy[name] === null) copy[name] = defaults[fallback];
    return copy as T;
  });
}

async function emitSubscriptionsAdded(uow: UnitOfWork, added: AddedSubscription[], forUnarchiving = false): Promise<void> {
  const db = uow.trx;
  const realmId = added[0].stream.realm_id;
  const users = await RealmUsers.load(db, realmId);
  const streams = [...new Map(added.map((a) => [a.stream.id, a.stream])).values()];
  const ctx = await loadChannelViewContext(db, realmId, streams);
  const alteredByStream = new Map<number, Set<number>>();
  for (const { user, stream } of added) {
    if (!alteredByStream.has(stream.id)) alteredByStream.set(stream.id, new Set());
    alteredByStream.get(stream.id)!.add(user.id);
  }

  // Those who could not see a channel before learn of it first.
  for (const stream of streams) {
    if (forUnarchiving) break;
    const altered = alteredByStream.get(stream.id)!;
    let newcomers: number[] = [];
    if (!stream.isPublic()) {
      newcomers = without(altered, [...users.admins(), ...(await metadataGroupUserIds(db, stream))]);
    } else if (!stream.is_web_public) {
      newcomers = [...altered].filter((id) => isGuestRole(users.roles.get(id) ?? 0));
    }
    if (newcomers.length > 0) uow.emit(ev.streamCreate([channelDict(stream, ctx)]), newcomers);
  }

  const subscriberLists = new Map<number, number[]>();
  for (const stream of streams)
    subscriberLists.set(
      stream.id,
      [...(await activeSubscriberIds(db, stream.id))].sort((a, b) => a - b),
    );
  const subRows = await Subscription.query(db)
    .whereRaw(...anyOf('user_id', [...new Set(added.map((a) => a.user.id))]))
    .whereRaw(
      ...anyOf(
        'stream_id',
        streams.map((s) => s.id),
      ),
    );
  const byUser = new Map<number, AddedSubscription[]>();
  for (const item of added) {
    if (!byUser.has(item.user.id)) byUser.set(item.user.id, []);
    byUser.get(item.user.id)!.push(item);
  }
  for (const [userId, items] of byUser) {
    const dicts = items.map(({ stream }) => {
      const sub = subRows.find((r) => r.user_id === userId && r.stream_id === stream.id)!;
      return { ...subscriptionDict(stream, sub, ctx), subscribers: subscriberLists.get(stream.id)! };
    });
    const event = ev.subscriptionAdd(dicts, forUnarchiving);
    // Clients that cannot take null notification settings get the user's defaults in their place.
    const resolved = await withNotificationDefaults(db, { id: userId, realm_id: realmId }, dicts);
    uow.emit(event, [userId], resolved ? { ifNotCapable: { notification_settings_null: [ev.subscriptionAdd(resolved, forUnarchiving)] } } : {});
  }

  if (forUnarchiving) return;
  for (const stream of streams) {
    const altered = alteredByStream.get(stream.id)!;
    const peers = without(await channelAudience(db, stream, users), altered);
    uow.emit(ev.peerAdd([stream.id], [...altered]), peers);
  }
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

async function emitSubscriptionsRemoved(uow: UnitOfWork, removed: AddedSubscription[]): Promise<void> {
  const db = uow.trx;
  const users = await RealmUsers.load(db, removed[0].stream.realm_id);
  const byUser = new Map<number, AddedSubscription[]>();
  for (const item of removed) {
    if (!byUser.has(item.user.id)) byUser.set(item.user.id, []);
    byUser.get(item.user.id)!.push(item);
  }
  for (const [userId, items] of byUser) {
    uow.emit(ev.subscriptionRemove(items.map(({ stream }) => ({ stream_id: stream.id, name: stream.name }))), [userId]);
    const user = items[0].user;
    if (isAdminRole(user.role)) continue;
    // A private channel disappears for those who no longer have any way to see it.
    const viewer = await loadViewer(db, user);
    const lost = items.map((i) => i.stream).filter((s) => !hasMetadataAccess(viewer, s));
    if (lost.length > 0) uow.emit(ev.streamDelete(lost.map((s) => s.id)), [userId]);
  }
  const streams = [...new Map(removed.map((r) => [r.stream.id, r.stream])).values()];
  for (const stream of streams) {
    const altered = removed.filter((r) => r.stream.id === stream.id).map((r) => r.user.id);
    uow.emit(ev.peerRemove([stream.id], altered), without(await channelAudience(db, stream, users), altered));
  }
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

// ---------------------------------------------------------------------------------------------
// Channel settings

export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

export interface ChannelChanges {
  newName?: string;
  description?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: string | number;
  topicsPolicy?: TopicsPolicy;
  /** null removes the channel from its folder. */
  folderId?: number | null;
  /** Only false (unarchive) is accepted; archiving is archiveChannel. */
  isArchived?: boolean;
  groupSettings?: Partial<Record<ChannelPermissionSetting, GroupSettingChange>>;
}

export async function updateChannel(deps: AppDeps, actor: User, streamId: number, changes: ChannelChanges): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, actor);
    let stream = await accessChannelForUpdate(db, viewer, streamId);
    const sys = viewer.systemGroups;

    const proposedPrivate = changes.isPrivate ?? stream.invite_only;
    const proposedWebPublic = changes.isWebPublic ?? stream.is_web_public;
    const proposedHistory = changes.historyPublicToSubscribers ?? (changes.isPrivate !== undefined ? !changes.isPrivate : stream.history_public_to_subscribers);
    if (proposedWebPublic && (!proposedHistory || proposedPrivate)) throw errors.badRequest('Invalid parameters');
    if (!proposedPrivate && !proposedHistory) throw errors.badRequest('Invalid parameters');
    if (changes.isPrivate !== undefined) {
      if (!hasContentAccess(viewer, stream)) throw channelContentAccessRequired();
      const policy = changes.isPrivate ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
      if (!(await holdsRealmPolicy(db, actor, viewer.groupIds, sys, policy))) throw insufficientPermission();
    }
    if (changes.isWebPublic) {
      if (!(await webPublicChannelsEnabled(db, deps.realmId))) throw errors.badRequest('Web-public channels are not enabled.');
      if (!(await holdsRealmPolicy(db, actor, viewer.groupIds, sys, 'can_create_web_public_channel_group'))) throw insufficientPermission();
    }
    let retention: number | null | undefined;
    if (changes.messageRetentionDays !== undefined) {
      if (!isOwnerRole(actor.role)) throw errors.mustBeOwner();
      retention = parseMessageRetentionDays(changes.messageRetentionDays);
    }
    if (changes.isArchived === false) checkCanUnarchive(stream, await activeSubscriberIds(db, stream.id));
    if (changes.topicsPolicy !== undefined) {
      await checkTopicsPolicyPermission(db, viewer);
      if (changes.topicsPolicy === 'empty_topic_only' && !(await channelHasOnlyEmptyTopicMessages(db, deps.realmId, stream.id))) {
        throw errors.badRequest(
          'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.',
        );
      }
    }
    const description = changes.description === undefined ? undefined : normalizeDescription(changes.description);
    let newName: string | undefined;
    if (changes.newName !== undefined) {
      newName = changes.newName.trim();
      if (newName === stream.name) throw errors.badRequest('Channel already has that name.');
      if (newName.toLowerCase() !== stream.name.toLowerCase()) await checkNameAvailable(db, viewer, newName);
    }
    if (changes.folderId !== undefined && changes.folderId !== null) await checkFolder(db, deps.realmId, changes.folderId);

    // Group settings: check the expected current value, then the new one, before changing anything.
    const settingChanges: [ChannelPermissionSetting, GroupSettingValue][] = [];
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
      const change = changes.groupSettings?.[setting];
      if (!change) continue;
      const current = stream[setting];
      const requested = normalizeGroupSettingValue(change.new, sys['role:nobody']);
      if (change.old !== undefined && !sameGroupSettingValue(normalizeGroupSettingValue(change.old, sys['role:nobody']), current)) {
        throw new ApiError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.", 400);
      }
      if (sameGroupSettingValue(current, requested)) continue;
      if (CONTENT_ACCESS_REQUIRED_SETTINGS.includes(setting) && !hasContentAccess(viewer, stream)) throw channelContentAccessRequired();
      const value = await checkGroupSettingValue(db, deps.realmId, setting, requested, sys);
      await checkDeletePolicyGrant(db, viewer, setting, value);
      settingChanges.push([setting, value]);
    }
    const finalCreateTopic = settingChanges.find(([s]) => s === 'can_create_topic_group')?.[1] ?? stream.can_create_topic_group;
    if (changes.historyPublicToSubscribers !== undefined || changes.isPrivate !== undefined || settingChanges.some(([s]) => s === 'can_create_topic_group')) {
      checkTopicCreationWithProtectedHistory(proposedHistory, finalCreateTopic, sys);
    }

    const users = await RealmUsers.load(db, deps.realmId);
    if (proposedPrivate !== stream.invite_only || proposedWebPublic !== stream.is_web_public || proposedHistory !== stream.history_public_to_subscribers) {
      stream = await changePermission(uow, stream, users, { inviteOnly: proposedPrivate, isWebPublic: proposedWebPublic, history: proposedHistory });
    }
    if (retention !== undefined && retention !== stream.message_retention_days) {
      stream = await setProperty(uow, stream, users, 'message_retention_days', retention);
    }
    if (changes.isArchived === false) stream = await unarchive(uow, stream, users);
    if (changes.topicsPolicy !== undefined && changes.topicsPolicy !== stream.topics_policy) {
      stream = await setProperty(uow, stream, users, 'topics_policy', changes.topicsPolicy);
    }
    if (description !== undefined && description !== stream.description) {
      const rendered = await renderChannelDescription(deps, db, actor, description);
      await db('streams').where({ id: stream.id }).update({ description, rendered_description: rendered });
      stream = await reloadStream(db, stream.id);
      uow.emit(ev.streamUpdate(stream, 'description', description, { rendered_description: rendered }), await channelAudience(db, stream, users));
    }
    if (newName !== undefined) {
      const oldName = stream.name;
      try {
        await db('streams').where({ id: stream.id }).update({ name: newName });
      } catch (error) {
        if (isUniqueViolation(error)) throw channelAlreadyExists(newName);
        throw error;
      }
      stream = await reloadStream(db, stream.id);
      uow.emit(ev.streamUpdate({ id: stream.id, name: oldName }, 'name', newName), await channelAudience(db, stream, users));
    }
    if (changes.folderId !== undefined && changes.folderId !== stream.folder_id) {
      stream = await setProperty(uow, stream, users, 'folder_id', changes.folderId);
    }
    for (const [setting, value] of settingChanges) stream = await changeGroupSetting(uow, stream, users, setting, value);
  });
}

function checkCanUnarchive(stream: Stream, subscribers: Set<number>): void {
  if (!stream.deactivated) throw errors.badRequest('Channel is not currently deactivated');
  if (stream.invite_only && subscribers.size === 0) throw errors.badRequest('Channel is private and have no subscribers');
}

/** A new name must be free; a taken name is named only to those who can see that channel. */
async function checkNameAvailable(db: Knex, viewer: ChannelViewer, name: string): Promise<void> {
  checkChannelName(name);
  const other = await Stream.query(db).where('realm_id', viewer.user.realm_id).whereRaw('lower(name) = lower(?)', [name]).first();
  if (!other) return;
  if (hasContentAccess(viewer, other) || isAdminRole(viewer.user.role) || hasMetadataAccessViaGroups(viewer, other)) {
    throw channelAlreadyExists(name);
  }
  throw errors.badRequest('Permission denied');
}

async function setProperty(
  uow: UnitOfWork,
  stream: Stream,
  users: RealmUsers,
  property: 'message_retention_days' | 'topics_policy' | 'folder_id',
  value: unknown,
): Promise<Stream> {
  const db = uow.trx;
  await db('streams')
    .where({ id: stream.id })
    .update({ [property]: value });
  const updated = await reloadStream(db, stream.id);
  uow.emit(ev.streamUpdate(updated, property, value), await channelAudience(db, updated, users));
  return updated;
}

/**
 * Privacy changes: users who newly see the channel get it (and its subscribers) as if created;
 * those who can no longer see it get a delete; everyone else gets the update.
 */
async function changePermission(
  uow: UnitOfWork,
  stream: Stream,
  users: RealmUsers,
  next: { inviteOnly: boolean; isWebPublic: boolean; history: boolean },
): Promise<Stream> {
  const db = uow.trx;
  const before = await channelAudience(db, stream, users);
  await db('streams').where({ id: stream.id }).update({
    invite_only: next.inviteOnly,
    is_web_public: next.isWebPublic,
    history_public_to_subscribers: next.history,
  });
  if (next.inviteOnly) await dropDefaultChannel(uow, stream.realm_id, stream.id);
  const updated = await reloadStream(db, stream.id);
  const after = await channelAudience(db, updated, users);
  const gaining = without(after, before);
  const losing = without(before, after);
  if (gaining.length > 0) {
    const dicts = await channelDicts(db, updated.realm_id, [updated], true);
    uow.emit(ev.streamCreate([dicts.get(updated.id)!]), gaining);
    const subscribers = [...(await activeSubscriberIds(db, updated.id))];
    if (subscribers.length > 0) uow.emit(ev.peerAdd([updated.id], subscribers), gaining);
  }
  if (losing.length > 0) uow.emit(ev.streamDelete([updated.id]), losing);
  uow.emit(
    ev.streamUpdate(updated, 'invite_only', updated.invite_only, {
      history_public_to_subscribers: updated.history_public_to_subscribers,
      is_web_public: updated.is_web_public,
    }),
    without(after, gaining),
  );
  return updated;
}

async function changeGroupSetting(
  uow: UnitOfWork,
  stream: Stream,
  users: RealmUsers,
  setting: ChannelPermissionSetting,
  value: GroupSettingValue,
): Promise<Stream> {
  const db = uow.trx;
  const before = await channelAudience(db, stream, users);
  const ctxBefore = await loadChannelViewContext(db, stream.realm_id, [stream], { withTraffic: false });
  const oldPostPolicy = streamPostPolicy(stream, ctxBefore.systemGroupNames);
  await db('streams')
    .where({ id: stream.id })
    .update({ [setting]: JSON.stringify(value) });
  const updated = await reloadStream(db, stream.id);
  const after = await channelAudience(db, updated, users);
  const ctxAfter = await loadChannelViewContext(db, stream.realm_id, [updated], { withTraffic: false });
  const apiValue = channelDict(updated, ctxAfter)[setting];
  const update = ev.streamUpdate(updated, setting, apiValue);
  if (METADATA_ACCESS_SETTINGS.includes(setting)) {
    const gaining = without(after, before);
    const losing = without(before, after);
    uow.emit(update, without(after, gaining));
    if (gaining.length > 0) {
      const dicts = await channelDicts(db, updated.realm_id, [updated], true);
      uow.emit(ev.streamCreate([dicts.get(updated.id)!]), gaining);
      uow.emit(ev.peerAdd([updated.id], [...(await activeSubscriberIds(db, updated.id))]), gaining);
    }
    if (losing.length > 0) uow.emit(ev.streamDelete([updated.id]), losing);
  } else {
    uow.emit(update, after);
  }
  if (setting === 'can_send_message_group') {
    const newPostPolicy = streamPostPolicy(updated, ctxAfter.systemGroupNames);
    if (newPostPolicy !== oldPostPolicy) {
      uow.emit(ev.streamUpdate(updated, 'stream_post_policy', newPostPolicy), after);
      uow.emit(ev.streamUpdate(updated, 'is_announcement_only', newPostPolicy === 2), after);
    }
  }
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Archiving

/**
 * Archives a channel: it keeps its subscribers and settings but takes no new messages. Clients
 * that know archived channels get `is_archived`; the others see the channel deleted.
 */
export async function archiveChannel(deps: AppDeps, actor: User, streamId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, actor);
    const stream = await accessChannelForUpdate(db, viewer, streamId);
    if (stream.deactivated) throw errors.badRequest('Channel is already deactivated');
    const users = await RealmUsers.load(db, deps.realmId);
    const affected = await channelAudience(db, stream, users);
    await db('streams').where({ id: stream.id }).update({ deactivated: true });
    uow.emit(ev.streamUpdate(stream, 'is_archived', true), affected);
    uow.emit(ev.streamDelete([stream.id], true), affected);
    await dropDefaultChannel(uow, deps.realmId, stream.id);
  });
}

async function unarchive(uow: UnitOfWork, stream: Stream, users: RealmUsers): Promise<Stream> {
  const db = uow.trx;
  await db('streams')
    .where({ id: stream.id })
    .update({
      deactivated: false,
      // An archived private channel could carry is_web_public from older data; fix that on the way back.
      is_web_public: stream.invite_only ? false : stream.is_web_public,
    });
  const updated = await reloadStream(db, stream.id);
  const audience = await channelAudience(db, updated, users);
  uow.emit(ev.streamUpdate(updated, 'is_archived', false), audience);
  const dicts = await channelDicts(db, updated.realm_id, [updated], true);
  uow.emit(ev.streamCreate([dicts.get(updated.id)!], true), audience);
  const subscriberIds = [...(await activeSubscriberIds(db, updated.id))];
  if (subscriberIds.length > 0) {
    const subscribers = await User.query(db).whereRaw(...anyOf('id', subscriberIds));
    await emitSubscriptionsAdded(
      uow,
      subscribers.map((user) => ({ user, stream: updated })),
      true,
    );
  }
  return updated;
}

// ---------------------------------------------------------------------------------------------
// Accounts leaving and returning (steps of the users feature's deactivate/reactivate actions)

/**
 * A deactivated account keeps its subscriptions (they return with it) but stops counting as a
 * subscriber, so each channel's peers get peer_remove, as in Zulip. Permission values that name it
 * directly list active users only, so they are announced again.
 */
export async function announceDeactivatedAccount(uow: UnitOfWork, user: User): Promise<void> {
  await announceSubscriberChange(uow, user, 'peer_remove');
  await announceSettingsNaming(uow, user);
}

/** The reverse: peers get peer_add for the account's subscriptions, as in Zulip. */
export async function announceReactivatedAccount(uow: UnitOfWork, user: User): Promise<void> {
  await announceSubscriberChange(uow, user, 'peer_add');
  await announceSettingsNaming(uow, user);
}

/**
 * Archived channels are included: clients that track them keep exact subscriber lists, and the
 * others ignore ids they do not know.
 */
async function announceSubscriberChange(uow: UnitOfWork, user: User, op: 'peer_add' | 'peer_remove'): Promise<void> {
  const db = uow.trx;
  const streams = await Stream.query(db)
    .whereIn('id', Subscription.query(db).select('stream_id').where({ user_id: user.id, active: true }))
    .orderBy('id');
  if (streams.length === 0) return;
  const users = await RealmUsers.load(db, user.realm_id);
  for (const stream of streams) {
    const event = op === 'peer_add' ? ev.peerAdd([stream.id], [user.id]) : ev.peerRemove([stream.id], [user.id]);
    uow.emit(event, without(await channelAudience(db, stream, users), [user.id]));
  }
}

function namesUserDirectly(value: GroupSettingValue, userId: number): boolean {
  return typeof value !== 'number' && value.direct_members.includes(userId);
}

async function announceSettingsNaming(uow: UnitOfWork, user: User): Promise<void> {
  const db = uow.trx;
  const streams = (await Stream.query(db).where('realm_id', user.realm_id).orderBy('id')).filter((stream) =>
    CHANNEL_PERMISSION_SETTING_NAMES.some((setting) => namesUserDirectly(stream[setting], user.id)),
  );
  if (streams.length === 0) return;
  const users = await RealmUsers.load(db, user.realm_id);
  const ctx = await loadChannelViewContext(db, user.realm_id, streams, { withTraffic: false });
  for (const stream of streams) {
    const dict = channelDict(stream, ctx);
    const audience = await channelAudience(db, stream, users);
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
      if (namesUserDirectly(stream[setting], user.id)) uow.emit(ev.streamUpdate(stream, setting, dict[setting]), audience);
    }
  }
}

/** Active channels the account can see exist: what its stream and subscription state lists. */
async function visibleChannels(db: Knex, user: User): Promise<{ viewer: ChannelViewer; streams: Stream[] }> {
  const viewer = await loadViewer(db, user);
  const streams = await Stream.query(db).where({ realm_id: user.realm_id, deactivated: false }).orderBy('id');
  return { viewer, streams: streams.filter((s) => hasMetadataAccess(viewer, s)) };
}

/**
 * A role change can show or hide channels (administrators see every private channel; guests only
 * their own). As in Zulip, the account gets stream/create, then peer_add with the subscribers, for
 * channels it now sees, and stream/delete for those it no longer sees. Call before the change is
 * written; the returned step runs after it.
 */
export async function noteChannelsBeforeRoleChange(uow: UnitOfWork, user: User): Promise<(changed: User) => Promise<void>> {
  const db = uow.trx;
  const before = new Set((await visibleChannels(db, user)).streams.map((s) => s.id));
  return async (changed) => {
    const { viewer, streams } = await visibleChannels(db, changed);
    const gained = streams.filter((s) => !before.has(s.id));
    const lost = [...before].filter((id) => !streams.some((s) => s.id === id));
    if (gained.length > 0) {
      const dicts = await channelDicts(db, changed.realm_id, gained, true);
      uow.emit(ev.streamCreate(gained.map((s) => dicts.get(s.id)!)), [changed.id]);
      for (const stream of gained) {
        if (!canSeeSubscribers(viewer, stream)) continue;
        const subscribers = [...(await activeSubscriberIds(db, stream.id))];
        if (subscribers.length > 0) uow.emit(ev.peerAdd([stream.id], subscribers), [changed.id]);
      }
    }
    if (lost.length > 0) uow.emit(ev.streamDelete(lost), [changed.id]);
  };
}
