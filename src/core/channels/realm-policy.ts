import type { Knex } from 'knex';
import type { User } from '../users/model';
import { isAdminRole, isGuestRole } from '../users/roles';
import { storedRealmSetting } from '../realm/setting-store';
import { userSettings } from '../settings/store';
import { REALM_TOPICS_POLICY_DEFAULT, SUBSCRIPTION_NOTIFICATION_SETTINGS } from './constants';
import { GroupSettingValue, holdsGroupSetting, SystemGroupIds } from './group-settings';
import type { SystemGroupName } from '../groups/system-groups';

/**
 * Organization-level settings that channel rules depend on, with Zulip's defaults. Their values are
 * kept in the organization's setting store (see realm/setting-store.ts).
 */
export const REALM_CHANNEL_POLICY_DEFAULTS = {
  can_create_public_channel_group: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_add_subscribers_group: 'role:members',
  can_set_topics_policy_group: 'role:members',
  can_set_delete_message_policy_group: 'role:moderators',
} as const satisfies Record<string, SystemGroupName>;

export type RealmChannelPolicy = keyof typeof REALM_CHANNEL_POLICY_DEFAULTS;

/** Policies that role:everyone may not hold: guests never hold them. */
const GUEST_FREE: ReadonlySet<RealmChannelPolicy> = new Set([
  'can_create_public_channel_group',
  'can_create_private_channel_group',
  'can_create_web_public_channel_group',
  'can_add_subscribers_group',
  'can_set_delete_message_policy_group',
]);

export type RealmTopicsPolicy = 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only';

export async function realmTopicsPolicy(db: Knex, realmId: number): Promise<RealmTopicsPolicy> {
  return storedRealmSetting<RealmTopicsPolicy>(db, realmId, 'topics_policy', REALM_TOPICS_POLICY_DEFAULT);
}

/** Web-public channels exist only while the organization allows spectators. */
export async function webPublicChannelsEnabled(db: Knex, realmId: number): Promise<boolean> {
  return storedRealmSetting(db, realmId, 'enable_spectator_access', false);
}

export async function realmPolicyValue(db: Knex, realmId: number, systemGroups: SystemGroupIds, policy: RealmChannelPolicy): Promise<GroupSettingValue> {
  return storedRealmSetting<GroupSettingValue>(db, realmId, policy, systemGroups[REALM_CHANNEL_POLICY_DEFAULTS[policy]]);
}

export async function holdsRealmPolicy(
  db: Knex,
  user: Pick<User, 'id' | 'role' | 'realm_id'>,
  groupIds: Set<number>,
  systemGroups: SystemGroupIds,
  policy: RealmChannelPolicy,
): Promise<boolean> {
  if (GUEST_FREE.has(policy) && isGuestRole(user.role)) return false;
  return holdsGroupSetting(user, groupIds, await realmPolicyValue(db, user.realm_id, systemGroups, policy));
}

type NotificationDefault = (typeof SUBSCRIPTION_NOTIFICATION_SETTINGS)[keyof typeof SUBSCRIPTION_NOTIFICATION_SETTINGS];

/**
 * What a subscription's null notification settings stand for: the user's own enable_stream_* and
 * wildcard_mentions_notify settings, read from the settings feature.
 */
export async function userChannelNotificationDefaults(db: Knex, user: Pick<User, 'id' | 'realm_id'>): Promise<Record<NotificationDefault, boolean>> {
  const settings = await userSettings(db, user);
  const out = {} as Record<NotificationDefault, boolean>;
  for (const name of Object.values(SUBSCRIPTION_NOTIFICATION_SETTINGS)) out[name] = settings[name] === true;
  return out;
}

export function isRealmAdmin(user: Pick<User, 'role'>): boolean {
  return isAdminRole(user.role);
}
