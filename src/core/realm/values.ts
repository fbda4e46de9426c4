import type { Knex } from 'knex';
import type { AppDeps } from '../../deps';
import { cachedSystemGroupIds } from '../channels/group-settings';
import type { SystemGroupIds } from '../channels/group-settings';
import { realmPolicyGroupId, realmTopicsPolicy } from '../channels/realm-policy';
import { storedRealmGroupSettings } from '../groups/realm-settings';
import type { GroupSettingValue } from '../groups/setting-values';
import { loadRealmMessageSettings } from '../messages/realm-settings';
import { EDIT_HISTORY_POLICY_NAMES, PlainValue, REALM_SETTINGS, RealmSettingSource } from './catalog';
import type { Realm } from './model';
import { getRealm } from './queries';

export type RealmSettingValue = PlainValue | GroupSettingValue;
export type RealmSettingValues = Record<string, RealmSettingValue>;

interface ReadContext {
  db: Knex;
  realm: Realm;
  systemGroups: SystemGroupIds;
}

/** Each source's stored values, read where the owning feature keeps them. */
const READERS: Record<Exclude<RealmSettingSource, 'unstored'>, (ctx: ReadContext) => Promise<RealmSettingValues>> = {
  realm: async ({ realm }) => ({ name: realm.name, description: realm.description }),
  channels: async ({ systemGroups }) => ({
    topics_policy: realmTopicsPolicy(),
    can_add_subscribers_group: realmPolicyGroupId(systemGroups, 'can_add_subscribers_group'),
    can_create_private_channel_group: realmPolicyGroupId(systemGroups, 'can_create_private_channel_group'),
    can_create_public_channel_group: realmPolicyGroupId(systemGroups, 'can_create_public_channel_group'),
    can_create_web_public_channel_group: realmPolicyGroupId(systemGroups, 'can_create_web_public_channel_group'),
    can_set_delete_message_policy_group: realmPolicyGroupId(systemGroups, 'can_set_delete_message_policy_group'),
    can_set_topics_policy_group: realmPolicyGroupId(systemGroups, 'can_set_topics_policy_group'),
  }),
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

const SOURCES = [...new Set(REALM_SETTINGS.map((s) => s.source))].filter((s): s is keyof typeof READERS => s !== 'unstored');

/**
 * The current value of every catalog setting: what its feature stores, else Zulip's default (for
 * group settings, the id of the default system group).
 */
export async function loadRealmSettingValues(db: Knex, realm: Realm, systemGroups: SystemGroupIds): Promise<RealmSettingValues> {
  const ctx = { db, realm, systemGroups };
  // The readers use the pool (never a transaction's connection), so they may run side by side.
  const stored: RealmSettingValues = Object.assign({}, ...(await Promise.all(SOURCES.map((source) => READERS[source](ctx)))));
  const out: RealmSettingValues = {};
  for (const spec of REALM_SETTINGS) {
    if (spec.source !== 'unstored' && !(spec.name in stored)) throw new Error(`realm setting ${spec.name} not provided by ${spec.source}`);
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
