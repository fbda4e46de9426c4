import type { AppDeps } from '../deps';
import { isRowId } from '../../db/ids';
import { errors } from '../../errors';
import { User } from '../users/model';
import { userStatusOf, UserStatusDict } from './store';

/**
 * GET /users/{user_id}/status: anyone may read an active human account's status (Zulip's
 * access_user_by_id: bots are "No such user", deactivated accounts "User is deactivated").
 */
export async function getUserStatus(deps: AppDeps, _viewer: User, userId: number): Promise<UserStatusDict> {
  const target = await statusHolder(deps, userId);
  return userStatusOf(deps.knex, target.id);
}

/** The account whose status is read or set: only active humans have one to show. */
export async function statusHolder(deps: AppDeps, userId: number): Promise<User> {
  const target = isRowId(userId) ? await User.query(deps.knex).findOne({ realm_id: deps.realmId, id: userId }) : undefined;
  if (!target || target.is_bot) throw errors.noSuchUser();
  if (!target.is_active) throw errors.badRequest('User is deactivated');
  return target;
}
