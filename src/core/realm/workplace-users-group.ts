import type { Knex } from 'knex';
import { errors } from '../../errors';
import { anyOf } from '../../db/lists';
import { membershipManagedByAdminsOnly } from '../groups/admin-managed';
import { subgroupClosureIds } from '../groups/membership';
import { GroupSettingValue, isAnonymous } from '../groups/setting-values';
import type { SystemGroupName } from '../groups/system-groups';

/**
 * Zulip's rule for workplace_users_group (feature level 477): who counts as a workplace user sets
 * the bill, so only administrators may be able to change who is in it. System groups qualify (their
 * members change only with roles); any other group reached, with all its subgroups, must have a
 * membership only administrators can manage. Direct members of an anonymous value change only
 * through this setting, so they do not matter.
 */
export async function checkWorkplaceUsersGroup(
  db: Knex,
  realmId: number,
  value: GroupSettingValue,
  systemGroups: Record<SystemGroupName, number>,
): Promise<void> {
  const candidates = isAnonymous(value) ? value.direct_subgroups : [value];
  if (candidates.length === 0) return;
  const roots: number[] = await db('user_groups')
    .where({ realm_id: realmId, is_system_group: false })
    .whereRaw(...anyOf('id', candidates))
    .pluck('id');
  if (roots.length === 0) return;
  const groups = await subgroupClosureIds(db, realmId, roots);
  if (!(await membershipManagedByAdminsOnly(db, realmId, [...groups], systemGroups))) {
    throw errors.badRequest("'workplace_users_group' must be a group whose membership can only be managed by organization administrators.");
  }
}
