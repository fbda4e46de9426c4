import type { Knex } from 'knex';
import type { GroupSettingValue } from './setting-values';
import { isAnonymous } from './setting-values';
import { anyOf, listParam } from '../../db/lists';

/**
 * Recursive membership. A group's members are its direct members plus the members of its
 * subgroups, transitively; deactivated accounts are never members. UNION (not UNION ALL) makes the
 * recursion stop even if a cycle were ever stored.
 */
const subgroupClosure = (_ids: number[]) => ({
  sql: `WITH RECURSIVE closure(id) AS (
      SELECT id FROM user_groups WHERE realm_id = ? AND id = ANY(?::int[])
      UNION
      SELECT s.subgroup_id FROM user_group_subgroups s JOIN closure c ON s.supergroup_id = c.id
    )`,
});

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** The groups and all their subgroups, transitively (including the groups themselves). */
export async function subgroupClosureIds(db: Knex, realmId: number, groupIds: number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const result = await db.raw(`${subgroupClosure(groupIds).sql} SELECT id FROM closure`, [realmId, listParam(groupIds)]);
  return new Set(rowsOf<{ id: number }>(result).map((r) => Number(r.id)));
}

/** Active users belonging to any of the groups, directly or through subgroups. */
export async function recursiveMemberIds(db: Knex, realmId: number, groupIds: number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const result = await db.raw(
    `${subgroupClosure(groupIds).sql}
    SELECT DISTINCT m.user_id FROM user_group_members m
      JOIN closure c ON m.group_id = c.id
      JOIN users u ON u.id = m.user_id AND u.is_active`,
    [realmId, listParam(groupIds)],
  );
  return new Set(rowsOf<{ user_id: number }>(result).map((r) => Number(r.user_id)));
}

export async function isRecursiveMember(db: Knex, realmId: number, groupIds: number[], userId: number): Promise<boolean> {
  if (groupIds.length === 0) return false;
  const result = await db.raw(
    `${subgroupClosure(groupIds).sql}
    SELECT 1 AS hit FROM user_group_members m
      JOIN closure c ON m.group_id = c.id
      JOIN users u ON u.id = m.user_id AND u.is_active
      WHERE m.user_id = ? LIMIT 1`,
    [realmId, listParam(groupIds), userId],
  );
  return rowsOf(result).length > 0;
}

/** Direct members that are active accounts, ascending. */
export async function activeDirectMemberIds(db: Knex, groupId: number): Promise<number[]> {
  const rows = await db('user_group_members as m')
    .join('users as u', 'u.id', 'm.user_id')
    .where({ 'm.group_id': groupId, 'u.is_active': true })
    .orderBy('m.user_id')
    .select('m.user_id');
  return rows.map((r: { user_id: number }) => r.user_id);
}

export async function directSubgroupIds(db: Knex, groupId: number): Promise<number[]> {
  const rows = await db('user_group_subgroups').where({ supergroup_id: groupId }).orderBy('subgroup_id').select('subgroup_id');
  return rows.map((r: { subgroup_id: number }) => r.subgroup_id);
}

/** Everyone a group-setting value stands for: active users, recursively through subgroups. */
export async function resolveGroupSetting(db: Knex, realmId: number, value: GroupSettingValue): Promise<Set<number>> {
  if (!isAnonymous(value)) return recursiveMemberIds(db, realmId, [value]);
  const members = await recursiveMemberIds(db, realmId, value.direct_subgroups);
  if (value.direct_members.length > 0) {
    const active = await db('users')
      .where({ realm_id: realmId, is_active: true })
      .whereRaw(...anyOf('id', value.direct_members))
      .pluck('id');
    for (const id of active) members.add(id);
  }
  return members;
}

/** Whether one user is among those a group-setting value stands for. */
export async function isInGroupSetting(db: Knex, realmId: number, value: GroupSettingValue, userId: number): Promise<boolean> {
  if (!isAnonymous(value)) return isRecursiveMember(db, realmId, [value], userId);
  if (value.direct_members.includes(userId)) {
    const user = await db('users').where({ id: userId, realm_id: realmId, is_active: true }).first('id');
    if (user) return true;
  }
  return isRecursiveMember(db, realmId, value.direct_subgroups, userId);
}
