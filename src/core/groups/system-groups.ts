import type { Knex } from 'knex';
import { Role } from '../users/roles';
import { anyOf } from '../../db/lists';
import { belongsInFullMembers, lockFullMembersGroup } from './full-members';

/**
 * System groups stand for roles, so permissions can be expressed as group-setting values. Each
 * role group directly holds the users of its role and contains the next stronger group, as in
 * Zulip: owners ⊂ administrators ⊂ moderators ⊂ full members ⊂ members ⊂ everyone ⊂ internet. So
 * e.g. role:moderators = moderators + administrators + owners. role:fullmembers directly holds the
 * members (role 400) past the waiting period (see full-members.ts).
 */
export const SYSTEM_GROUPS = [
  { name: 'role:owners', description: 'Owners of this organization', role: Role.OWNER, subgroup: null },
  { name: 'role:administrators', description: 'Administrators of this organization, including owners', role: Role.ADMINISTRATOR, subgroup: 'role:owners' },
  { name: 'role:moderators', description: 'Moderators of this organization, including administrators', role: Role.MODERATOR, subgroup: 'role:administrators' },
  { name: 'role:fullmembers', description: 'Members of this organization, not including new accounts and guests', role: null, subgroup: 'role:moderators' },
  { name: 'role:members', description: 'Members of this organization, not including guests', role: Role.MEMBER, subgroup: 'role:fullmembers' },
  { name: 'role:everyone', description: 'Everyone in this organization, including guests', role: Role.GUEST, subgroup: 'role:members' },
  { name: 'role:internet', description: 'Everyone on the Internet', role: null, subgroup: 'role:everyone' },
  { name: 'role:nobody', description: 'Nobody', role: null, subgroup: null },
] as const;

export type SystemGroupName = (typeof SYSTEM_GROUPS)[number]['name'];

export async function ensureSystemGroups(db: Knex, realmId: number): Promise<void> {
  const existing = await db('user_groups').where({ realm_id: realmId, is_system_group: true }).select('name');
  if (existing.length > 0) return;
  const ids = new Map<string, number>();
  for (const group of SYSTEM_GROUPS) {
    const [row] = await db('user_groups')
      .insert({ realm_id: realmId, name: group.name, description: group.description, is_system_group: true, date_created: null })
      .returning('id');
    ids.set(group.name, typeof row === 'object' ? row.id : row);
  }
  for (const group of SYSTEM_GROUPS) {
    if (group.subgroup) {
      await db('user_group_subgroups').insert({ supergroup_id: ids.get(group.name), subgroup_id: ids.get(group.subgroup) });
    }
  }
}

export async function systemGroupId(db: Knex, realmId: number, name: SystemGroupName): Promise<number> {
  const row = await db('user_groups').where({ realm_id: realmId, name, is_system_group: true }).first('id');
  if (!row) throw new Error(`system group ${name} missing`);
  return row.id;
}

/** The system group a role's users belong to directly. */
export function roleGroupName(role: number): SystemGroupName {
  const found = SYSTEM_GROUPS.find((g) => g.role === role);
  if (!found) throw new Error(`no system group for role ${role}`);
  return found.name;
}

/**
 * Puts a user in the system group of their role (and, for members past the waiting period,
 * role:fullmembers), removing them from the others. Returns the group ids they left and joined.
 */
export async function syncRoleMembership(db: Knex, realmId: number, userId: number, role: number): Promise<{ removed: number[]; added: number[] }> {
  await lockFullMembersGroup(db, realmId);
  const groups = await db('user_groups').where({ realm_id: realmId, is_system_group: true }).select('id', 'name');
  const byName = new Map(groups.map((g: { id: number; name: string }) => [g.name, g.id]));
  const wanted = new Set<number>([byName.get(roleGroupName(role))!]);
  if (await belongsInFullMembers(db, realmId, userId, role)) wanted.add(byName.get('role:fullmembers')!);
  const systemIds = groups.map((g: { id: number }) => g.id);
  const current = new Set<number>(
    (
      await db('user_group_members')
        .where('user_id', userId)
        .whereRaw(...anyOf('group_id', systemIds))
        .select('group_id')
    ).map((r: { group_id: number }) => r.group_id),
  );
  const removed = [...current].filter((id) => !wanted.has(id));
  const added = [...wanted].filter((id) => !current.has(id));
  if (removed.length > 0)
    await db('user_group_members')
      .where('user_id', userId)
      .whereRaw(...anyOf('group_id', removed))
      .delete();
  if (added.length > 0) await db('user_group_members').insert(added.map((group_id) => ({ group_id, user_id: userId })));
  return { removed, added };
}
