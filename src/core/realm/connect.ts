import type { Knex } from 'knex';
import { loadSystemGroupIds } from '../channels/group-settings';
import type { GroupSettingValue } from '../groups/setting-values';
import { registerGroupUsageSource, valueUsesGroup } from '../groups/usage';
import { registerReadReceiptsSetting } from '../messages/read-receipts';
import { REALM_GROUP_SPECS, REALM_SETTINGS_BY_NAME } from './catalog';
import { Realm } from './model';
import { storedRealmSetting } from './setting-store';
import { loadRealmSettingValues } from './values';

const readReceiptsDefault = REALM_SETTINGS_BY_NAME.get('enable_read_receipts')!.default as boolean;

/**
 * Organization settings holding a group keep it from being deactivated. Settings the groups
 * feature stores itself are checked there; these are the others.
 */
const realmSettingUsage = {
  async objections(db: Knex, realmId: number, groupId: number): Promise<Record<string, unknown>[]> {
    const realm = await Realm.query(db).findById(realmId).throwIfNotFound();
    const values = await loadRealmSettingValues(db, realm, await loadSystemGroupIds(db, realmId));
    const settings = REALM_GROUP_SPECS.filter((spec) => spec.source !== 'groups' && valueUsesGroup(values[spec.name] as GroupSettingValue, groupId)).map(
      (spec) => spec.name,
    );
    return settings.length > 0 ? [{ type: 'realm', settings }] : [];
  },
};

/** Features that consult organization settings read the stored values. */
export function connectRealm(): void {
  registerReadReceiptsSetting((db, realmId) => storedRealmSetting(db, realmId, 'enable_read_receipts', readReceiptsDefault));
  registerGroupUsageSource(realmSettingUsage);
}
