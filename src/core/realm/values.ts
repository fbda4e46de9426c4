import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { cachedSystemGroupIds } from '../channels/group-settings';
import type { SystemGroupIds } from '../channels/group-settings';
import { storedRealmGroupSettings } from '../groups/realm-settings';
import type { GroupSettingValue } from '../groups/setting-values';
import { loadRealmMessageSettings } from '../messages/realm-settings';
import { EDIT_HISTORY_POLICY_NAMES, PlainValue, REALM_SETTINGS, RealmSettingSource } from './catalog';
import type { Realm } from './model';
import { getRealm } from './queries';
import { inParallel } from '../../db/in-parallel';
import { storedRealmSettings } from './setting-store';

export type RealmSettingValue = PlainValue | GroupSettingValue;
export type RealmSettingValues = Record<string, RealmSettingValue>;

interface ReadContext {
  db: Knex;
  realm: Realm;
  systemGroups: SystemGroupIds;
}

/** Each source's stored values, read where the owning feature keeps them. */
const READERS: Record<RealmSettingSource, (ctx: ReadContext) => Promise<RealmSettingValues>> = {
  realm: async ({ realm }) => ({ name: realm.name, description: realm.description }),
  store: ({ db, realm }) => storedRealmSettings(db, realm.id) as Promise<RealmSettingValues>,
  groups: ({ db, realm, systemGroups }) => storedRealmGroupSettings(db, realm.id, systemGroups),
  messages: async ({ db, realm, systemGroups }) => {
    const settings = await loadRealmMessageSettings(db, realm.id, systemGroups);
    return {
      allow_message_editing: settings.allowMessageEditing,
      message_content_edit_limit_seconds: settings.messageContentEditLimitSeconds,
      message_content_delete_limit_seconds: settings.messageContentDeleteLimitSeconds,
      move_messages_within_stream_limit_seconds: settings.moveMessagesWithinStreamLimitSeconds,
      move_messages_between_streams_limit_seconds: settings.moveMessagesBetweenStreamsLimitSeconds,
      message_edit_history_visibility_policy: EDIT_HISTORY_POLICY_NAMES[settings.editHistoryVisibility - 1],
      ...settings.groups,
    };
  },
};

const SOURCES = [...new Set(REALM_SETTINGS.map((s) => s.source))];

/**
 * The current value of every catalog setting: what is stored, else Zulip's default (for group
 * settings, the id of the default system group).
 */
export async function loadRealmSettingValues(db: Knex, realm: Realm, systemGroups: SystemGroupIds): Promise<RealmSettingValues> {
  const ctx = { db, realm, systemGroups };
  // On the pool the readers run side by side; in a transaction, one after another.
  const stored: RealmSettingValues = Object.assign(
    {},
    ...(await inParallel(
      db,
      SOURCES.map((source) => () => READERS[source](ctx)),
    )),
  );
  const out: RealmSettingValues = {};
  for (const spec of REALM_SETTINGS) {
    if (spec.source !== 'store' && !(spec.name in stored)) throw new Error(`realm setting ${spec.name} not provided by ${spec.source}`);
    if (spec.name in stored) out[spec.name] = stored[spec.name];
    else out[spec.name] = spec.kind === 'group' ? systemGroups[spec.default] : spec.default;
  }
  return out;
}

/** The organization's row, its system groups and its settings' current values. */
export async function currentRealmSettings(deps: AppDeps): Promise<{ realm: Realm; systemGroups: SystemGroupIds; values: RealmSettingValues }> {
  const realm = await getRealm(deps);
  const systemGroups = await cachedSystemGroupIds(deps.knex, deps.knex, deps.realmId);
  return { realm, systemGroups, values: await loadRealmSettingValues(deps.knex, realm, systemGroups) };
}
