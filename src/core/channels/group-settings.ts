import type { Knex } from 'knex';
import { errors } from '../../errors';
import type { AnonymousGroupValue, GroupSettingValue } from '../groups/setting-values';
import { SYSTEM_GROUPS, SystemGroupName } from '../groups/system-groups';
import { isGuestRole } from '../users/roles';
import { CHANNEL_PERMISSION_SETTINGS, ChannelPermissionSetting } from './constants';
import { anyOf, listParam } from '../../db/lists';
import { isRowId } from '../../db/ids';

/**
 * Group-setting values (defined by the groups feature) as channel permissions use them: who holds
 * a permission. Membership is recursive: a member of a subgroup is a member.
 */
export type { AnonymousGroupValue, GroupSettingValue };

export type SystemGroupIds = Record<SystemGroupName, number>;

const systemGroupCache = new WeakMap<Knex, Map<number, SystemGroupIds>>();

/**
 * The system groups' ids, read once per database and organization: they are created with the
 * organization and never change. `knex` is the database handle (not a transaction), the cache key.
 */
export async function cachedSystemGroupIds(knex: Knex, db: Knex, realmId: number): Promise<SystemGroupIds> {
  let byRealm = systemGroupCache.get(knex);
  if (!byRealm) systemGroupCache.set(knex, (byRealm = new Map()));
  let ids = byRealm.get(realmId);
  if (!ids) byRealm.set(realmId, (ids = await loadSystemGroupIds(db, realmId)));
  return ids;
}

export async function loadSystemGroupIds(db: Knex, realmId: number): Promise<SystemGroupIds> {
  const rows: { id: number; name: string }[] = await db('user_groups').where({ realm_id: realmId, is_system_group: true }).select('id', 'name');
  const out = {} as SystemGroupIds;
  for (const group of SYSTEM_GROUPS) {
    const row = rows.find((r) => r.name === group.name);
    if (!row) throw new Error(`system group ${group.name} missing`);
    out[group.name] = row.id;
  }
  return out;
}

/** Every group the user belongs to, directly or through subgroups. */
export async function recursiveGroupIdsOf(db: Knex, userId: number): Promise<Set<number>> {
  const result = await db.raw(
    `WITH RECURSIVE g(id) AS (
       SELECT group_id FROM user_group_members WHERE user_id = ?
       UNION
       SELECT s.supergroup_id FROM user_group_subgroups s JOIN g ON s.subgroup_id = g.id
     ) SELECT id FROM g`,
    [userId],
  );
  return new Set((result.rows as { id: number }[]).map((r) => Number(r.id)));
}

/** Active users holding a group-setting value (guests excluded when the setting refuses them). */
export async function usersWithGroupSetting(db: Knex, realmId: number, value: GroupSettingValue, options: { excludeGuests: boolean }): Promise<Set<number>> {
  const groups = typeof value === 'number' ? [value] : value.direct_subgroups;
  const members = new Set<number>();
  if (groups.length > 0) {
    const result = await db.raw(
      `WITH RECURSIVE sub(id) AS (
         SELECT id FROM user_groups WHERE id = ANY(?::int[])
         UNION
         SELECT s.subgroup_id FROM user_group_subgroups s JOIN sub ON s.supergroup_id = sub.id
       )
       SELECT DISTINCT m.user_id FROM user_group_members m
       JOIN sub ON m.group_id = sub.id
       JOIN users u ON u.id = m.user_id
       WHERE u.is_active AND u.realm_id = ?`,
      [listParam(groups), realmId],
    );
    for (const row of result.rows as { user_id: number }[]) members.add(Number(row.user_id));
  }
  if (typeof value !== 'number' && value.direct_members.length > 0) {
    const rows: { id: number }[] = await db('users')
      .where({ realm_id: realmId, is_active: true })
      .whereRaw(...anyOf('id', value.direct_members))
      .select('id');
    for (const row of rows) members.add(row.id);
  }
  if (options.excludeGuests && members.size > 0) {
    const guests: { id: number }[] = await db('users')
      .whereRaw(...anyOf('id', [...members]))
      .where('role', 600)
      .select('id');
    for (const g of guests) members.delete(g.id);
  }
  return members;
}

/** Whether a user with these recursive groups holds the value (guests never hold guest-free settings). */
export function holdsGroupSetting(
  user: { id: number; role: number },
  groupIds: Set<number>,
  value: GroupSettingValue,
  setting?: ChannelPermissionSetting,
): boolean {
  if (setting && !CHANNEL_PERMISSION_SETTINGS[setting].allowEveryone && isGuestRole(user.role)) return false;
  if (typeof value === 'number') return groupIds.has(value);
  return value.direct_members.includes(user.id) || value.direct_subgroups.some((g) => groupIds.has(g));
}

/** A lone subgroup is the group itself; an empty collection is role:nobody. */
export function normalizeGroupSettingValue(value: GroupSettingValue, nobodyId: number): GroupSettingValue {
  if (typeof value === 'number') return value;
  const members = [...new Set(value.direct_members)];
  const subgroups = [...new Set(value.direct_subgroups)];
  if (members.length === 0 && subgroups.length === 1) return subgroups[0];
  if (members.length === 0 && subgroups.length === 0) return nobodyId;
  return { direct_members: members, direct_subgroups: subgroups };
}

export function sameGroupSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const sameSet = (x: number[], y: number[]) => {
    const xs = new Set(x);
    const ys = new Set(y);
    return xs.size === ys.size && [...xs].every((id) => ys.has(id));
  };
  return sameSet(a.direct_members, b.direct_members) && sameSet(a.direct_subgroups, b.direct_subgroups);
}

/**
 * Checks a requested value against the realm's groups and users and the setting's rules; returns
 * it normalized. Errors use Zulip's messages.
 */
export async function checkGroupSettingValue(
  db: Knex,
  realmId: number,
  setting: ChannelPermissionSetting,
  requested: GroupSettingValue,
  systemGroups: SystemGroupIds,
): Promise<GroupSettingValue> {
  const value = normalizeGroupSettingValue(requested, systemGroups['role:nobody']);
  if (typeof value === 'number') {
    const group = isRowId(value)
      ? await db('user_groups').where({ realm_id: realmId, id: value }).first('id', 'name', 'is_system_group', 'deactivated')
      : undefined;
    if (!group) throw errors.badRequest('Invalid user group');
    if (group.deactivated) throw errors.badRequest('User group is deactivated.');
    if (group.is_system_group) {
      if (group.name === 'role:internet') throw errors.badRequest(`'${setting}' setting cannot be set to 'role:internet' group.`);
      if (group.name === 'role:everyone' && !CHANNEL_PERMISSION_SETTINGS[setting].allowEveryone) {
        throw errors.badRequest(`'${setting}' setting cannot be set to 'role:everyone' group.`);
      }
    }
    return value;
  }
  if (value.direct_members.length > 0) {
    const found: { id: number; is_active: boolean }[] = await db('users')
      .where('realm_id', realmId)
      .whereRaw(...anyOf('id', value.direct_members))
      .select('id', 'is_active');
    for (const id of value.direct_members) {
      const user = found.find((u) => u.id === id);
      if (!user || !user.is_active) throw errors.badRequest(`Invalid user ID: ${id}`);
    }
  }
  if (value.direct_subgroups.length > 0) {
    const found: { id: number; deactivated: boolean }[] = await db('user_groups')
      .where('realm_id', realmId)
      .whereRaw(...anyOf('id', value.direct_subgroups))
      .select('id', 'deactivated');
    for (const id of value.direct_subgroups) {
      const group = found.find((g) => g.id === id);
      if (!group) throw errors.badRequest(`Invalid user group ID: ${id}`);
      if (group.deactivated) throw errors.badRequest('User group is deactivated.');
    }
  }
  return value;
}

/** The value as clients see it: deactivated users are left out of direct_members. */
export function groupSettingForApi(value: GroupSettingValue, activeUserIds: Set<number>): GroupSettingValue {
  if (typeof value === 'number') return value;
  return {
    direct_members: value.direct_members.filter((id) => activeUserIds.has(id)),
    direct_subgroups: [...value.direct_subgroups],
  };
}
