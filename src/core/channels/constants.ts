import type { SystemGroupName } from '../groups/system-groups';

/** Limits clients read from POST /register (max_stream_name_length, max_stream_description_length). */
export const MAX_CHANNEL_NAME_LENGTH = 60;
export const MAX_CHANNEL_DESCRIPTION_LENGTH = 1024;

/** Channels with fewer subscribers than this always carry `subscribers` in POST /register. */
export const FULL_SUBSCRIBER_LIST_LIMIT = 250;

export const TOPICS_POLICIES = ['inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'] as const;
export type TopicsPolicy = (typeof TOPICS_POLICIES)[number];

/** The organization-level policy a channel with topics_policy "inherit" follows. */
export const REALM_TOPICS_POLICY_DEFAULT: Exclude<TopicsPolicy, 'inherit'> = 'allow_empty_topic';

export const DEFAULT_SUBSCRIPTION_COLOR = '#c2c2c2';

/** Colors handed to new subscriptions, first the ones the user does not use yet, in this order. */
export const SUBSCRIPTION_COLORS = [
  '#76ce90',
  '#fae589',
  '#a6c7e5',
  '#e79ab5',
  '#bfd56f',
  '#f4ae55',
  '#b0a5fd',
  '#addfe5',
  '#f5ce6e',
  '#c2726a',
  '#94c849',
  '#bd86e5',
  '#ee7e4a',
  '#a6dcbf',
  '#95a5fd',
  '#53a063',
  '#9987e1',
  '#e4523d',
  '#c2c2c2',
  '#4f8de4',
  '#c6a8ad',
  '#e7cc4d',
  '#c8bebf',
  '#a47462',
];

/** How each channel permission may be set and what a new channel gets when none is given. */
export interface ChannelPermissionConfig {
  /** Whether role:everyone (which includes guests) is an acceptable value. */
  allowEveryone: boolean;
  /** 'channel_creator': a group of just the creator (role:nobody when there is none). */
  defaultGroup: SystemGroupName | 'channel_creator';
}

export const CHANNEL_PERMISSION_SETTINGS = {
  can_add_subscribers_group: { allowEveryone: false, defaultGroup: 'role:nobody' },
  can_administer_channel_group: { allowEveryone: false, defaultGroup: 'channel_creator' },
  can_create_topic_group: { allowEveryone: true, defaultGroup: 'role:everyone' },
  can_delete_any_message_group: { allowEveryone: true, defaultGroup: 'role:nobody' },
  can_delete_own_message_group: { allowEveryone: true, defaultGroup: 'role:nobody' },
  can_move_messages_out_of_channel_group: { allowEveryone: true, defaultGroup: 'role:nobody' },
  can_move_messages_within_channel_group: { allowEveryone: true, defaultGroup: 'role:nobody' },
  can_remove_subscribers_group: { allowEveryone: true, defaultGroup: 'role:administrators' },
  can_send_message_group: { allowEveryone: true, defaultGroup: 'role:everyone' },
  can_subscribe_group: { allowEveryone: false, defaultGroup: 'role:nobody' },
  can_resolve_topics_group: { allowEveryone: true, defaultGroup: 'role:nobody' },
} as const satisfies Record<string, ChannelPermissionConfig>;

export type ChannelPermissionSetting = keyof typeof CHANNEL_PERMISSION_SETTINGS;
export const CHANNEL_PERMISSION_SETTING_NAMES = Object.keys(CHANNEL_PERMISSION_SETTINGS) as ChannelPermissionSetting[];

/** Members of these settings' groups can see a private channel exists (metadata access). */
export const METADATA_ACCESS_SETTINGS: ChannelPermissionSetting[] = ['can_add_subscribers_group', 'can_administer_channel_group', 'can_subscribe_group'];

/** Changing these needs access to the channel's content, not only permission to administer it. */
export const CONTENT_ACCESS_REQUIRED_SETTINGS: ChannelPermissionSetting[] = ['can_add_subscribers_group', 'can_subscribe_group'];

/** Settings that only someone allowed to set the organization's message-deletion policy may grant. */
export const DELETE_POLICY_SETTINGS: ChannelPermissionSetting[] = ['can_delete_any_message_group', 'can_delete_own_message_group'];

/** Deprecated stream_post_policy values derived from can_send_message_group. */
export const STREAM_POST_POLICY_BY_GROUP: Partial<Record<SystemGroupName, number>> = {
  'role:everyone': 1,
  'role:administrators': 2,
  'role:fullmembers': 3,
  'role:moderators': 4,
};

/** Per-subscription notification settings and the user setting each falls back to when null. */
export const SUBSCRIPTION_NOTIFICATION_SETTINGS = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
} as const;
export type SubscriptionNotificationSetting = keyof typeof SUBSCRIPTION_NOTIFICATION_SETTINGS;
