import { SERVER_GENERATION } from '../../realtime/persist';
import type { StateSlice } from '../../realtime/state';
import { MAX_MESSAGE_LENGTH } from '../markdown';
import { EMPTY_TOPIC_DISPLAY_NAME, MAX_TOPIC_LENGTH } from '../messages/topics';
import { MIN_PASSWORD_LENGTH } from '../users/validation';
import { placeholderDomain } from '../users/view';
import { getRealm, realmIconUrl } from './queries';

/**
 * Limits and server parameters clients read from POST /register: lengths they must respect, timing
 * of the presence and typing protocols, and the organization's identity. Organization settings kept
 * elsewhere add their own `realm` slices next to this one.
 */
export const REALM_LIMITS = {
  max_stream_name_length: 60,
  max_stream_description_length: 1024,
  max_topic_length: MAX_TOPIC_LENGTH,
  max_message_length: MAX_MESSAGE_LENGTH,
  max_channel_folder_name_length: 60,
  max_channel_folder_description_length: 1024,
  max_bulk_new_subscription_messages: 100,
} as const;

export const PROTOCOL_TIMINGS = {
  server_presence_ping_interval_seconds: 60,
  server_presence_offline_threshold_seconds: 140,
  server_typing_started_expiry_period_milliseconds: 45000,
  server_typing_stopped_wait_period_milliseconds: 5000,
  server_typing_started_wait_period_milliseconds: 10000,
} as const;

export const realmSlice: StateSlice = {
  fetchTypes: ['realm'],
  async fetch(deps) {
    const realm = await getRealm(deps);
    return {
      realm_name: realm.name,
      realm_description: realm.description,
      realm_date_created: Math.floor(realm.date_created.getTime() / 1000),
      realm_url: deps.config.externalUrl,
      realm_uri: deps.config.externalUrl,
      realm_icon_url: realmIconUrl(realm),
      realm_icon_source: 'G',
      realm_bot_domain: placeholderDomain(deps.config),
      realm_empty_topic_display_name: EMPTY_TOPIC_DISPLAY_NAME,
      realm_topics_policy: 'allow_empty_topic',
      realm_mandatory_topics: false,
      realm_email_auth_enabled: true,
      realm_password_auth_enabled: true,
      realm_push_notifications_enabled: false,
      realm_push_notifications_enabled_end_timestamp: null,
      realm_is_zephyr_mirror_realm: false,
      realm_plan_type: 1,
      zulip_plan_is_not_limited: true,
      development_environment: false,
      server_generation: SERVER_GENERATION,
      server_needs_upgrade: false,
      server_web_public_streams_enabled: false,
      server_avatar_changes_disabled: false,
      server_name_changes_disabled: false,
      server_inline_image_preview: true,
      server_inline_url_embed_preview: false,
      password_min_length: MIN_PASSWORD_LENGTH,
      password_max_length: 1024,
      event_queue_longpoll_timeout_seconds: deps.config.heartbeatSeconds + 30,
      ...REALM_LIMITS,
      ...PROTOCOL_TIMINGS,
    };
  },
  apply(state, event) {
    if (event.type !== 'realm' || !('realm_name' in state)) return;
    if (event.op === 'update' && typeof event.property === 'string') {
      state[`realm_${event.property}`] = event.value;
    } else if (event.op === 'update_dict' && event.data && typeof event.data === 'object') {
      for (const [key, value] of Object.entries(event.data as Record<string, unknown>)) state[`realm_${key}`] = value;
    }
  },
};
