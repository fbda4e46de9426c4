import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import type { User } from '../users/model';
import { isGuestRole } from '../users/roles';
import { isInGroupSetting } from './membership';
import { UserGroup } from './model';
import { getRealmGroupSetting, REALM_GROUP_SETTINGS } from './realm-settings';
import {
  GROUP_PERMISSION_SETTINGS,
  GroupPermissionSetting,
  GroupSettingConfig,
  GroupSettingValue,
  isAnonymous,
  normalizeGroupSettingValue,
} from './setting-values';
import { systemGroupId } from './system-groups';
import { anyOf } from '../../db/lists';
import { isRowId } from '../../db/ids';

/** Named checks for user groups, with Zulip's messages. */

/** Guests and bots may not use most group endpoints. */
export function requireMemberOrAdmin(user: User): void {
  if (isGuestRole(user.role)) throw errors.badRequest('Not allowed for guest users');
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
}

export async function nobodyGroupId(db: Knex, realmId: number): Promise<number> {
  return systemGroupId(db, realmId, 'role:nobody');
}

/** A group's value for a permission setting; system groups hold "nobody" for all of them. */
export function groupSetting(group: UserGroup, name: GroupPermissionSetting, nobodyId: number): GroupSettingValue {
  return group.settings?.[name] ?? nobodyId;
}

export async function hasGroupSettingPermission(db: Knex, realmId: number, user: User, value: GroupSettingValue, config: GroupSettingConfig): Promise<boolean> {
  // Settings that cannot be "everyone" are never held by guests, whatever the groups say.
  if (!config.allowEveryone && isGuestRole(user.role)) return false;
  return isInGroupSetting(db, realmId, value, user.id);
}

async function hasRealmPermission(db: Knex, realmId: number, user: User, name: string): Promise<boolean> {
  if (!user.is_active) return false;
  const value = await getRealmGroupSetting(db, realmId, name);
  return hasGroupSettingPermission(db, realmId, user, value, REALM_GROUP_SETTINGS[name]);
}

export const canCreateGroups = (db: Knex, realmId: number, user: User) => hasRealmPermission(db, realmId, user, 'can_create_groups');
export const canManageAllGroups = (db: Knex, realmId: number, user: User) => hasRealmPermission(db, realmId, user, 'can_manage_all_groups');

export async function requireCanCreateGroups(db: Knex, realmId: number, user: User): Promise<void> {
  requireMemberOrAdmin(user);
  if (!(await canCreateGroups(db, realmId, user))) throw errors.insufficientPermission();
}

/** A named group of this organization, or "Invalid user group". */
export async function findGroup(db: Knex, realmId: number, groupId: number, options: { allowDeactivated: boolean; forUpdate?: boolean }): Promise<UserGroup> {
  if (!isRowId(groupId)) throw errors.badRequest('Invalid user group');
  const query = UserGroup.query(db).findOne({ realm_id: realmId, id: groupId });
  if (options.forUpdate) query.forUpdate();
  const group = await query;
  if (!group) throw errors.badRequest('Invalid user group');
  if (group.deactivated && !options.allowDeactivated) throw errors.badRequest('User group is deactivated.');
  return group;
}

/**
 * The group a user is about to change. Managing the group (or all groups) allows everything;
 * otherwise the specific permission (join, add members, ...) decides. System groups change only
 * with roles.
 */
export async function accessGroupForUpdate(
  db: Knex,
  realmId: number,
  user: User,
  groupId: number,
  permission: GroupPermissionSetting,
  options: { allowDeactivated: boolean },
): Promise<UserGroup> {
  const group = await findGroup(db, realmId, groupId, { allowDeactivated: options.allowDeactivated, forUpdate: true });
  if (group.is_system_group) throw errors.insufficientPermission();
  if (await canManageAllGroups(db, realmId, user)) return group;
  const nobody = await nobodyGroupId(db, realmId);
  const manage = groupSetting(group, 'can_manage_group', nobody);
  if (await hasGroupSettingPermission(db, realmId, user, manage, GROUP_PERMISSION_SETTINGS.can_manage_group)) return group;
  if (permission !== 'can_manage_group') {
    const value = groupSetting(group, permission, nobody);
    if (await hasGroupSettingPermission(db, realmId, user, value, GROUP_PERMISSION_SETTINGS[permission])) return group;
  }
  throw errors.insufficientPermission();
}

/**
 * Checks a requested group-setting value against the organization and the setting's rules, and
 * returns it in canonical form (see normalizeGroupSettingValue). Channels use it for their settings.
 */
export async function validateGroupSettingValue(
  db: Knex,
  realmId: number,
  requested: GroupSettingValue,
  settingName: string,
  config: GroupSettingConfig,
): Promise<GroupSettingValue> {
  const value = normalizeGroupSettingValue(requested, await nobodyGroupId(db, realmId));
  if (!isAnonymous(value)) {
    const group = await findGroup(db, realmId, value, { allowDeactivated: false });
    checkSystemGroupRules(group, settingName, config);
    return value;
  }
  if (config.requireSystemGroup) throw systemGroupRequired(settingName);
  await requireActiveUsers(db, realmId, value.direct_members);
  const groups = await UserGroup.query(db)
    .where('realm_id', realmId)
    .whereRaw(...anyOf('id', value.direct_subgroups));
  const found = new Map(groups.map((g) => [g.id, g]));
  const missing = value.direct_subgroups.find((id) => !found.has(id));
  if (missing !== undefined) throw errors.badRequest(`Invalid user group ID: ${missing}`);
  if (groups.some((g) => g.deactivated)) throw errors.badRequest('User group is deactivated.');
  return value;
}

function systemGroupRequired(settingName: string): ApiError {
  return new ApiError('SYSTEM_GROUP_REQUIRED', `'${settingName}' must be a system user group.`, 400, { setting_name: settingName });
}

function checkSystemGroupRules(group: UserGroup, settingName: string, config: GroupSettingConfig): void {
  if (config.requireSystemGroup && !group.is_system_group) throw systemGroupRequired(settingName);
  const refuse = (name: string) => errors.badRequest(`'${settingName}' setting cannot be set to '${name}' group.`);
  if (!group.is_system_group) return;
  if (!config.allowInternet && group.name === 'role:internet') throw refuse(group.name);
  if (!config.allowNobody && group.name === 'role:nobody') throw refuse(group.name);
  if (!config.allowEveryone && group.name === 'role:everyone') throw refuse(group.name);
  if (config.allowedSystemGroups.length > 0 && !config.allowedSystemGroups.includes(group.name)) throw refuse(group.name);
}

/** Zulip's user_ids_to_users: every id must be an active account of this organization. */
export async function requireActiveUsers(db: Knex, realmId: number, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  const active = new Set<number>(
    await db('users')
      .where({ realm_id: realmId, is_active: true })
      .whereRaw(...anyOf('id', userIds))
      .pluck('id'),
  );
  const invalid = userIds.find((id) => !active.has(id));
  if (invalid !== undefined) throw errors.badRequest(`Invalid user ID: ${invalid}`);
}
