import type { Knex } from 'knex';
import { setRealmGroupSetting } from '../groups/realm-settings';
import { EDIT_HISTORY_POLICY_NAMES, RealmSettingSource } from './catalog';
import { Realm } from './model';
import { writeRealmSetting } from './setting-store';

/** Where each source keeps a setting's new (validated) value; see values.ts for the readers. */
const jsonColumn = (value: unknown) => (value === null ? null : JSON.stringify(value));

async function writeMessageSetting(db: Knex, realmId: number, name: string, value: unknown): Promise<void> {
  let column: unknown = value;
  if (name === 'message_edit_history_visibility_policy') column = EDIT_HISTORY_POLICY_NAMES.indexOf(value as (typeof EDIT_HISTORY_POLICY_NAMES)[number]) + 1;
  else if (name.endsWith('_group')) column = jsonColumn(value);
  await db('realm_message_settings')
    .insert({ realm_id: realmId, [name]: column })
    .onConflict('realm_id')
    .merge([name]);
}

export const WRITERS: Record<RealmSettingSource, (db: Knex, realmId: number, name: string, value: unknown) => Promise<void>> = {
  realm: async (db, realmId, name, value) => {
    await Realm.query(db)
      .patch({ [name]: value })
      .where('id', realmId);
  },
  store: writeRealmSetting,
  groups: (db, realmId, name, value) => setRealmGroupSetting(db, realmId, name, value as Parameters<typeof setRealmGroupSetting>[3]),
  messages: writeMessageSetting,
};
