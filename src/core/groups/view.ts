import type { Knex } from 'knex';
import { nobodyGroupId, groupSetting } from './access';
import { UserGroup } from './model';
import { GROUP_PERMISSION_SETTING_NAMES, GroupSettingValue, isAnonymous } from './setting-values';
import { anyOf } from '../../db/lists';
import { cachedMemberLists, MemberListDeps, MemberLists, memberListsOf } from './member-lists';

/** The Zulip user group object (GET /user_groups, realm_user_groups, user_group/add). */
export interface UserGroupDict {
  id: number;
  name: string;
  creator_id: number | null;
  date_created: number | null;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_add_members_group: GroupSettingValue;
  can_join_group: GroupSettingValue;
  can_leave_group: GroupSettingValue;
  can_manage_group: GroupSettingValue;
  can_mention_group: GroupSettingValue;
  can_remove_members_group: GroupSettingValue;
  deactivated: boolean;
}

export const unixSeconds = (date: Date | null): number | null => (date ? Math.floor(new Date(date).getTime() / 1000) : null);

/** The API form of a stored value: anonymous members leave it when their account is deactivated. */
export function apiGroupSettingValue(value: GroupSettingValue, activeUserIds: Set<number>): GroupSettingValue {
  if (!isAnonymous(value)) return value;
  return {
    direct_members: value.direct_members.filter((id) => activeUserIds.has(id)).sort((a, b) => a - b),
    direct_subgroups: [...value.direct_subgroups].sort((a, b) => a - b),
  };
}

/**
 * Serializes groups with a fixed number of queries, whatever their count. Reads outside a
 * transaction pass the server's parts (`db` must be its knex) to take member lists from the
 * process's cache (./member-lists).
 */
export async function groupDicts(db: Knex, realmId: number, groups: UserGroup[], cached?: MemberListDeps): Promise<UserGroupDict[]> {
  if (groups.length === 0) return [];
  const nobody = await nobodyGroupId(db, realmId);
  const { members, subgroups } = cached ? await cachedMemberLists(cached) : await readMemberLists(db, groups);
  const anonymousMembers = new Set<number>();
  for (const group of groups) {
    for (const name of GROUP_PERMISSION_SETTING_NAMES) {
      const value = groupSetting(group, name, nobody);
      if (isAnonymous(value)) value.direct_members.forEach((id) => anonymousMembers.add(id));
    }
  }
  const active = new Set<number>(
    anonymousMembers.size === 0
      ? []
      : await db('users')
          .where({ realm_id: realmId, is_active: true })
          .whereRaw(...anyOf('id', [...anonymousMembers]))
          .pluck('id'),
  );
  // A copy each: register applies events to the lists it returns.
  const ascending = (list: readonly number[] | undefined) => (list ? list.slice() : []);
  return groups.map((group) => {
    const setting = (name: (typeof GROUP_PERMISSION_SETTING_NAMES)[number]) => apiGroupSettingValue(groupSetting(group, name, nobody), active);
    return {
      id: group.id,
      name: group.name,
      creator_id: group.creator_id,
      date_created: unixSeconds(group.date_created),
      description: group.description,
      members: ascending(members.get(group.id)),
      direct_subgroup_ids: ascending(subgroups.get(group.id)),
      is_system_group: group.is_system_group,
      can_add_members_group: setting('can_add_members_group'),
      can_join_group: setting('can_join_group'),
      can_leave_group: setting('can_leave_group'),
      can_manage_group: setting('can_manage_group'),
      can_mention_group: setting('can_mention_group'),
      can_remove_members_group: setting('can_remove_members_group'),
      deactivated: group.deactivated,
    };
  });
}

/** The member lists of just these groups, read through `db` (a transaction's own view). */
async function readMemberLists(db: Knex, groups: UserGroup[]): Promise<MemberLists> {
  const ids = groups.map((g) => g.id);
  const memberRows: { group_id: number; user_id: number }[] = await db('user_group_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .whereRaw(...anyOf('m.group_id', ids))
    .andWhere('u.is_active', true)
    .orderBy('m.user_id')
    .select('m.group_id', 'm.user_id');
  const subgroupRows: { supergroup_id: number; subgroup_id: number }[] = await db('user_group_subgroups')
    .whereRaw(...anyOf('supergroup_id', ids))
    .orderBy('subgroup_id')
    .select('supergroup_id', 'subgroup_id');
  return memberListsOf(memberRows, subgroupRows);
}

export async function groupDict(db: Knex, realmId: number, group: UserGroup): Promise<UserGroupDict> {
  return (await groupDicts(db, realmId, [group]))[0];
}
