import type { Knex } from 'knex';
import { cachedSystemGroupIds, holdsGroupSetting, recursiveGroupIdsOf } from '../channels/group-settings';
import type { GroupSettingValue } from '../groups/setting-values';
import type { User } from '../users/model';
import { isGuestRole } from '../users/roles';
import { RealmGroupSpec, REALM_SETTINGS_BY_NAME } from './catalog';
import { storedRealmSetting } from './setting-store';

/**
 * Organization permission settings kept in the setting store, for the features that enforce them
 * (invitations, custom emoji, direct messages, ...).
 */
function groupSpec(name: string): RealmGroupSpec {
  const spec = REALM_SETTINGS_BY_NAME.get(name);
  if (!spec || spec.kind !== 'group' || spec.source !== 'store') throw new Error(`${name} is not a stored realm group setting`);
  return spec;
}

export async function storedRealmGroupSetting(db: Knex, realmId: number, name: string): Promise<GroupSettingValue> {
  const spec = groupSpec(name);
  const systemGroups = await cachedSystemGroupIds(db, db, realmId);
  return storedRealmSetting<GroupSettingValue>(db, realmId, name, systemGroups[spec.default]);
}

/** Whether the user holds the setting; settings that refuse role:everyone are never held by guests. */
export async function holdsStoredRealmSetting(db: Knex, user: Pick<User, 'id' | 'role' | 'realm_id'>, name: string): Promise<boolean> {
  const spec = groupSpec(name);
  if (!spec.allowEveryone && isGuestRole(user.role)) return false;
  const value = await storedRealmGroupSetting(db, user.realm_id, name);
  return holdsGroupSetting(user, await recursiveGroupIdsOf(db, user.id), value);
}
