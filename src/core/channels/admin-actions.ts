import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { renderStoredDescription } from '../markdown';
import { User } from '../users/model';
import { dropDefaultChannel } from '../default-channels/store';
import { isAdminRole, isOwnerRole } from '../users/roles';
import { accessChannelForUpdate, ChannelViewer, channelContentAccessRequired, hasContentAccess, hasMetadataAccessViaGroups, loadViewer } from './access';
import { activeSubscriberIds, channelAudience, RealmUsers, without } from './audience';
import {
  CHANNEL_PERMISSION_SETTING_NAMES,
  CHANNEL_PERMISSION_SETTINGS,
  ChannelPermissionSetting,
  CONTENT_ACCESS_REQUIRED_SETTINGS,
  METADATA_ACCESS_SETTINGS,
  TopicsPolicy,
} from './constants';
import * as ev from './events';
import { checkGroupSettingValue, GroupSettingValue, normalizeGroupSettingValue, sameGroupSettingValue } from './group-settings';
import { channelHasOnlyEmptyTopicMessages } from './message-hooks';
import { Stream } from './model';
import { channelLinkResolver } from './links';
import { holdsRealmPolicy, webPublicChannelsEnabled } from './realm-policy';
import { checkChannelName, normalizeDescription, parseMessageRetentionDays } from './validation';
import { channelDict, ChannelDict, loadChannelViewContext, streamPostPolicy } from './view';
import { anyOf } from '../../db/lists';
import {
  GroupSettingsInput,
  insufficientPermission,
  channelAlreadyExists,
  checkFolder,
  checkDeletePolicyGrant,
  checkTopicCreationWithProtectedHistory,
  checkTopicsPolicyPermission,
  NewChannelSettings,
} from './action-checks';

export type { NewChannelSettings } from './action-checks';
import { emitSubscriptionsAdded } from './subscription-events';

/**
 * Channel administration: creating channels (on first subscription), changing their settings,
 * archiving and unarchiving. Each action validates everything first, changes the database in one
 * transaction, and queues Zulip's events with explicit recipients.
 */

export async function channelDicts(db: Knex, realmId: number, streams: Stream[], withTraffic: boolean): Promise<Map<number, ChannelDict>> {
  const ctx = await loadChannelViewContext(db, realmId, streams, { withTraffic });
  return new Map(streams.map((s) => [s.id, channelDict(s, ctx)]));
}

/** Descriptions are Markdown; channel links in them resolve as their writer sees channels. */
export function renderChannelDescription(deps: AppDeps, db: Knex, writer: ChannelViewer['user'], description: string): Promise<string> {
  return renderStoredDescription(db, deps.realmId, description, {
    realmUrl: deps.config.externalUrl,
    resolveChannels: channelLinkResolver(db, writer),
  });
}

export async function reloadStream(db: Knex, streamId: number): Promise<Stream> {
  return Stream.query(db).findById(streamId).throwIfNotFound();
}

export async function createChannels(
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
