import type { Config } from '../../config';
import type { StateSlice } from '../register/slice';
import { SERVER_GENERATION } from '../../realtime/persist';
import { availableVideoChatProviders } from '../calls/providers';
import { CHANNEL_PERMISSION_SETTINGS } from '../channels/constants';
import { serverEmojiDataUrl } from '../emoji/server-data';
import { GROUP_PERMISSION_SETTINGS } from '../groups/setting-values';
import { MAX_MESSAGE_LENGTH } from '../markdown';
import { EMPTY_TOPIC_DISPLAY_NAME, MAX_TOPIC_LENGTH } from '../messages/topics';
import { DEFAULT_EXTERNAL_ACCOUNTS } from '../profile-fields/field-types';
import { serverThumbnailFormats } from '../uploads/thumbnail-formats';
import { MIN_PASSWORD_GUESSES, MIN_PASSWORD_LENGTH } from '../accounts/password-policy';
import { placeholderDomain } from '../users/view';
import { REALM_GROUP_SPECS } from './catalog';

/**
 * The parts of POST /register's `realm` data that depend only on the server and its
 * configuration: limits, protocol timings, what the server offers. Built once per configuration.
 */
const REALM_LIMITS = {
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_topic_length: MAX_TOPIC_LENGTH,
  max_message_length: MAX_MESSAGE_LENGTH,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
  max_bulk_new_subscription_messages: 100,
} as const;

const PROTOCOL_TIMINGS = {
  server_presence_ping_interval_seconds: 60,
  server_presence_offline_threshold_seconds: 140,
  server_typing_started_expiry_period_milliseconds: 45000,
  server_typing_stopped_wait_period_milliseconds: 5000,
  server_typing_started_wait_period_milliseconds: 10000,
} as const;

/** Zulip's default Jitsi Meet server, used unless the organization names its own. */
export const SERVER_JITSI_URL = 'https://meet.jit.si';

/** The organization's GIF rating (realm_gif_rating_policy) choices, shared by the GIPHY and Tenor pickers. */
const GIF_RATING_OPTIONS = {
  disabled: { name: 'GIPHY integration disabled', id: 0 },
  y: { name: 'Allow GIFs rated Y (Very young audience)', id: 1 },
  g: { name: 'Allow GIFs rated G (General audience)', id: 2 },
  pg: { name: 'Allow GIFs rated PG (Parental guidance)', id: 3 },
  'pg-13': { name: 'Allow GIFs rated PG-13 (Parental guidance - under 13)', id: 4 },
  r: { name: 'Allow GIFs rated R (Restricted)', id: 5 },
};

/** Reasons a message may be reported for (Zulip's REPORT_MESSAGE_REASONS). */
const REPORT_MESSAGE_TYPES = [
  { key: 'spam', name: 'Spam' },
  { key: 'harassment', name: 'Harassment' },
  { key: 'inappropriate', name: 'Inappropriate content' },
  { key: 'norms', name: 'Violates community norms' },
  { key: 'other', name: 'Other reason' },
];

interface PermissionSettingInfo {
  require_system_group: boolean;
  allow_internet_group: boolean;
  allow_nobody_group: boolean;
  allow_everyone_group: boolean;
  default_group_name: string;
  default_for_system_groups: string | null;
  allowed_system_groups: string[];
}

const permissionInfo = (info: Partial<PermissionSettingInfo> & Pick<PermissionSettingInfo, 'allow_everyone_group' | 'default_group_name'>) => ({
  require_system_group: false,
  allow_internet_group: false,
  allow_nobody_group: true,
  default_for_system_groups: null,
  allowed_system_groups: [],
  ...info,
});

/** How each group-setting value may be set, from the features that define the settings. */
function supportedPermissionSettings() {
  const realm = Object.fromEntries(
    REALM_GROUP_SPECS.map((spec) => [
      spec.name,
      permissionInfo({
        require_system_group: spec.requireSystemGroup ?? false,
        allow_nobody_group: spec.allowNobody,
        allow_everyone_group: spec.allowEveryone,
        default_group_name: spec.default,
        allowed_system_groups: [...(spec.allowedSystemGroups ?? [])],
      }),
    ]),
  );
  const stream = Object.fromEntries(
    Object.entries(CHANNEL_PERMISSION_SETTINGS).map(([name, c]) => [
      name,
      permissionInfo({ allow_everyone_group: c.allowEveryone, default_group_name: c.defaultGroup }),
    ]),
  );
  const group = Object.fromEntries(
    Object.entries(GROUP_PERMISSION_SETTINGS).map(([name, c]) => [
      name,
      permissionInfo({
        require_system_group: c.requireSystemGroup,
        allow_internet_group: c.allowInternet,
        allow_nobody_group: c.allowNobody,
        allow_everyone_group: c.allowEveryone,
        default_group_name: c.defaultValue,
        allowed_system_groups: [...c.allowedSystemGroups],
      }),
    ]),
  );
  return { realm, stream, group };
}

function build(config: Config): Readonly<Record<string, unknown>> {
  return Object.freeze({
    ...REALM_LIMITS,
    ...PROTOCOL_TIMINGS,
    realm_url: config.externalUrl,
    realm_uri: config.externalUrl,
    realm_bot_domain: placeholderDomain(config),
    realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
    realm_icon_source: 'G',
    realm_logo_url: `${config.externalUrl}/static/images/logo/zulip-org-logo.svg?version=0`,
    realm_logo_source: 'D',
    realm_night_logo_url: `${config.externalUrl}/static/images/logo/zulip-org-logo.svg?version=0`,
    realm_night_logo_source: 'D',
    // Email and password sign-in, plus the directory and single sign-on when configured.
    realm_authentication_methods: {
      Email: { enabled: true, available: true },
      ...(config.ldap ? { LDAP: { enabled: true, available: true } } : {}),
      ...(config.oidc ? { 'OpenID Connect': { enabled: true, available: true } } : {}),
    },
    realm_email_auth_enabled: true,
    realm_password_auth_enabled: true,
    realm_available_video_chat_providers: availableVideoChatProviders(config),
    realm_default_external_accounts: DEFAULT_EXTERNAL_ACCOUNTS,
    realm_plan_type: 1,
    // Whether owners may read members' private content without their consent (exports of all
    // private data): the operator's choice, as Zulip's command-line setting, off by default.
    realm_owner_full_content_access: config.ownerFullContentAccess,
    realm_upload_quota_mib: config.uploadQuotaMib,
    realm_push_notifications_enabled_end_timestamp: null,
    zulip_plan_is_not_limited: true,
    upgrade_text_for_wide_organization_logo: 'Available on Zulip Cloud Standard. Upgrade to access.',
    development_environment: false,
    server_generation: SERVER_GENERATION,
    server_needs_upgrade: false,
    // Digest emails go out when the organization enables them (notifications/digest.ts); there is
    // no spectator access.
    settings_send_digest_emails: true,
    server_web_public_streams_enabled: false,
    server_thumbnail_formats: serverThumbnailFormats(),
    server_avatar_changes_disabled: false,
    server_name_changes_disabled: false,
    server_inline_image_preview: true,
    server_inline_url_embed_preview: false,
    server_can_summarize_topics: false,
    server_jitsi_server_url: SERVER_JITSI_URL,
    server_min_deactivated_realm_deletion_days: 14,
    server_max_deactivated_realm_deletion_days: null,
    server_report_message_types: REPORT_MESSAGE_TYPES,
    server_supported_permission_settings: supportedPermissionSettings(),
    server_emoji_data_url: serverEmojiDataUrl(config.externalUrl),
    gif_rating_policy_options: GIF_RATING_OPTIONS,
    password_min_length: MIN_PASSWORD_LENGTH,
    password_max_length: 1024,
    password_min_guesses: MIN_PASSWORD_GUESSES,
    max_file_upload_size_mib: config.maxFileUploadSizeMib,
    max_avatar_file_size_mib: 5,
    max_icon_file_size_mib: 5,
    max_logo_file_size_mib: 5,
    event_queue_longpoll_timeout_seconds: config.heartbeatSeconds + 30,
  });
}

const byConfig = new WeakMap<Config, Readonly<Record<string, unknown>>>();

export function serverRealmInfo(config: Config): Readonly<Record<string, unknown>> {
  let info = byConfig.get(config);
  if (!info) byConfig.set(config, (info = build(config)));
  return info;
}

/** The Tenor key is meant to be public, as GIPHY's: clients call Tenor's API with it themselves. */
export const tenorSlice: StateSlice = {
  fetchTypes: ['tenor'],
  fetch: async (deps) => ({ tenor_api_key: deps.config.tenorApiKey }),
};
