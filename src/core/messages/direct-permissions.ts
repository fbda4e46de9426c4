import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import { cachedSystemGroupIds, holdsGroupSetting, recursiveGroupIdsOf } from '../channels/group-settings';
import type { GroupSettingValue } from '../groups/setting-values';
import { cachedRealmSettings } from '../realm/setting-store';
import type { User } from '../users/model';

/**
 * The organization's direct-message permissions (Zulip's direct_message_permission_group and
 * direct_message_initiator_group), checked on every direct message. Their stored values come from
 * the settings cache kept exact by `realm` events, so the default (everyone may) costs no query.
 */
export const DIRECT_MESSAGES_DISABLED = 'Direct messages are disabled in this organization.';
export const MISSING_AUTHORIZED_USERS = 'This conversation does not include any users who can authorize it.';
export const CANNOT_INITIATE = 'You do not have permission to initiate direct message conversations.';

/**
 * Refuses a direct message the organization does not allow: unless the sender may use direct
 * messages fully, the conversation must include someone who may; unless the sender may start
 * conversations, it must already exist. Conversations with only bots (or oneself) are always allowed.
 */
export async function checkDirectMessagePermissions(
  deps: AppDeps,
  db: Knex,
  sender: User,
  recipients: User[],
  conversationExists: () => Promise<boolean>,
): Promise<void> {
  const stored = await cachedRealmSettings(deps, db);
  const settings = {
    permission: stored.direct_message_permission_group as GroupSettingValue | undefined,
    initiator: stored.direct_message_initiator_group as GroupSettingValue | undefined,
  };
  if (settings.permission === undefined && settings.initiator === undefined) return;
  const others = recipients.filter((u) => u.id !== sender.id && !u.is_bot);
  if (others.length === 0) return;
  const system = await cachedSystemGroupIds(deps.knex, db, deps.realmId);
  const holds = async (user: User, value: GroupSettingValue) =>
    value === system['role:everyone'] || holdsGroupSetting(user, await recursiveGroupIdsOf(db, user.id), value);

  if (settings.permission !== undefined && !(await holds(sender, settings.permission))) {
    const nobody =
      settings.permission === system['role:nobody'] ||
      (typeof settings.permission === 'object' && settings.permission.direct_members.length === 0 && settings.permission.direct_subgroups.length === 0);
    if (nobody) throw errors.badRequest(DIRECT_MESSAGES_DISABLED);
    let authorized = false;
    for (const user of others) if ((authorized = await holds(user, settings.permission))) break;
    if (!authorized) throw errors.badRequest(MISSING_AUTHORIZED_USERS);
  }
  if (settings.initiator !== undefined && !(await holds(sender, settings.initiator)) && !(await conversationExists())) {
    throw errors.badRequest(CANNOT_INITIATE);
  }
}
