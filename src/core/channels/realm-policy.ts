import type { Knex } from 'knex';
import type { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { userSettings } from '../settings/store';
import { REALM_TOPICS_POLICY_DEFAULT, SUBSCRIPTION_NOTIFICATION_SETTINGS } from './constants';
import { holdsGroupSetting, SystemGroupIds } from './group-settings';
import type { SystemGroupName } from '../groups/system-groups';

/**
 * Organization-level settings that channel rules depend on. The organization does not store them
 * yet, so each has Zulip's default; reading them goes through here so a stored value can replace
 * the default in one place.
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

export function realmTopicsPolicy(): 'allow_empty_topic' | 'disable_empty_topic' | 'empty_topic_only' {
  return REALM_TOPICS_POLICY_DEFAULT;
}

/** Web-public channels need spectator access, which this server does not offer. */
export function webPublicChannelsEnabled(): boolean {
  return false;
}

export function realmPolicyGroupId(systemGroups: SystemGroupIds, policy: RealmChannelPolicy): number {
  return systemGroups[REALM_CHANNEL_POLICY_DEFAULTS[policy]];
}

export function holdsRealmPolicy(
  user: Pick<User, 'id' | 'role'>,
  groupIds: Set<number>,
  systemGroups: SystemGroupIds,
  policy: RealmChannelPolicy,
): boolean {
  return holdsGroupSetting(user, groupIds, realmPolicyGroupId(systemGroups, policy));
}

type NotificationDefault = (typeof SUBSCRIPTION_NOTIFICATION_SETTINGS)[keyof typeof SUBSCRIPTION_NOTIFICATION_SETTINGS];

/**
 * What a subscription's null notification settings stand for: the user's own enable_stream_* and
 * wildcard_mentions_notify settings, read from the settings feature.
 */
export async function userChannelNotificationDefaults(
  db: Knex,
  user: Pick<User, 'id' | 'realm_id'>,
): Promise<Record<NotificationDefault, boolean>> {
  const settings = await userSettings(db, user);
  const out = {} as Record<NotificationDefault, boolean>;
  for (const name of Object.values(SUBSCRIPTION_NOTIFICATION_SETTINGS)) out[name] = settings[name] === true;
  return out;
}

export function isRealmAdmin(user: Pick<User, 'role'>): boolean {
  return isAdminRole(user.role);
}
