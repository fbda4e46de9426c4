import type { Knex } from 'knex';
import { anyOf } from '../../db/lists';
import { groupSetting } from './access';
import { UserGroup } from './model';
import { getRealmGroupSetting } from './realm-settings';
import { GroupPermissionSetting, GroupSettingValue, isAnonymous } from './setting-values';
import type { SystemGroupName } from './system-groups';

/** The settings through which someone may add members to a group or remove them. */
const MEMBERSHIP_SETTINGS: readonly GroupPermissionSetting[] = [
  'can_add_members_group',
  'can_join_group',
  'can_leave_group',
  'can_manage_group',
  'can_remove_members_group',
];

/**
 * Whether a setting value can only ever stand for administrators: judged by its shape, not by who
 * holds it today, so a later change of members or roles cannot widen it. Direct members of an
 * anonymous value are refused, since they keep the permission whatever their role becomes.
 */
function adminsOnly(value: GroupSettingValue, adminGroups: ReadonlySet<number>): boolean {
  if (!isAnonymous(value)) return adminGroups.has(value);
  return value.direct_members.length === 0 && value.direct_subgroups.every((id) => adminGroups.has(id));
}

/**
 * Zulip's check_group_membership_management_permissions_with_admins_only: whether only
 * organization administrators can change the membership of every one of these groups, through
 * the groups' own settings or the organization's can_manage_all_groups.
 */
export async function membershipManagedByAdminsOnly(
  db: Knex,
  realmId: number,
  groupIds: readonly number[],
  systemGroups: Record<SystemGroupName, number>,
): Promise<boolean> {
  const adminGroups = new Set([systemGroups['role:administrators'], systemGroups['role:owners'], systemGroups['role:nobody']]);
  if (!adminsOnly(await getRealmGroupSetting(db, realmId, 'can_manage_all_groups'), adminGroups)) return false;
  const groups = await UserGroup.query(db)
    .where('realm_id', realmId)
    .whereRaw(...anyOf('id', groupIds));
  const nobody = systemGroups['role:nobody'];
  return groups.every((group) => MEMBERSHIP_SETTINGS.every((name) => adminsOnly(groupSetting(group, name, nobody), adminGroups)));
}
