/**
 * The organization settings Parley supports (every key updateRealmSettings takes), as the
 * administration pages show them: a label, the kind of control, and Zulip's default.
 */
export type SettingKind =
  | { type: 'bool' }
  | { type: 'text'; long?: boolean }
  | {
      type: 'choice';
      options: { value: string | number; label: string }[];
      /** Options that depend on the server (from POST /register's answer), in place of `options`. */
      optionsFrom?: (register: Record<string, unknown>) => { value: string | number; label: string }[];
    }
  /** Seconds or days; empty means no limit ("unlimited"). */
  | { type: 'limit'; unit: 'seconds' | 'days' }
  | { type: 'number' }
  /** A channel id, -1 for none. */
  | { type: 'channel' }
  /** A group-setting value. */
  | { type: 'group'; allowEveryone: boolean; allowNobody: boolean; systemOnly?: string[] };

export interface SettingSpec {
  name: string;
  label: string;
  kind: SettingKind;
  default: unknown;
  /** The page it is shown on. */
  page: 'organization-profile' | 'organization-settings' | 'organization-permissions';
}

const bool = (page: SettingSpec['page'], name: string, label: string, value: boolean): SettingSpec => ({
  name,
  label,
  kind: { type: 'bool' },
  default: value,
  page,
});
const group = (
  name: string,
  label: string,
  value: string,
  allowEveryone: boolean,
  extra: Partial<Extract<SettingKind, { type: 'group' }>> = {},
): SettingSpec => ({
  name,
  label,
  kind: { type: 'group', allowEveryone, allowNobody: true, ...extra },
  default: value,
  page: 'organization-permissions',
});
const limit = (name: string, label: string, value: number | null, unit: 'seconds' | 'days' = 'seconds'): SettingSpec => ({
  name,
  label,
  kind: { type: 'limit', unit },
  default: value,
  page: 'organization-settings',
});
const choice = (page: SettingSpec['page'], name: string, label: string, value: string | number, options: [string | number, string][]): SettingSpec => ({
  name,
  label,
  kind: { type: 'choice', options: options.map(([v, l]) => ({ value: v, label: l })) },
  default: value,
  page,
});
const channel = (name: string, label: string): SettingSpec => ({ name, label, kind: { type: 'channel' }, default: -1, page: 'organization-settings' });
const S = 'organization-settings' as const;
const P = 'organization-permissions' as const;

const BASIC_CALL_PROVIDERS = [
  { value: 0, label: 'None' },
  { value: 1, label: 'Jitsi Meet' },
];

/**
 * The call providers this server offers: None and Jitsi Meet always, BigBlueButton and Zoom when its
 * operator configured them (`realm_available_video_chat_providers`).
 */
export function callProviderOptions(register: Record<string, unknown>): { value: number; label: string }[] {
  const announced = Object.values((register.realm_available_video_chat_providers ?? {}) as Record<string, { id: number; name: string }>);
  const options = [...BASIC_CALL_PROVIDERS];
  for (const p of announced) if (!options.some((o) => o.value === p.id)) options.push({ value: p.id, label: p.name });
  return options.sort((a, b) => a.value - b.value);
}

export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

export const ORG_TYPES: { value: number; label: string }[] = [
  { value: 0, label: 'Unspecified' },
  { value: 10, label: 'Business' },
  { value: 20, label: 'Open-source project' },
  { value: 30, label: 'Education (non-profit)' },
  { value: 35, label: 'Education (for-profit)' },
  { value: 40, label: 'Research' },
  { value: 50, label: 'Event or conference' },
  { value: 60, label: 'Non-profit (registered)' },
  { value: 70, label: 'Government' },
  { value: 80, label: 'Political group' },
  { value: 90, label: 'Community' },
  { value: 100, label: 'Personal' },
];

export const LANGUAGES: Record<string, string> = {
  ar: 'العربيّة',
  be: 'Беларуская',
  bg: 'Български',
  bn: 'বাংলা',
  ca: 'Català',
  cs: 'Čeština',
  cy: 'Cymraeg',
  da: 'Dansk',
  de: 'Deutsch',
  el: 'Ελληνικά',
  en: 'English',
  en_GB: 'British English',
  eo: 'Esperanto',
  es: 'Español',
  fa: 'فارسی',
  fi: 'Suomi',
  fr: 'Français',
  gl: 'Galego',
  gu: 'ગુજરાતી',
  hi: 'हिंदी',
  hu: 'Magyar',
  id: 'Bahasa Indonesia',
  it: 'Italiano',
  ja: '日本語',
  ko: '한국어',
  lt: 'Lietuvių',
  lv: 'Latviešu',
  ml: 'മലയാളം',
  mn: 'Монгол',
  nl: 'Nederlands',
  no: 'Norsk',
  pl: 'Polski',
  pt: 'Português',
  pt_BR: 'Português - Brasil',
  pt_PT: 'Português - Portugal',
  ro: 'Română',
  ru: 'Русский',
  si: 'සිංහල',
  sk: 'Slovenčina',
  sr: 'Српски',
  sv: 'Svenska',
  ta: 'தமிழ்',
  te: 'తెలుగు',
  tl: 'Tagalog',
  tr: 'Türkçe',
  uk: 'Українська',
  uz: 'Oʻzbekcha',
  vi: 'Tiếng Việt',
  'zh-hans': '简体中文',
  'zh-hant': '繁體中文',
};

export const REALM_SETTINGS: SettingSpec[] = [
  {
    name: 'default_language',
    label: 'Language for automated messages and invitation emails',
    kind: { type: 'choice', options: Object.entries(LANGUAGES).map(([value, label]) => ({ value, label })) },
    default: 'en',
    page: 'organization-profile',
  },
  { name: 'org_type', label: 'Organization type', kind: { type: 'choice', options: ORG_TYPES }, default: 0, page: 'organization-profile' },
  bool('organization-profile', 'want_advertise_in_communities_directory', 'Advertise this organization in the communities directory', false),

  // Message editing and moving.
  bool(S, 'allow_message_editing', 'Allow message editing', true),
  limit('message_content_edit_limit_seconds', 'Time limit for editing messages (seconds)', 600),
  limit('message_content_delete_limit_seconds', 'Time limit for deleting own messages (seconds)', 600),
  limit('move_messages_within_stream_limit_seconds', 'Time limit for moving messages between topics (seconds)', 604800),
  limit('move_messages_between_streams_limit_seconds', 'Time limit for moving messages between channels (seconds)', 604800),
  {
    name: 'message_edit_history_visibility_policy',
    label: 'Who can see message edit history',
    kind: {
      type: 'choice',
      options: [
        { value: 'all', label: 'Edits and moves' },
        { value: 'moves', label: 'Moves only' },
        { value: 'none', label: 'Nobody' },
      ],
    },
    default: 'all',
    page: S,
  },
  {
    name: 'topics_policy',
    label: 'Messages without a topic',
    kind: {
      type: 'choice',
      options: [
        { value: 'allow_empty_topic', label: 'Allowed' },
        { value: 'disable_empty_topic', label: 'Not allowed' },
      ],
    },
    default: 'allow_empty_topic',
    page: S,
  },
  limit('message_retention_days', 'Message retention (days; empty: keep forever)', -1, 'days'),

  // Automated messages.
  channel('new_stream_announcements_stream_id', 'New channel announcements'),
  channel('signup_announcements_stream_id', 'New user announcements'),
  channel('zulip_update_announcements_stream_id', 'Zulip update announcements'),
  channel('moderation_request_channel_id', 'Moderation requests'),
  bool(S, 'send_channel_events_messages', 'Send automated notices about channel changes', false),
  bool(S, 'send_welcome_emails', 'Send emails introducing Zulip to new users', true),
  choice(S, 'default_avatar_source', 'Default profile pictures for new users', 'G', [
    ['J', 'Abstract design'],
    ['G', 'Gravatar'],
  ]),
  { name: 'welcome_message_custom_text', label: 'Custom text in welcome emails', kind: { type: 'text', long: true }, default: '', page: S },
  bool(S, 'digest_emails_enabled', 'Send weekly digest emails to inactive users', false),
  {
    name: 'digest_weekday',
    label: 'Day of the week to send digests',
    kind: { type: 'choice', options: WEEKDAYS.map((label, value) => ({ value, label })) },
    default: 1,
    page: S,
  },
  bool(S, 'message_content_allowed_in_email_notifications', 'Allow message content in message notification emails', true),

  // Other settings.
  {
    name: 'video_chat_provider',
    label: 'Call provider',
    kind: { type: 'choice', options: BASIC_CALL_PROVIDERS, optionsFrom: callProviderOptions },
    default: 1,
    page: S,
  },
  { name: 'jitsi_server_url', label: 'Jitsi server URL (empty: the server default)', kind: { type: 'text' }, default: null, page: S },
  {
    name: 'gif_rating_policy',
    label: 'GIF content rating',
    kind: {
      type: 'choice',
      options: [
        { value: 0, label: 'GIF picker disabled' },
        { value: 1, label: 'Y' },
        { value: 2, label: 'G' },
        { value: 3, label: 'PG' },
        { value: 4, label: 'PG-13' },
        { value: 5, label: 'R' },
      ],
    },
    default: 2,
    page: S,
  },
  { name: 'default_code_block_language', label: 'Default language for code blocks', kind: { type: 'text' }, default: '', page: S },
  bool(S, 'inline_image_preview', 'Show previews of uploaded and linked images and videos', true),
  bool(S, 'inline_url_embed_preview', 'Show previews of linked websites', false),
  choice(S, 'media_preview_size', 'Size of image and video previews', 100, [
    [100, 'Default'],
    [150, 'Large (150%)'],
    [200, 'Extra large (200%)'],
  ]),
  bool(S, 'enable_read_receipts', 'Enable read receipts', true),
  bool(S, 'presence_disabled', 'Disable presence (who is online)', false),
  bool(S, 'enable_guest_user_indicator', 'Display "(guest)" after names of guest users', true),
  bool(S, 'enable_guest_user_dm_warning', 'Warn when composing a DM to a guest', true),
  bool(S, 'require_e2ee_push_notifications', 'Require end-to-end encryption for push notification content', false),

  // Joining and user identity.
  bool(P, 'invite_required', 'Invitations are required for joining the organization', true),
  bool(P, 'emails_restricted_to_domains', 'Restrict email addresses of new users to allowed domains', false),
  bool(P, 'disallow_disposable_email_addresses', 'Do not allow disposable email addresses', true),
  { name: 'waiting_period_threshold', label: 'Waiting period before new members are full members (days)', kind: { type: 'number' }, default: 0, page: P },
  bool(P, 'enable_spectator_access', 'Allow creating web-public channels (visible to anyone on the Internet)', false),
  bool(P, 'require_unique_names', 'Require unique names', false),
  bool(P, 'name_changes_disabled', 'Prevent users from changing their name', false),
  bool(P, 'email_changes_disabled', 'Prevent users from changing their email address', false),
  bool(P, 'avatar_changes_disabled', 'Prevent users from changing their avatar', false),

  group('can_invite_users_group', 'Who can send email invitations', 'role:members', false),
  group('create_multiuse_invite_group', 'Who can create reusable invitation links', 'role:administrators', false),
  group('can_create_public_channel_group', 'Who can create public channels', 'role:members', false),
  group('can_create_private_channel_group', 'Who can create private channels', 'role:members', false),
  group('can_create_web_public_channel_group', 'Who can create web-public channels', 'role:owners', false, {
    systemOnly: ['role:moderators', 'role:administrators', 'role:owners', 'role:nobody'],
  }),
  group('can_add_subscribers_group', 'Who can subscribe others to channels', 'role:members', false),
  group('can_set_topics_policy_group', 'Who can set a channel’s topics policy', 'role:members', true),
  group('can_set_delete_message_policy_group', 'Who can set a channel’s message deletion policy', 'role:moderators', false),
  group('can_delete_any_message_group', 'Who can delete any message', 'role:administrators', false),
  group('can_delete_own_message_group', 'Who can delete their own messages', 'role:everyone', true),
  group('can_move_messages_between_topics_group', 'Who can move messages to another topic', 'role:everyone', true),
  group('can_move_messages_between_channels_group', 'Who can move messages to another channel', 'role:members', false),
  group('can_resolve_topics_group', 'Who can resolve topics', 'role:everyone', true),
  group('can_mention_many_users_group', 'Who can notify a large number of users with a wildcard mention', 'role:administrators', true),
  group('direct_message_permission_group', 'Who can authorize a direct message conversation', 'role:everyone', true),
  group('direct_message_initiator_group', 'Who can start a direct message conversation', 'role:everyone', true),
  group('can_add_custom_emoji_group', 'Who can add custom emoji', 'role:members', false),
  group('can_create_groups', 'Who can create user groups', 'role:members', false),
  group('can_manage_all_groups', 'Who can administer all user groups', 'role:owners', false, { allowNobody: false }),
  group('can_create_bots_group', 'Who can create any bot', 'role:members', false),
  group('can_create_write_only_bots_group', 'Who can create bots that send messages into Zulip', 'role:members', false),
  group('can_summarize_topics_group', 'Who can use AI summaries', 'role:everyone', true),
  group('can_access_all_users_group', 'Who can view all other users in the organization', 'role:everyone', true, {
    allowNobody: false,
    systemOnly: ['role:everyone', 'role:members'],
  }),
  group('can_manage_billing_group', 'Who can manage plans and billing', 'role:administrators', false, { allowNobody: false }),
];

/** Zulip's names of the system groups, for showing defaults. */
export const SYSTEM_GROUP_LABELS: Record<string, string> = {
  'role:everyone': 'Everyone including guests',
  'role:internet': 'Everyone on the internet',
  'role:members': 'Everyone except guests',
  'role:fullmembers': 'Full members',
  'role:moderators': 'Moderators',
  'role:administrators': 'Administrators',
  'role:owners': 'Owners',
  'role:nobody': 'Nobody',
};
