import { createGroup, deactivateGroup, updateGroup, updateMembers, updateSubgroups } from '../core/groups/actions';
import { requireCanCreateGroups, requireMemberOrAdmin } from '../core/groups/access';
import { groupMemberIds, groupSubgroupIds, isGroupMember, listGroups } from '../core/groups/queries';
import { groupSettingChangeValidator, groupSettingValueValidator } from '../core/groups/setting-values';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

const settingValue = () => p.json(groupSettingValueValidator).optional();
const settingChange = () => p.json(groupSettingChangeValidator).optional();
const groupId = { user_group_id: p.path.int() };

export const userGroupRoutes: Route[] = [
  // Literal paths first: the router takes the first pattern that matches.
  {
    method: 'POST',
    path: '/user_groups/create',
    endpoint: endpoint({
      guard: ({ deps, user }) => requireCanCreateGroups(deps.knex, deps.realmId, user),
      params: {
        name: p.string(),
        description: p.string(),
        members: p.intList(),
        subgroups: p.intList().optional(),
        can_add_members_group: settingValue(),
        can_join_group: settingValue(),
        can_leave_group: settingValue(),
        can_manage_group: settingValue(),
        can_mention_group: settingValue(),
        can_remove_members_group: settingValue(),
      },
      handler: async ({ deps, user, params }) => {
        const { name, description, members, subgroups, ...settings } = params;
        return { group_id: await createGroup(deps, user, { name, description, members, subgroups, settings }) };
      },
    }),
  },
  {
    method: 'GET',
    path: '/user_groups',
    endpoint: endpoint({
      guard: ({ user }) => requireMemberOrAdmin(user),
      params: { include_deactivated_groups: p.bool().default(false).alias('allow_deactivated') },
      handler: async ({ deps, user, params }) => ({
        user_groups: await listGroups(deps, user, params.include_deactivated_groups),
      }),
    }),
  },
  {
    method: 'PATCH',
    path: '/user_groups/:user_group_id',
    endpoint: endpoint({
      guard: ({ user }) => requireMemberOrAdmin(user),
      params: {
        ...groupId,
        name: p.string().optional(),
        description: p.string().optional(),
        deactivated: p.bool().optional(),
        can_add_members_group: settingChange(),
        can_join_group: settingChange(),
        can_leave_group: settingChange(),
        can_manage_group: settingChange(),
        can_mention_group: settingChange(),
        can_remove_members_group: settingChange(),
      },
      handler: async ({ deps, user, params }) => {
        const { user_group_id, name, description, deactivated, ...settings } = params;
        await updateGroup(deps, user, user_group_id, { name, description, deactivated, settings });
      },
    }),
  },
  {
    method: 'POST',
    path: '/user_groups/:user_group_id/deactivate',
    endpoint: endpoint({
      params: groupId,
      handler: async ({ deps, user, params }) => {
        await deactivateGroup(deps, user, params.user_group_id);
      },
    }),
  },
  {
    method: 'POST',
    path: '/user_groups/:user_group_id/members',
    endpoint: endpoint({
      guard: ({ user }) => requireMemberOrAdmin(user),
      params: {
        ...groupId,
        add: p.intList().optional(),
        delete: p.intList().optional(),
        add_subgroups: p.intList().optional(),
        delete_subgroups: p.intList().optional(),
      },
      handler: async ({ deps, user, params }) => {
        await updateMembers(deps, user, params.user_group_id, {
          add: params.add,
          delete: params.delete,
          addSubgroups: params.add_subgroups,
          deleteSubgroups: params.delete_subgroups,
        });
      },
    }),
  },
  {
    method: 'GET',
    path: '/user_groups/:user_group_id/members',
    endpoint: endpoint({
      guard: ({ user }) => requireMemberOrAdmin(user),
      params: { ...groupId, direct_member_only: p.bool().default(false) },
      handler: async ({ deps, user, params }) => ({
        members: await groupMemberIds(deps, user, params.user_group_id, params.direct_member_only),
      }),
    }),
  },
  {
    method: 'GET',
    path: '/user_groups/:user_group_id/members/:user_id',
    endpoint: endpoint({
      guard: ({ user }) => requireMemberOrAdmin(user),
      params: { ...groupId, user_id: p.path.int(), direct_member_only: p.bool().default(false) },
      handler: async ({ deps, user, params }) => ({
        is_user_group_member: await isGroupMember(deps, user, params.user_group_id, params.user_id, params.direct_member_only),
      }),
    }),
  },
  {
    method: 'POST',
    path: '/user_groups/:user_group_id/subgroups',
    endpoint: endpoint({
      guard: ({ user }) => requireMemberOrAdmin(user),
      params: { ...groupId, add: p.intList().optional(), delete: p.intList().optional() },
      handler: async ({ deps, user, params }) => {
        await updateSubgroups(deps, user, params.user_group_id, { add: params.add, delete: params.delete });
      },
    }),
  },
  {
    method: 'GET',
    path: '/user_groups/:user_group_id/subgroups',
    endpoint: endpoint({
      guard: ({ user }) => requireMemberOrAdmin(user),
      params: { ...groupId, direct_subgroup_only: p.bool().default(false) },
      handler: async ({ deps, user, params }) => ({
        subgroups: await groupSubgroupIds(deps, user, params.user_group_id, params.direct_subgroup_only),
      }),
    }),
  },
];
