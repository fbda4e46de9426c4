import type { Knex } from 'knex';
import { errors } from '../../errors';
import { storedRealmSetting } from '../realm/setting-store';
import { isAdminRole } from './roles';

/**
 * The organization's rules on names and avatars (Zulip's name_changes_disabled,
 * avatar_changes_disabled and require_unique_names). Administrators are not bound by the first
 * two; uniqueness binds everyone, and every account counts (bots and deactivated users included).
 */

/** Zulip compares names NFKC-normalized and case-folded ("𝕚𝕒𝕘𝕠" is "iago"). */
const comparable = (name: string) => name.normalize('NFKC').toUpperCase().toLowerCase();

/** Refuses a name another account of the organization already has, when names must be unique. */
export async function checkUniqueName(db: Knex, realmId: number, fullName: string, exceptUserId: number | null): Promise<void> {
  if (!(await storedRealmSetting(db, realmId, 'require_unique_names', false))) return;
  const query = db('users').where({ realm_id: realmId });
  if (exceptUserId !== null) query.whereNot('id', exceptUserId);
  const wanted = comparable(fullName);
  const names: { full_name: string }[] = await query.select('full_name');
  if (names.some((row) => comparable(row.full_name) === wanted)) throw errors.badRequest('Unique names required in this organization.');
}

export async function requireNameChangesAllowed(db: Knex, realmId: number, user: { role: number }): Promise<void> {
  if (isAdminRole(user.role)) return;
  if (await storedRealmSetting(db, realmId, 'name_changes_disabled', false)) throw errors.badRequest('Name changes are disabled in this organization.');
}

export async function requireAvatarChangesAllowed(db: Knex, realmId: number, user: { role: number }): Promise<void> {
  if (isAdminRole(user.role)) return;
  if (await storedRealmSetting(db, realmId, 'avatar_changes_disabled', false)) throw errors.badRequest('Avatar changes are disabled in this organization.');
}
