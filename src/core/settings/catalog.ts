/**
 * Every personal preference setting: its type, the values it accepts, its default (Zulip's), which
 * legacy event family reports it to clients without the user_settings_object capability, and
 * whether administrators may set it as an organization default for new users.
 *
 * One list drives storage, parameter validation (REST and GraphQL), events and register state, so
 * adding a setting means adding a line here and a column in a migration.
 */
export type SettingValue = boolean | number | string;

export type SettingKind = 'bool' | 'int' | 'string';

export interface SettingSpec {
  name: string;
  kind: SettingKind;
  default: SettingValue;
  /** The only values accepted; anything else is "Invalid <name>". */
  choices?: readonly SettingValue[];
  /** Inclusive bounds for free integers ("<name> is too small/large"). */
  range?: { min: number; max: number };
  /** Settings older than feature level 89 are also reported through the legacy event types. */
  legacy?: 'display' | 'notification';
  /** Part of PATCH /realm/user_settings_defaults (others are personal only, e.g. login emails). */
  realmDefault: boolean;
}

const SMALLINT = { min: 0, max: 32767 };

const bool = (name: string, value: boolean, extra: Partial<SettingSpec> = {}): SettingSpec => ({
  name,
  kind: 'bool',
  default: value,
  realmDefault: true,
  ...extra,
});

const oneOf = (name: string, choices: readonly SettingValue[], value: SettingValue, extra: Partial<SettingSpec> = {}): SettingSpec => ({
  name,
  kind: typeof value === 'number' ? 'int' : 'string',
  default: value,
  choices,
  realmDefault: true,
  ...extra,
});

const display = { legacy: 'display' } as const;
const notification = { legacy: 'notification' } as const;
const personal = { realmDefault: false } as const;

/** Names of Zulip's sounds (served by clients); "none" silences notifications. */
export const NOTIFICATION_SOUNDS = [
  'ascend',
  'beep_boop',
  'bink',
  'bright',
  'brlip',
  'chime',
  'deep tom',
  'ding',
  'double tap',
  'down',
  'dry bongos',
  'dutdut',
  'fast ascend',
  'flute',
  'friendly',
  'kick roll',
  'loud tintong',
  'metallic snare',
  'pan',
  'shaker',
  'simple',
  'stairs',
  'subtle',
  'swish',
  'tintong',
  'up',
  'wood block',
  'zaping',
  'zing',
  'zulip',
] as const;

export const EMOJISET_CHOICES = [
  { key: 'google', text: 'Google' },
  { key: 'twitter', text: 'Twitter' },
  { key: 'text', text: 'Plain text' },
] as const;

/** Interface languages clients may pick; the name is reported with default_language events. */
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

/** Longest email batching period a user may choose: one week. */
export const MAX_EMAIL_BATCHING_SECONDS = 7 * 24 * 60 * 60;

export const SETTINGS: readonly SettingSpec[] = [
  // Display settings that existed before the user_settings event.
  oneOf('color_scheme', [1, 2, 3], 1, display),
  oneOf('default_language', Object.keys(LANGUAGES), 'en', { ...display, ...personal }),
  oneOf('web_home_view', ['recent', 'inbox', 'all_messages'], 'inbox', display),
  oneOf('demote_inactive_streams', [1, 2, 3], 1, display),
  oneOf(
    'emojiset',
    EMOJISET_CHOICES.map((e) => e.key),
    'google',
    display,
  ),
  bool('enable_drafts_synchronization', true, display),
  bool('enter_sends', false, display),
  bool('fluid_layout_width', false, display),
  bool('high_contrast_mode', false, display),
  bool('left_side_userlist', false, display),
  bool('starred_message_counts', true, display),
  bool('translate_emoticons', false, display),
  bool('twenty_four_hour_time', false, display),

  // Notification settings that existed before the user_settings event.
  oneOf('desktop_icon_count_display', [1, 2, 3, 4], 1, notification),
  { name: 'email_notifications_batching_period_seconds', kind: 'int', default: 120, realmDefault: true, ...notification },
  bool('enable_desktop_notifications', true, notification),
  bool('enable_digest_emails', true, notification),
  bool('enable_login_emails', true, { ...notification, ...personal }),
  bool('enable_marketing_emails', true, { ...notification, ...personal }),
  bool('enable_offline_email_notifications', true, notification),
  bool('enable_offline_push_notifications', true, notification),
  bool('enable_online_push_notifications', true, notification),
  bool('enable_sounds', true, notification),
  bool('enable_stream_audible_notifications', false, notification),
  bool('enable_stream_desktop_notifications', false, notification),
  bool('enable_stream_email_notifications', false, notification),
  bool('enable_stream_push_notifications', false, notification),
  bool('message_content_in_email_notifications', true, notification),
  { name: 'notification_sound', kind: 'string', default: 'zulip', realmDefault: true, ...notification },
  bool('pm_content_in_desktop_notifications', true, notification),
  bool('presence_enabled', true, notification),
  oneOf('realm_name_in_email_notifications_policy', [1, 2, 3], 1, notification),
  bool('wildcard_mentions_notify', true, notification),

  // Settings reported only through user_settings events.
  bool('display_emoji_reaction_users', true),
  oneOf('email_address_visibility', [1, 2, 3, 4, 5], 1),
  bool('web_escape_navigates_to_home_view', true),
  bool('receives_typing_notifications', true),
  bool('send_private_typing_notifications', true),
  bool('send_read_receipts', true),
  bool('send_stream_typing_notifications', true),
  bool('allow_private_data_export', false, personal),
  oneOf('web_mark_read_on_scroll_policy', [1, 2, 3], 1),
  oneOf('web_channel_default_view', [1, 2, 3, 4], 1),
  oneOf('user_list_style', [1, 2, 3], 3),
  oneOf('web_animate_image_previews', ['always', 'on_hover', 'never'], 'on_hover'),
  oneOf('web_stream_unreads_count_display_policy', [1, 2, 3], 2),
  { name: 'web_font_size_px', kind: 'int', default: 16, range: SMALLINT, realmDefault: true },
  { name: 'web_line_height_percent', kind: 'int', default: 140, range: SMALLINT, realmDefault: true },
  bool('web_navigate_to_sent_message', true),
  bool('web_suggest_update_timezone', true),
  bool('web_left_sidebar_unreads_count_summary', true),
  bool('web_left_sidebar_show_channel_folders', true),
  bool('web_inbox_show_channel_folders', true),
  bool('hide_ai_features', false),
  oneOf('resolved_topic_notice_auto_read_policy', ['always', 'except_followed', 'never'], 'except_followed'),
  bool('enable_followed_topic_desktop_notifications', true),
  bool('enable_followed_topic_email_notifications', true),
  bool('enable_followed_topic_push_notifications', true),
  bool('enable_followed_topic_audible_notifications', true),
  bool('enable_followed_topic_wildcard_mentions_notify', true),
  oneOf('automatically_follow_topics_policy', [1, 2, 3, 4], 3),
  oneOf('automatically_unmute_topics_in_muted_streams_policy', [1, 2, 3, 4], 2),
  bool('automatically_follow_topics_where_mentioned', true),
];

export const SETTINGS_BY_NAME: ReadonlyMap<string, SettingSpec> = new Map(SETTINGS.map((s) => [s.name, s]));

/** Settings an administrator may set as defaults for new users. */
export const REALM_DEFAULT_SETTINGS = SETTINGS.filter((s) => s.realmDefault);

/**
 * email_address_visibility is kept on the users row (the user presenters read it there); every other
 * personal setting lives in user_settings.
 */
export const SETTINGS_ON_USERS_ROW = new Set(['email_address_visibility']);

export type SettingsMap = Record<string, SettingValue>;

export function zulipDefaults(): SettingsMap {
  return Object.fromEntries(SETTINGS.map((s) => [s.name, s.default]));
}

/** Values that accompany the settings in register state, for settings screens. */
export function settingChoices() {
  return {
    emojiset_choices: EMOJISET_CHOICES.map((e) => ({ ...e })),
    available_notification_sounds: [...NOTIFICATION_SOUNDS],
  };
}
