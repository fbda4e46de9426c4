import type { Knex } from 'knex';
import type { UnitOfWork } from '../../db/unit-of-work';
import { accessGroupForUpdate } from '../groups/access';
import { addNewAccountToGroups } from '../groups/actions';
import type { User } from '../users/model';

/**
 * Where invitations meet user groups; the groups feature decides access and adds the members.
 * An inviter may name groups they may add members to (or manage), with the groups feature's
 * errors, group by group, as Zulip checks them.
 */
export async function resolveInviteGroups(db: Knex, realmId: number, actor: User, ids: number[] | null): Promise<number[]> {
  if (!ids || ids.length === 0) return [];
  for (const id of ids) await accessGroupForUpdate(db, realmId, actor, id, 'can_add_members_group', { allowDeactivated: false });
  return [...new Set(ids)];
}

/** Adds a user who accepted an invitation to the invitation's groups that are still active. */
export async function addInvitedUserToGroups(uow: UnitOfWork, user: User, groupIds: number[]): Promise<void> {
  await addNewAccountToGroups(uow, uow.realmId, user.id, groupIds);
}
