import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { activeUserIds } from '../users/access';
import type { User } from '../users/model';
import {
  accessGroupForUpdate,
  groupSetting,
  nobodyGroupId,
  requireActiveUsers,
  requireCanCreateGroups,
  requireMemberOrAdmin,
  validateGroupSettingValue,
} from './access';
import { activeDirectMemberIds, directSubgroupIds, subgroupClosureIds } from './membership';
import { UserGroup } from './model';
import { allRealmGroupSettings } from './realm-settings';
import {
  GROUP_PERMISSION_SETTING_NAMES,
  GROUP_PERMISSION_SETTINGS,
  GroupPermissionSetting,
  GroupSettingChange,
  GroupSettingValue,
  isAnonymous,
  normalizeGroupSettingValue,
  sameGroupSettingValue,
} from './setting-values';
import { systemGroupId, SystemGroupName } from './system-groups';
import { groupUsageSources, valueUsesGroup } from './usage';
import { apiGroupSettingValue, groupDict, groupDicts } from './view';
import { anyOf } from '../../db/lists';

/** The only code that changes user groups. Every change tells all active users. */

export const MAX_GROUP_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ['@', 'role:', 'user:', 'stream:', 'channel:'];

export function checkGroupName(name: string): string {
  if (name.trim() === '') throw errors.badRequest("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) {
    throw errors.badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  }
  const prefix = INVALID_NAME_PREFIXES.find((p) => name.startsWith(p));
  if (prefix) throw errors.badRequest(`User group name cannot start with '${prefix}'.`);
  return name;
}

const nameTaken = (name: string) => errors.badRequest(`User group '${name}' already exists.`);

async function requireFreeName(trx: Knex, realmId: number, name: string, exceptId?: number): Promise<void> {
  const query = UserGroup.query(trx).where({ realm_id: realmId, name });
  if (exceptId !== undefined) query.whereNot('id', exceptId);
  if (await query.first()) throw nameTaken(name);
}

async function emitToAll(uow: UnitOfWork, realmId: number, event: Record<string, unknown> & { type: string }): Promise<void> {
  uow.emit(event, await activeUserIds(uow.trx, realmId));
}

export interface NewGroup {
  name: string;
  description: string;
  members: number[];
  subgroups?: number[];
  settings?: Partial<Record<GroupPermissionSetting, GroupSettingValue>>;
}

export async function createGroup(deps: AppDeps, actor: User, input: NewGroup): Promise<number> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    const trx = uow.trx;
    await requireCanCreateGroups(trx, deps.realmId, actor);
    const members = [...new Set(input.members)];
    await requireActiveUsers(trx, deps.realmId, members);
    const name = checkGroupName(input.name);
    const settings: Record<string, GroupSettingValue> = {};
    for (const setting of GROUP_PERMISSION_SETTING_NAMES) {
      const requested = input.settings?.[setting];
      settings[setting] =
        requested !== undefined
          ? await validateGroupSettingValue(trx, deps.realmId, requested, setting, GROUP_PERMISSION_SETTINGS[setting])
          : await defaultSettingValue(trx, deps.realmId, setting, actor);
    }
    await requireFreeName(trx, deps.realmId, name);
    let group: UserGroup;
    try {
      group = await UserGroup.query(trx).insertAndFetch({
        realm_id: deps.realmId,
        name,
        description: input.description,
        is_system_group: false,
        deactivated: false,
        creator_id: actor.id,
        date_created: new Date(),
        settings,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
    if (members.length > 0) await trx('user_group_members').insert(members.map((user_id) => ({ group_id: group.id, user_id })));
    await emitToAll(uow, deps.realmId, { type: 'user_group', op: 'add', group: await groupDict(trx, deps.realmId, group) });
    const subgroups = [...new Set(input.subgroups ?? [])];
    if (subgroups.length > 0) {
      await requireUsableSubgroups(trx, deps.realmId, subgroups);
      await addSubgroupRows(uow, deps.realmId, group.id, subgroups);
    }
    return group.id;
  });
}

async function defaultSettingValue(trx: Knex, realmId: number, setting: GroupPermissionSetting, creator: User): Promise<GroupSettingValue> {
  const name = GROUP_PERMISSION_SETTINGS[setting].defaultValue;
  if (name === 'group_creator') return { direct_members: [creator.id], direct_subgroups: [] };
  return systemGroupId(trx, realmId, name as SystemGroupName);
}

export interface GroupChanges {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings?: Partial<Record<GroupPermissionSetting, GroupSettingChange>>;
}

export async function updateGroup(deps: AppDeps, actor: User, groupId: number, changes: GroupChanges): Promise<void> {
  requireMemberOrAdmin(actor);
  const settingChanges = Object.entries(changes.settings ?? {}).filter(([, change]) => change !== undefined) as [GroupPermissionSetting, GroupSettingChange][];
  if (changes.name === undefined && changes.description === undefined && changes.deactivated === undefined && settingChanges.length === 0) {
    throw errors.badRequest('No new data supplied');
  }
  await inTransaction(deps, deps.realmId, async (uow) => {
    const trx = uow.trx;
    const group = await accessGroupForUpdate(trx, deps.realmId, actor, groupId, 'can_manage_group', { allowDeactivated: true });
    if (changes.name !== undefined && changes.name !== group.name) {
      const name = checkGroupName(changes.name);
      await requireFreeName(trx, deps.realmId, name, group.id);
      try {
        await UserGroup.query(trx).patch({ name }).where('id', group.id);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken(name);
        throw error;
      }
      group.name = name;
      await emitToAll(uow, deps.realmId, { type: 'user_group', op: 'update', group_id: group.id, data: { name }, deactivated: group.deactivated });
    }
    if (changes.description !== undefined && changes.description !== group.description) {
      await UserGroup.query(trx).patch({ description: changes.description }).where('id', group.id);
      group.description = changes.description;
      await emitToAll(uow, deps.realmId, { type: 'user_group', op: 'update', group_id: group.id, data: { description: changes.description } });
    }
    if (changes.deactivated === false && group.deactivated) {
      await UserGroup.query(trx).patch({ deactivated: false }).where('id', group.id);
      group.deactivated = false;
      // The full group lets older clients, which dropped it on deactivation, add it back.
      await emitToAll(uow, deps.realmId, {
        type: 'user_group',
        op: 'update',
        group_id: group.id,
        data: { deactivated: false },
        group: await groupDict(trx, deps.realmId, group),
      });
    }
    if (settingChanges.length > 0) await changeSettings(uow, deps.realmId, group, settingChanges);
  });
}

async function changeSettings(uow: UnitOfWork, realmId: number, group: UserGroup, changes: [GroupPermissionSetting, GroupSettingChange][]): Promise<void> {
  const trx = uow.trx;
  const nobody = await nobodyGroupId(trx, realmId);
  const active = new Set<number>(await activeUserIds(trx, realmId));
  const settings = { ...group.settings };
  for (const [setting, change] of changes) {
    const requested = normalizeGroupSettingValue(change.new, nobody);
    const current = apiGroupSettingValue(groupSetting(group, setting, nobody), active);
    // Refusing a change made against a stale view keeps two editors from overwriting each other.
    if (change.old !== undefined && !sameGroupSettingValue(normalizeGroupSettingValue(change.old, nobody), current)) {
      throw new ApiError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.", 400);
    }
    if (sameGroupSettingValue(current, requested)) continue;
    const value = await validateGroupSettingValue(trx, realmId, requested, setting, GROUP_PERMISSION_SETTINGS[setting]);
    settings[setting] = value;
    await UserGroup.query(trx).patch({ settings }).where('id', group.id);
    group.settings = settings;
    await emitToAll(uow, realmId, {
      type: 'user_group',
      op: 'update',
      group_id: group.id,
      data: { [setting]: apiGroupSettingValue(value, active) },
    });
  }
}

export async function deactivateGroup(deps: AppDeps, actor: User, groupId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const trx = uow.trx;
    const group = await accessGroupForUpdate(trx, deps.realmId, actor, groupId, 'can_manage_group', { allowDeactivated: false });
    const objections = await groupObjections(trx, deps.realmId, group.id);
    if (objections.length > 0) {
      throw new ApiError('CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.', 400, { objections });
    }
    await UserGroup.query(trx).patch({ deactivated: true }).where('id', group.id);
    await emitToAll(uow, deps.realmId, { type: 'user_group', op: 'update', group_id: group.id, data: { deactivated: true } });
  });
}

/** Where a group is still in use: as a subgroup of an active group, or in a setting. */
async function groupObjections(trx: Knex, realmId: number, groupId: number): Promise<Record<string, unknown>[]> {
  const objections: Record<string, unknown>[] = [];
  const supergroupIds: number[] = await trx('user_group_subgroups as s')
    .join('user_groups as g', 'g.id', 's.supergroup_id')
    .where({ 's.subgroup_id': groupId, 'g.deactivated': false })
    .orderBy('s.supergroup_id')
    .pluck('s.supergroup_id');
  if (supergroupIds.length > 0) objections.push({ type: 'subgroup', supergroup_ids: supergroupIds });
  for (const source of groupUsageSources()) objections.push(...(await source.objections(trx, realmId, groupId)));
  const nobody = await nobodyGroupId(trx, realmId);
  const groups = await UserGroup.query(trx).where({ realm_id: realmId, deactivated: false }).orderBy('id');
  for (const other of groups) {
    const settings = GROUP_PERMISSION_SETTING_NAMES.filter((s) => valueUsesGroup(groupSetting(other, s, nobody), groupId));
    if (settings.length > 0) objections.push({ type: 'user_group', group_id: other.id, settings });
  }
  const realmSettings = Object.entries(await allRealmGroupSettings(trx, realmId))
    .filter(([, value]) => valueUsesGroup(value, groupId))
    .map(([name]) => name);
  // Organization settings stored elsewhere are reported by their sources: one objection lists them all.
  const fromSources = objections.filter((o) => o.type === 'realm');
  for (const o of fromSources) realmSettings.push(...(o.settings as string[]));
  const others = objections.filter((o) => o.type !== 'realm');
  if (realmSettings.length > 0) others.push({ type: 'realm', settings: realmSettings.sort() });
  return others;
}

export interface MembershipChanges {
  add?: number[];
  delete?: number[];
  addSubgroups?: number[];
  deleteSubgroups?: number[];
}

/** POST /user_groups/{id}/members: users, and since feature level 311 subgroups too. */
export async function updateMembers(deps: AppDeps, actor: User, groupId: number, changes: MembershipChanges): Promise<void> {
  requireMemberOrAdmin(actor);
  const nonEmpty = (list?: number[]) => (list && list.length > 0 ? list : undefined);
  const add = nonEmpty(changes.add);
  const remove = nonEmpty(changes.delete);
  const addSubgroups = nonEmpty(changes.addSubgroups);
  const deleteSubgroups = nonEmpty(changes.deleteSubgroups);
  if (!add && !remove && !addSubgroups && !deleteSubgroups) {
    throw errors.badRequest('Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
  }
  await inTransaction(deps, deps.realmId, async (uow) => {
    if (add) await addMembers(uow, deps.realmId, actor, groupId, add);
    if (remove) await removeMembers(uow, deps.realmId, actor, groupId, remove);
    if (addSubgroups) await addSubgroupsTo(uow, deps.realmId, actor, groupId, addSubgroups);
    if (deleteSubgroups) await removeSubgroupsFrom(uow, deps.realmId, actor, groupId, deleteSubgroups);
  });
}

/** Joining yourself needs can_join_group, or failing that the right to add anyone. */
async function accessForSelfOr(
  trx: Knex,
  realmId: number,
  actor: User,
  groupId: number,
  userIds: number[],
  selfPermission: GroupPermissionSetting,
  otherPermission: GroupPermissionSetting,
): Promise<UserGroup> {
  if (userIds.length === 1 && userIds[0] === actor.id) {
    try {
      return await accessGroupForUpdate(trx, realmId, actor, groupId, selfPermission, { allowDeactivated: true });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
    }
  }
  return accessGroupForUpdate(trx, realmId, actor, groupId, otherPermission, { allowDeactivated: true });
}

async function addMembers(uow: UnitOfWork, realmId: number, actor: User, groupId: number, requested: number[]): Promise<void> {
  const trx = uow.trx;
  const group = await accessForSelfOr(trx, realmId, actor, groupId, requested, 'can_join_group', 'can_add_members_group');
  const userIds = [...new Set(requested)];
  await requireActiveUsers(trx, realmId, userIds);
  const existing = new Set<number>(
    await trx('user_group_members')
      .where('group_id', group.id)
      .whereRaw(...anyOf('user_id', userIds))
      .pluck('user_id'),
  );
  const already = userIds.find((id) => existing.has(id));
  if (already !== undefined) throw errors.badRequest(`User ${already} is already a member of this group`);
  await trx('user_group_members').insert(userIds.map((user_id) => ({ group_id: group.id, user_id })));
  await emitToAll(uow, realmId, { type: 'user_group', op: 'add_members', group_id: group.id, user_ids: userIds });
}

/**
 * Adds a just-created account to groups chosen for it by someone allowed to (an accepted
 * invitation). Groups deactivated since are skipped; each addition is announced as usual.
 */
export async function addNewAccountToGroups(uow: UnitOfWork, realmId: number, userId: number, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  const groups = await UserGroup.query(uow.trx)
    .where({ realm_id: realmId, deactivated: false, is_system_group: false })
    .whereRaw(...anyOf('id', groupIds))
    .orderBy('id')
    .select('id');
  for (const { id: groupId } of groups) {
    await uow.trx('user_group_members').insert({ group_id: groupId, user_id: userId }).onConflict(['group_id', 'user_id']).ignore();
    await emitToAll(uow, realmId, { type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [userId] });
  }
}

async function removeMembers(uow: UnitOfWork, realmId: number, actor: User, groupId: number, requested: number[]): Promise<void> {
  const trx = uow.trx;
  const userIds = [...new Set(requested)];
  await requireActiveUsers(trx, realmId, userIds);
  const group = await accessForSelfOr(trx, realmId, actor, groupId, requested, 'can_leave_group', 'can_remove_members_group');
  const members = new Set(await activeDirectMemberIds(trx, group.id));
  const missing = requested.find((id) => !members.has(id));
  if (missing !== undefined) throw errors.badRequest(`There is no member '${missing}' in this user group`);
  await trx('user_group_members')
    .where('group_id', group.id)
    .whereRaw(...anyOf('user_id', userIds))
    .delete();
  await emitToAll(uow, realmId, { type: 'user_group', op: 'remove_members', group_id: group.id, user_ids: userIds });
}

/** Every id must be an active group of this organization to become (or stop being) a subgroup. */
async function requireUsableSubgroups(trx: Knex, realmId: number, subgroupIds: number[]): Promise<void> {
  const groups = await UserGroup.query(trx)
    .where('realm_id', realmId)
    .whereRaw(...anyOf('id', subgroupIds));
  const found = new Set(groups.map((g) => g.id));
  const missing = subgroupIds.find((id) => !found.has(id));
  if (missing !== undefined) throw errors.badRequest(`Invalid user group ID: ${missing}`);
  if (groups.some((g) => g.deactivated)) throw errors.badRequest('User group is deactivated.');
}

async function addSubgroupRows(uow: UnitOfWork, realmId: number, groupId: number, subgroupIds: number[]): Promise<void> {
  await uow.trx('user_group_subgroups').insert(subgroupIds.map((subgroup_id) => ({ supergroup_id: groupId, subgroup_id })));
  await emitToAll(uow, realmId, { type: 'user_group', op: 'add_subgroups', group_id: groupId, direct_subgroup_ids: subgroupIds });
}

async function addSubgroupsTo(uow: UnitOfWork, realmId: number, actor: User, groupId: number, requested: number[]): Promise<void> {
  const trx = uow.trx;
  const subgroupIds = [...new Set(requested)];
  // Deactivated groups keep accepting subgroup changes (feature level 391).
  const group = await accessGroupForUpdate(trx, realmId, actor, groupId, 'can_add_members_group', { allowDeactivated: true });
  await requireUsableSubgroups(trx, realmId, subgroupIds);
  const current = new Set(await directSubgroupIds(trx, group.id));
  const already = subgroupIds.find((id) => current.has(id));
  if (already !== undefined) throw errors.badRequest(`User group ${already} is already a subgroup of this group.`);
  // A group may not contain itself, directly or through the groups being added.
  if ((await subgroupClosureIds(trx, realmId, subgroupIds)).has(group.id)) {
    throw errors.badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
  }
  await addSubgroupRows(uow, realmId, group.id, subgroupIds);
}

async function removeSubgroupsFrom(uow: UnitOfWork, realmId: number, actor: User, groupId: number, requested: number[]): Promise<void> {
  const trx = uow.trx;
  const subgroupIds = [...new Set(requested)];
  const group = await accessGroupForUpdate(trx, realmId, actor, groupId, 'can_manage_group', { allowDeactivated: true });
  await requireUsableSubgroups(trx, realmId, subgroupIds);
  const current = new Set(await directSubgroupIds(trx, group.id));
  const missing = subgroupIds.find((id) => !current.has(id));
  if (missing !== undefined) throw errors.badRequest(`User group ${missing} is not a subgroup of this group.`);
  await trx('user_group_subgroups')
    .where('supergroup_id', group.id)
    .whereRaw(...anyOf('subgroup_id', subgroupIds))
    .delete();
  await emitToAll(uow, realmId, { type: 'user_group', op: 'remove_subgroups', group_id: group.id, direct_subgroup_ids: subgroupIds });
}

/** POST /user_groups/{id}/subgroups. */
export async function updateSubgroups(deps: AppDeps, actor: User, groupId: number, changes: { add?: number[]; delete?: number[] }): Promise<void> {
  requireMemberOrAdmin(actor);
  const add = changes.add && changes.add.length > 0 ? changes.add : undefined;
  const remove = changes.delete && changes.delete.length > 0 ? changes.delete : undefined;
  if (!add && !remove) throw errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  await inTransaction(deps, deps.realmId, async (uow) => {
    if (add) await addSubgroupsTo(uow, deps.realmId, actor, groupId, add);
    if (remove) await removeSubgroupsFrom(uow, deps.realmId, actor, groupId, remove);
  });
}

/**
 * Announces the system-group moves of a role change (see syncRoleMembership): removals first, as
 * Zulip sends them.
 */
export async function emitRoleMembershipMoves(uow: UnitOfWork, userId: number, moves: { removed: number[]; added: number[] }): Promise<void> {
  if (moves.removed.length === 0 && moves.added.length === 0) return;
  const recipients = await activeUserIds(uow.trx, uow.realmId);
  const ascending = (ids: number[]) => [...ids].sort((a, b) => a - b);
  for (const groupId of ascending(moves.removed)) {
    uow.emit({ type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: [userId] }, recipients);
  }
  for (const groupId of ascending(moves.added)) {
    uow.emit({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [userId] }, recipients);
  }
}

/**
 * Permission values leave out deactivated accounts, so when an account comes back, clients get
 * again each group setting whose anonymous value names it.
 */
export async function emitSettingsNamingReactivatedUser(uow: UnitOfWork, userId: number): Promise<void> {
  const nobody = await nobodyGroupId(uow.trx, uow.realmId);
  const names = (group: UserGroup) =>
    GROUP_PERMISSION_SETTING_NAMES.filter((name) => {
      const value = groupSetting(group, name, nobody);
      return isAnonymous(value) && value.direct_members.includes(userId);
    });
  const groups = (await UserGroup.query(uow.trx).where({ realm_id: uow.realmId }).orderBy('id')).filter((group) => names(group).length > 0);
  if (groups.length === 0) return;
  const dicts = await groupDicts(uow.trx, uow.realmId, groups);
  const recipients = await activeUserIds(uow.trx, uow.realmId);
  groups.forEach((group, i) => {
    const data = Object.fromEntries(names(group).map((name) => [name, dicts[i][name]]));
    uow.emit({ type: 'user_group', op: 'update', group_id: group.id, data }, recipients);
  });
}
