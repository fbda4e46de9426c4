import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import { ChannelViewer } from './access';
import { CHANNEL_PERMISSION_SETTING_NAMES, ChannelPermissionSetting, DELETE_POLICY_SETTINGS, TopicsPolicy } from './constants';
import { checkGroupSettingValue, GroupSettingValue, SystemGroupIds } from './group-settings';
import { holdsRealmPolicy } from './realm-policy';
import { isRowId } from '../../db/ids';
import { parseMessageRetentionDays } from './validation';

/** Checks shared by creating channels (through subscribing) and changing their settings. */

export type GroupSettingsInput = Partial<Record<ChannelPermissionSetting, GroupSettingValue>>;

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

export const insufficientPermission = () => errors.badRequest('Insufficient permission');
export const channelAlreadyExists = (name: string) => new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`, 400, { channel_name: name });

export async function checkFolder(db: Knex, realmId: number, folderId: number): Promise<void> {
  const folder = isRowId(folderId) ? await db('channel_folders').where({ realm_id: realmId, id: folderId }).first('id') : undefined;
  if (!folder) throw errors.badRequest('Invalid channel folder ID');
}

/** Deleting messages is a policy only those allowed to set it may grant (beyond role:nobody). */
export async function checkDeletePolicyGrant(db: Knex, viewer: ChannelViewer, setting: ChannelPermissionSetting, value: GroupSettingValue): Promise<void> {
  if (!DELETE_POLICY_SETTINGS.includes(setting) || value === viewer.systemGroups['role:nobody']) return;
  if (!(await holdsRealmPolicy(db, viewer.user, viewer.groupIds, viewer.systemGroups, 'can_set_delete_message_policy_group'))) {
    throw insufficientPermission();
  }
}

/** With protected history everyone must be able to start topics (role:everyone exactly). */
export function checkTopicCreationWithProtectedHistory(historyPublic: boolean, canCreateTopic: GroupSettingValue, sys: SystemGroupIds): void {
  if (!historyPublic && canCreateTopic !== sys['role:everyone']) {
    throw errors.badRequest('Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group');
  }
}

export async function checkTopicsPolicyPermission(db: Knex, viewer: ChannelViewer): Promise<void> {
  if (!(await holdsRealmPolicy(db, viewer.user, viewer.groupIds, viewer.systemGroups, 'can_set_topics_policy_group'))) throw insufficientPermission();
}

export async function validateGroupSettings(db: Knex, viewer: ChannelViewer, requested: GroupSettingsInput): Promise<GroupSettingsInput> {
  const out: GroupSettingsInput = {};
  for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
    const value = requested[setting];
    if (value === undefined) continue;
    out[setting] = await checkGroupSettingValue(db, viewer.user.realm_id, setting, value, viewer.systemGroups);
  }
  return out;
}

/** Checks the settings requested for channels about to be created; answers them validated. */
export async function checkNewChannelSettings(db: Knex, viewer: ChannelViewer, settings: NewChannelSettings) {
  const groupSettings = await validateGroupSettings(db, viewer, settings.groupSettings);
  if (settings.folderId !== undefined && settings.folderId !== null) await checkFolder(db, viewer.user.realm_id, settings.folderId);
  if (settings.topicsPolicy !== undefined && settings.topicsPolicy !== 'inherit') await checkTopicsPolicyPermission(db, viewer);
  return { groupSettings, retentionDays: parseMessageRetentionDays(settings.messageRetentionDays) };
}
