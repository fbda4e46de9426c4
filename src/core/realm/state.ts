import type { SystemGroupIds } from '../channels/group-settings';
import type { SystemGroupName } from '../groups/system-groups';
import type { RegisterState, StateSlice } from '../register/slice';
import { realmIconUrl, realmLogoUrl } from './queries';
import { SERVER_JITSI_URL, serverRealmInfo } from './server-info';
import { currentRealmSettings } from './values';

/** Deprecated enum forms of group settings, by the system group that holds the setting. */
const COMMON_POLICY: Partial<Record<SystemGroupName, number>> = {
  'role:members': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
};
const WEB_PUBLIC_POLICY: Partial<Record<SystemGroupName, number>> = {
  'role:administrators': 2,
  'role:moderators': 4,
  'role:nobody': 6,
  'role:owners': 7,
};
const WILDCARD_MENTION_POLICY: Partial<Record<SystemGroupName, number>> = {
  'role:everyone': 1,
  'role:members': 2,
  'role:fullmembers': 3,
  'role:administrators': 5,
  'role:nobody': 6,
  'role:moderators': 7,
};

/**
 * Legacy keys computed from current ones, as Zulip computes them: a group setting held by a
 * system group the old enum had maps to that enum value, anything else to the broadest value.
 */
const DERIVED: { key: string; from: string; policy: Partial<Record<SystemGroupName, number>>; fallback: number }[] = [
  { key: 'realm_create_public_stream_policy', from: 'realm_can_create_public_channel_group', policy: COMMON_POLICY, fallback: 1 },
  { key: 'realm_create_private_stream_policy', from: 'realm_can_create_private_channel_group', policy: COMMON_POLICY, fallback: 1 },
  { key: 'realm_create_web_public_stream_policy', from: 'realm_can_create_web_public_channel_group', policy: WEB_PUBLIC_POLICY, fallback: 4 },
  { key: 'realm_wildcard_mention_policy', from: 'realm_can_mention_many_users_group', policy: WILDCARD_MENTION_POLICY, fallback: 1 },
];

const GROUP_NAMES = Symbol('systemGroupNames');

function deriveLegacyKeys(state: RegisterState, names: Map<number, SystemGroupName>): void {
  for (const { key, from, policy, fallback } of DERIVED) {
    const value = state[from];
    const name = typeof value === 'number' ? names.get(value) : undefined;
    state[key] = (name && policy[name]) ?? fallback;
  }
  state.realm_allow_edit_history = state.realm_message_edit_history_visibility_policy !== 'none';
  state.realm_mandatory_topics = state.realm_topics_policy === 'disable_empty_topic';
  state.jitsi_server_url = state.realm_jitsi_server_url ?? SERVER_JITSI_URL;
}

function groupNames(ids: SystemGroupIds): Map<number, SystemGroupName> {
  return new Map(Object.entries(ids).map(([name, id]) => [id, name as SystemGroupName]));
}

/**
 * The `realm` fetch type: the organization's identity, every setting of the catalog
 * (`catalog.ts`) as realm_<name>, their legacy forms, and the server's own parameters.
 */
export const realmSlice: StateSlice = {
  fetchTypes: ['realm'],
  async fetch(deps) {
    const { realm, systemGroups, values } = await currentRealmSettings(deps);
    const state: RegisterState = { ...serverRealmInfo(deps.config) };
    for (const [name, value] of Object.entries(values)) state[`realm_${name}`] = value;
    // Whether the server can send mobile notifications is the server's configuration.
    state.realm_push_notifications_enabled = deps.config.pushService !== null;
    state.realm_date_created = Math.floor(realm.date_created.getTime() / 1000);
    state.realm_uuid = realm.uuid;
    state.realm_icon_url = realmIconUrl(realm);
    state.realm_icon_source = realm.icon_source;
    for (const kind of ['logo', 'night_logo'] as const) {
      state[`realm_${kind}_url`] = realmLogoUrl(realm, kind, deps.config.externalUrl);
      state[`realm_${kind}_source`] = kind === 'logo' ? realm.logo_source : realm.night_logo_source;
    }
    const names = groupNames(systemGroups);
    deriveLegacyKeys(state, names);
    (state as Record<symbol, unknown>)[GROUP_NAMES] = names;
    return state;
  },
  apply(state, event) {
    if (event.type !== 'realm' || !('realm_name' in state)) return;
    if (event.op === 'update' && typeof event.property === 'string') {
      state[`realm_${event.property}`] = event.value;
    } else if (event.op === 'update_dict' && event.data && typeof event.data === 'object') {
      // The description's rendering rides along in the event; register has only the source.
      for (const [key, value] of Object.entries(event.data as Record<string, unknown>)) if (key !== 'rendered_description') state[`realm_${key}`] = value;
    } else {
      return;
    }
    const names = (state as Record<symbol, unknown>)[GROUP_NAMES] as Map<number, SystemGroupName> | undefined;
    deriveLegacyKeys(state, names ?? new Map());
  },
};
