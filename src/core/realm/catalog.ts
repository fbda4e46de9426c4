import { VIDEO_CHAT_PROVIDER_IDS } from '../calls/providers';
import { REALM_TOPICS_POLICY_DEFAULT } from '../channels/constants';
import { REALM_CHANNEL_POLICY_DEFAULTS } from '../channels/realm-policy';
import { REALM_GROUP_SETTINGS } from '../groups/realm-settings';
import type { SystemGroupName } from '../groups/system-groups';
import { REALM_MESSAGE_GROUP_DEFAULTS, REALM_MESSAGE_SETTING_DEFAULTS } from '../messages/realm-settings';

/**
 * Every organization setting POST /register reports as `realm_<name>`: its type, Zulip's default,
 * the fetch type that selects it, and where its value lives.
 *
 * `source` names where the setting is stored (its value is read and written there, see values.ts
 * and writers.ts): the organization's row, the tables of the groups or messages features, or the
 * organization's setting store (`store`, realm_settings). Defaults of settings used by other
 * features are taken from those features, so each default is written once.
 */
export type RealmSettingSource = 'realm' | 'store' | 'groups' | 'messages';

export type PlainValue = boolean | number | string | null;

interface Common {
  /** Zulip's property name; the register key is realm_<name>. */
  name: string;
  fetchType: 'realm';
  source: RealmSettingSource;
}

export interface RealmPropertySpec extends Common {
  kind: 'bool' | 'int' | 'string';
  nullable: boolean;
  default: PlainValue;
  /** The only values accepted, where Zulip restricts them. */
  choices?: readonly PlainValue[];
}

/** How a group-setting value may be set (Zulip's GroupPermissionSetting). */
export interface RealmGroupSpec extends Common {
  kind: 'group';
  default: SystemGroupName;
  allowNobody: boolean;
  allowEveryone: boolean;
  requireSystemGroup?: boolean;
  allowedSystemGroups?: readonly SystemGroupName[];
}

export type RealmSettingSpec = RealmPropertySpec | RealmGroupSpec;

const prop = (name: string, kind: RealmPropertySpec['kind'], value: PlainValue, extra: Partial<RealmPropertySpec> = {}): RealmPropertySpec => ({
  name,
  kind,
  default: value,
  nullable: value === null,
  fetchType: 'realm',
  source: 'store',
  ...extra,
});

const bool = (name: string, value: boolean, extra: Partial<RealmPropertySpec> = {}) => prop(name, 'bool', value, extra);
const int = (name: string, value: number | null, extra: Partial<RealmPropertySpec> = {}) => prop(name, 'int', value, extra);
const str = (name: string, value: string | null, extra: Partial<RealmPropertySpec> = {}) => prop(name, 'string', value, extra);

const group = (name: string, value: SystemGroupName, allowEveryone: boolean, extra: Partial<RealmGroupSpec> = {}): RealmGroupSpec => ({
  name,
  kind: 'group',
  default: value,
  allowNobody: true,
  allowEveryone,
  fetchType: 'realm',
  source: 'store',
  ...extra,
});

const fromChannels = { source: 'store' } as const;
const fromMessages = { source: 'messages' } as const;
const groupsDefault = (name: string) => REALM_GROUP_SETTINGS[name].defaultValue as SystemGroupName;
const nullable = (nullableValue: boolean) => ({ nullable: nullableValue });

/** Edit-history policies as the API names them, by stored number. */
export const EDIT_HISTORY_POLICY_NAMES = ['all', 'moves', 'none'] as const;

export const REALM_SETTINGS: readonly RealmSettingSpec[] = [
  // Identity, kept on the organization's own row.
  str('name', null, { source: 'realm', nullable: false }),
  str('description', null, { source: 'realm', nullable: false }),

  // Plain settings (Zulip's Realm.property_types).
  bool('allow_message_editing', REALM_MESSAGE_SETTING_DEFAULTS.allowMessageEditing, fromMessages),
  bool('avatar_changes_disabled', false),
  // New accounts' profile picture: G gravatar, J generated (Jdenticon). Zulip's new organizations
  // start with J; Parley keeps G, which every existing organization had.
  str('default_avatar_source', 'G', { choices: ['G', 'J'] }),
  str('default_code_block_language', ''),
  str('default_language', 'en'),
  bool('digest_emails_enabled', false),
  int('digest_weekday', 1, { choices: [0, 1, 2, 3, 4, 5, 6] }),
  bool('disallow_disposable_email_addresses', true),
  bool('email_changes_disabled', false),
  bool('emails_restricted_to_domains', false),
  bool('enable_guest_user_dm_warning', true),
  bool('enable_guest_user_indicator', true),
  // Zulip turns read receipts on for every new organization except education ones.
  bool('enable_read_receipts', true),
  bool('enable_spectator_access', false),
  int('gif_rating_policy', 2, { choices: [0, 1, 2, 3, 4, 5] }),
  bool('inline_image_preview', true),
  bool('inline_url_embed_preview', false),
  bool('invite_required', true),
  str('jitsi_server_url', null),
  // Height of image and video previews, in percent of the usual (clients scale them).
  int('media_preview_size', 100, { choices: [100, 150, 200] }),
  bool('message_content_allowed_in_email_notifications', true),
  int('message_content_delete_limit_seconds', REALM_MESSAGE_SETTING_DEFAULTS.messageContentDeleteLimitSeconds, { ...fromMessages, ...nullable(true) }),
  int('message_content_edit_limit_seconds', REALM_MESSAGE_SETTING_DEFAULTS.messageContentEditLimitSeconds, { ...fromMessages, ...nullable(true) }),
  str('message_edit_history_visibility_policy', EDIT_HISTORY_POLICY_NAMES[REALM_MESSAGE_SETTING_DEFAULTS.editHistoryVisibility - 1], {
    ...fromMessages,
    choices: EDIT_HISTORY_POLICY_NAMES,
  }),
  int('move_messages_between_streams_limit_seconds', REALM_MESSAGE_SETTING_DEFAULTS.moveMessagesBetweenStreamsLimitSeconds, {
    ...fromMessages,
    ...nullable(true),
  }),
  int('move_messages_within_stream_limit_seconds', REALM_MESSAGE_SETTING_DEFAULTS.moveMessagesWithinStreamLimitSeconds, {
    ...fromMessages,
    ...nullable(true),
  }),
  // -1: messages are kept forever.
  int('message_retention_days', -1),
  bool('name_changes_disabled', false),
  bool('presence_disabled', false),
  bool('push_notifications_enabled', false),
  bool('require_e2ee_push_notifications', false),
  bool('require_unique_names', false),
  bool('send_channel_events_messages', false),
  bool('send_welcome_emails', true),
  str('topics_policy', REALM_TOPICS_POLICY_DEFAULT, { ...fromChannels, choices: ['allow_empty_topic', 'disable_empty_topic'] }),
  // 1: Jitsi Meet; the others only where configured (checked when set).
  int('video_chat_provider', 1, { choices: [...VIDEO_CHAT_PROVIDER_IDS] }),
  int('waiting_period_threshold', 0),
  bool('want_advertise_in_communities_directory', false),
  str('welcome_message_custom_text', ''),
  int('org_type', 0),

  // Channels automated messages go to; -1: none.
  int('moderation_request_channel_id', -1),
  int('new_stream_announcements_stream_id', -1),
  int('signup_announcements_stream_id', -1),
  int('zulip_update_announcements_stream_id', -1),

  // Permissions held by groups (Zulip's Realm.REALM_PERMISSION_GROUP_SETTINGS).
  group('can_access_all_users_group', 'role:everyone', true, {
    allowNobody: false,
    requireSystemGroup: true,
    allowedSystemGroups: ['role:everyone', 'role:members'],
  }),
  group('can_add_custom_emoji_group', 'role:members', false),
  group('can_add_subscribers_group', REALM_CHANNEL_POLICY_DEFAULTS.can_add_subscribers_group, false, fromChannels),
  group('can_create_bots_group', 'role:members', false, { source: 'groups' }),
  group('can_create_groups', groupsDefault('can_create_groups'), false, { source: 'groups' }),
  group('can_create_private_channel_group', REALM_CHANNEL_POLICY_DEFAULTS.can_create_private_channel_group, false, fromChannels),
  group('can_create_public_channel_group', REALM_CHANNEL_POLICY_DEFAULTS.can_create_public_channel_group, false, fromChannels),
  group('can_create_web_public_channel_group', REALM_CHANNEL_POLICY_DEFAULTS.can_create_web_public_channel_group, false, {
    ...fromChannels,
    requireSystemGroup: true,
    allowedSystemGroups: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  }),
  group('can_create_write_only_bots_group', 'role:members', false, { source: 'groups' }),
  group('can_delete_any_message_group', REALM_MESSAGE_GROUP_DEFAULTS.can_delete_any_message_group, false, fromMessages),
  group('can_delete_own_message_group', REALM_MESSAGE_GROUP_DEFAULTS.can_delete_own_message_group, true, fromMessages),
  group('can_invite_users_group', 'role:members', false),
  group('can_manage_all_groups', groupsDefault('can_manage_all_groups'), false, { source: 'groups', allowNobody: false }),
  group('can_manage_billing_group', 'role:administrators', false, { allowNobody: false }),
  group('can_mention_many_users_group', REALM_MESSAGE_GROUP_DEFAULTS.can_mention_many_users_group, true, fromMessages),
  group('can_move_messages_between_channels_group', REALM_MESSAGE_GROUP_DEFAULTS.can_move_messages_between_channels_group, false, fromMessages),
  group('can_move_messages_between_topics_group', REALM_MESSAGE_GROUP_DEFAULTS.can_move_messages_between_topics_group, true, fromMessages),
  group('can_resolve_topics_group', REALM_MESSAGE_GROUP_DEFAULTS.can_resolve_topics_group, true, fromMessages),
  group('can_set_delete_message_policy_group', REALM_CHANNEL_POLICY_DEFAULTS.can_set_delete_message_policy_group, false, fromChannels),
  group('can_set_topics_policy_group', REALM_CHANNEL_POLICY_DEFAULTS.can_set_topics_policy_group, true, fromChannels),
  group('can_summarize_topics_group', 'role:everyone', true),
  group('create_multiuse_invite_group', 'role:administrators', false),
  group('direct_message_initiator_group', 'role:everyone', true),
  group('direct_message_permission_group', 'role:everyone', true),
  // Who counts as a workplace user for billing: stored and checked (workplace-users-group.ts), unused as
  // Parley has no billing.
  group('workplace_users_group', 'role:members', true),
];

export const REALM_SETTINGS_BY_NAME: ReadonlyMap<string, RealmSettingSpec> = new Map(REALM_SETTINGS.map((s) => [s.name, s]));

export const REALM_GROUP_SPECS: readonly RealmGroupSpec[] = REALM_SETTINGS.filter((s): s is RealmGroupSpec => s.kind === 'group');
