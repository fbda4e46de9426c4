import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { anyOf } from '../../db/lists';
import { isRowId } from '../../db/ids';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { recursiveMemberIds } from '../groups/membership';
import { requireHuman } from '../presence/actions';
import { requireAdmin } from '../users/access';
import { User } from '../users/model';
import { applySettings } from './actions';
import { SETTINGS_BY_NAME, SettingsMap } from './catalog';
import { usersWhoEdited } from './store';

/** Whose settings an administrator changes (PATCH /settings with target_users). */
export interface TargetUsers {
  userIds: number[];
  groupIds: number[];
  /** Leave alone, setting by setting, the users who once changed that setting themselves. */
  skipIfAlreadyEdited: boolean;
}

/** What else the request carried: none of it may be changed for other users. */
export interface OtherUsersExtras {
  email?: string;
  newPassword?: string;
  timezone?: string;
}

/**
 * Settings that are the user's own privacy or security choice, so administrators may not change
 * them for others (Zulip's SECURITY_SENSITIVE_USER_SETTINGS).
 */
export const SECURITY_SENSITIVE_SETTINGS: ReadonlySet<string> = new Set([
  'allow_private_data_export',
  'email_address_visibility',
  'enable_digest_emails',
  'enable_login_emails',
  'enable_marketing_emails',
  'presence_enabled',
  'send_private_typing_notifications',
  'send_read_receipts',
  'send_stream_typing_notifications',
]);

const cannotChange = () => errors.badRequest('Cannot change this setting for other users.');

/**
 * PATCH /settings with target_users (feature level 444): an administrator changes settings of the
 * listed users and of the members of the listed groups, recursively. Bots are left out (settings do
 * not apply to them); deactivated users listed by id are included, so the change holds if they come
 * back. Each user hears of each setting that changed for them with a user_settings event. Checks
 * come in Zulip's order, and nothing changes unless all pass.
 */
export async function updateOtherUsersSettings(
  deps: AppDeps,
  actor: User,
  targets: TargetUsers,
  settings: SettingsMap,
  extras: OtherUsersExtras = {},
): Promise<void> {
  requireHuman(actor);
  for (const name of Object.keys(settings)) {
    if (!SETTINGS_BY_NAME.has(name)) throw errors.badRequest(`Invalid setting: ${name}`);
  }
  if (targets.userIds.length === 0 && targets.groupIds.length === 0) throw errors.badRequest('Either user_ids or group_ids must be provided.');
  requireAdmin(actor);
  if (extras.email !== undefined || extras.newPassword !== undefined || extras.timezone !== undefined) throw cannotChange();
  if (Object.keys(settings).some((name) => SECURITY_SENSITIVE_SETTINGS.has(name))) throw cannotChange();

  await inTransaction(deps, deps.realmId, async (uow) => {
    const users = await targetUsers(uow.trx, deps.realmId, targets);
    const ids = users.map((u) => u.id);
    // Setting by setting, as the users who edited one may not have edited another.
    const wanted = new Map<number, SettingsMap>(ids.map((id) => [id, {}]));
    for (const [name, value] of Object.entries(settings)) {
      const skipped = targets.skipIfAlreadyEdited ? await usersWhoEdited(uow.trx, ids, name) : new Set<number>();
      for (const id of ids) if (!skipped.has(id)) (wanted.get(id) as SettingsMap)[name] = value;
    }
    for (const user of users) {
      const mine = wanted.get(user.id) as SettingsMap;
      if (Object.keys(mine).length > 0) await applySettings(deps, uow, user, mine);
    }
  });
}

/** The human accounts targeted, ascending by id; unknown groups and users are refused by id. */
async function targetUsers(db: Knex, realmId: number, targets: TargetUsers): Promise<User[]> {
  const groupIds = [...new Set(targets.groupIds)];
  const validGroupIds = groupIds.filter(isRowId);
  const found = new Set<number>(
    validGroupIds.length === 0
      ? []
      : (
          await db('user_groups')
            .where('realm_id', realmId)
            .whereRaw(...anyOf('id', validGroupIds))
            .pluck('id')
        ).map(Number),
  );
  const missingGroup = groupIds.find((id) => !found.has(id));
  if (missingGroup !== undefined) throw errors.badRequest(`Invalid user group ID: ${missingGroup}`);

  const listed = [...new Set(targets.userIds)];
  const validUserIds = listed.filter(isRowId);
  const byId = new Map<number, User>();
  if (validUserIds.length > 0) {
    for (const user of await User.query(db)
      .where('realm_id', realmId)
      .whereRaw(...anyOf('id', validUserIds)))
      byId.set(user.id, user);
  }
  const missingUser = listed.find((id) => !byId.has(id));
  if (missingUser !== undefined) throw errors.badRequest(`Invalid user ID: ${missingUser}`);

  const memberIds = [...(await recursiveMemberIds(db, realmId, [...found]))].filter((id) => !byId.has(id));
  if (memberIds.length > 0) {
    for (const user of await User.query(db)
      .where('realm_id', realmId)
      .whereRaw(...anyOf('id', memberIds)))
      byId.set(user.id, user);
  }
  return [...byId.values()].filter((u) => !u.is_bot).sort((a, b) => a.id - b.id);
}
