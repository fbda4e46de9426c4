import type { Knex } from 'knex';
import { isRowId } from '../../db/ids';
import { errors } from '../../errors';
import { User } from './model';
import { isAdminRole, isOwnerRole } from './roles';

/** Named permission checks for user management. */
export function requireAdmin(actor: User): void {
  if (!isAdminRole(actor.role)) throw errors.mustBeAdmin();
}

export function requireCanCreateUsers(actor: User): void {
  requireAdmin(actor);
  if (!actor.can_create_users) {
    throw errors.badRequest('User not authorized to create users');
  }
}

/** Changing another account is for administrators (the operator, actor null, may do anything). */
export function requireCanAdminUser(actor: User | null): void {
  if (actor && !isAdminRole(actor.role)) throw errors.insufficientPermission();
}

/** Granting or taking away ownership, and deactivating an owner, are for owners. */
export function requireOwnerFor(actor: User | null): void {
  if (actor && !isOwnerRole(actor.role)) throw errors.mustBeOwner();
}

/** Any user of the realm, active or not, or "No such user". */
export async function findUser(db: Knex, realmId: number, userId: number): Promise<User> {
  const user = isRowId(userId) ? await User.query(db).findOne({ realm_id: realmId, id: userId }) : undefined;
  if (!user) throw errors.noSuchUser();
  return user;
}

/**
 * An active account of the organization, person or bot, whose subscriptions and group memberships
 * another user asks about (Zulip's access_user_by_id with allow_bots; its system bots belong to no
 * organization). "No such user" or "User is deactivated" otherwise.
 */
export async function accessActiveAccount(db: Knex, realmId: number, userId: number): Promise<User> {
  const user = await findUser(db, realmId, userId);
  if (user.is_system_bot) throw errors.noSuchUser();
  if (!user.is_active) throw errors.badRequest('User is deactivated');
  return user;
}

export async function activeUserIds(db: Knex, realmId: number): Promise<number[]> {
  const rows = await User.query(db).select('id').where({ realm_id: realmId, is_active: true });
  return rows.map((r) => r.id);
}

export async function activeOwnerCount(db: Knex, realmId: number): Promise<number> {
  const row = (await User.query(db).where({ realm_id: realmId, is_active: true, role: 100, is_bot: false }).count('id as n').first()) as unknown as {
    n: number;
  };
  return Number(row.n);
}
