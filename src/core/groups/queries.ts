import type { AppDeps } from '../deps';
import { accessActiveAccount } from '../users/access';
import type { User } from '../users/model';
import { findGroup, requireMemberOrAdmin } from './access';
import { activeDirectMemberIds, directSubgroupIds, isRecursiveMember, recursiveMemberIds, subgroupClosureIds } from './membership';
import { UserGroup } from './model';
import { groupDicts, UserGroupDict } from './view';

/** Read side of user groups. Guests and bots cannot read groups, as in Zulip. */
export async function listGroups(deps: AppDeps, viewer: User, includeDeactivated: boolean): Promise<UserGroupDict[]> {
  requireMemberOrAdmin(viewer);
  return listGroupDicts(deps, includeDeactivated);
}

/** Without a permission check: the register snapshot and event payloads use it too. */
export async function listGroupDicts(deps: AppDeps, includeDeactivated: boolean): Promise<UserGroupDict[]> {
  const query = UserGroup.query(deps.knex).where('realm_id', deps.realmId).orderBy('id');
  if (!includeDeactivated) query.where('deactivated', false);
  return groupDicts(deps.knex, deps.realmId, await query, deps);
}

export async function groupMemberIds(deps: AppDeps, viewer: User, groupId: number, directOnly: boolean): Promise<number[]> {
  requireMemberOrAdmin(viewer);
  const group = await findGroup(deps.knex, deps.realmId, groupId, { allowDeactivated: false });
  if (directOnly) return activeDirectMemberIds(deps.knex, group.id);
  return [...(await recursiveMemberIds(deps.knex, deps.realmId, [group.id]))].sort((a, b) => a - b);
}

export async function groupSubgroupIds(deps: AppDeps, viewer: User, groupId: number, directOnly: boolean): Promise<number[]> {
  requireMemberOrAdmin(viewer);
  const group = await findGroup(deps.knex, deps.realmId, groupId, { allowDeactivated: false });
  if (directOnly) return directSubgroupIds(deps.knex, group.id);
  const closure = await subgroupClosureIds(deps.knex, deps.realmId, await directSubgroupIds(deps.knex, group.id));
  return [...closure].sort((a, b) => a - b);
}

export async function isGroupMember(deps: AppDeps, viewer: User, groupId: number, userId: number, directOnly: boolean): Promise<boolean> {
  requireMemberOrAdmin(viewer);
  const group = await findGroup(deps.knex, deps.realmId, groupId, { allowDeactivated: false });
  const target = await accessActiveAccount(deps.knex, deps.realmId, userId);
  if (directOnly) return (await activeDirectMemberIds(deps.knex, group.id)).includes(target.id);
  return isRecursiveMember(deps.knex, deps.realmId, [group.id], target.id);
}

/** One group as a member of the organization sees it (deactivated ones included). */
export async function getGroup(deps: AppDeps, viewer: User, groupId: number): Promise<UserGroupDict> {
  requireMemberOrAdmin(viewer);
  const group = await findGroup(deps.knex, deps.realmId, groupId, { allowDeactivated: true });
  return (await groupDicts(deps.knex, deps.realmId, [group], deps))[0];
}
