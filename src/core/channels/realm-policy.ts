import type { Knex } from 'knex';
import type { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { REALM_TOPICS_POLICY_DEFAULT } from './constants';
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

/**
 * The user-level defaults a subscription's null notification settings stand for (Zulip's defaults;
 * user settings are not stored yet).
 */
export async function userChannelNotificationDefaults(
  _db: Knex,
  _user: Pick<User, 'id'>,
): Promise<Record<'enable_stream_desktop_notifications' | 'enable_stream_audible_notifications' | 'enable_stream_push_notifications' | 'enable_stream_email_notifications' | 'wildcard_mentions_notify', boolean>> {
  return {
    enable_stream_desktop_notifications: false,
    enable_stream_audible_notifications: false,
    enable_stream_push_notifications: false,
    enable_stream_email_notifications: false,
    wildcard_mentions_notify: true,
  };
}

export function isRealmAdmin(user: Pick<User, 'role'>): boolean {
  return isAdminRole(user.role);
}
