import type { Knex } from 'knex';
import { errors } from '../../errors';
import type { UnitOfWork } from '../../db/unit-of-work';
import { activeUserIds } from '../users/access';
import type { User } from '../users/model';
import { isOwnerRole } from '../users/roles';

interface GroupRow {
  id: number;
  is_system_group: boolean;
  deactivated: boolean;
  settings: Record<string, unknown>;
}

/** A group-setting value is a group id, or {direct_members, direct_subgroups}. */
type GroupSettingValue = number | { direct_members?: number[]; direct_subgroups?: number[] };

/** Whether the user belongs to the group, directly or through its subgroups. */
async function isRecursiveMember(db: Knex, groupIds: number[], userId: number): Promise<boolean> {
  if (groupIds.length === 0) return false;
  const result = await db.raw(
    `WITH RECURSIVE tree(id) AS (
       SELECT unnest(?::int[])
       UNION SELECT s.subgroup_id FROM user_group_subgroups s JOIN tree ON s.supergroup_id = tree.id
     )
     SELECT 1 FROM user_group_members m JOIN tree ON m.group_id = tree.id WHERE m.user_id = ? LIMIT 1`,
    [groupIds, userId],
  );
  return result.rows.length > 0;
}

async function inSetting(db: Knex, value: unknown, userId: number): Promise<boolean> {
  if (typeof value === 'number') return isRecursiveMember(db, [value], userId);
  if (typeof value !== 'object' || value === null) return false;
  const { direct_members = [], direct_subgroups = [] } = value as Exclude<GroupSettingValue, number>;
  return direct_members.includes(userId) || isRecursiveMember(db, direct_subgroups, userId);
}

/**
 * Groups an inviter may add the new user to: active, not a system group, and one the inviter may
 * manage or add members to (owners may manage every group). Errors are Zulip's, group by group.
 */
export async function resolveInviteGroups(db: Knex, realmId: number, actor: User, ids: number[] | null): Promise<number[]> {
  if (!ids || ids.length === 0) return [];
  for (const id of ids) {
    const group = (await db('user_groups').where({ id, realm_id: realmId }).first()) as GroupRow | undefined;
    if (!group) throw errors.badRequest('Invalid user group');
    if (group.deactivated) throw errors.badRequest('User group is deactivated.');
    if (group.is_system_group) throw errors.insufficientPermission();
    if (isOwnerRole(actor.role)) continue;
    const settings = group.settings ?? {};
    if (await inSetting(db, settings.can_manage_group, actor.id)) continue;
    if (await inSetting(db, settings.can_add_members_group, actor.id)) continue;
    throw errors.insufficientPermission();
  }
  return [...new Set(ids)];
}

/** Adds a user who accepted an invitation to the invitation's groups that are still active. */
export async function addInvitedUserToGroups(uow: UnitOfWork, user: User, groupIds: number[]): Promise<void> {
  if (groupIds.length === 0) return;
  const groups: number[] = await uow.trx('user_groups')
    .where({ realm_id: uow.realmId, deactivated: false, is_system_group: false })
    .whereIn('id', groupIds)
    .pluck('id');
  if (groups.length === 0) return;
  await uow.trx('user_group_members').insert(groups.map((group_id) => ({ group_id, user_id: user.id }))).onConflict().ignore();
  const recipients = await activeUserIds(uow.trx, uow.realmId);
  for (const groupId of groups.sort((a, b) => a - b)) {
    uow.emit({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: [user.id] }, recipients);
  }
}
