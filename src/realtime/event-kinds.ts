/**
 * Every kind of event Parley delivers, with the top-level fields it may carry. REST event queues
 * and the GraphQL `events` subscription are both defined by this table: `uow.emit` refuses a kind
 * not listed here, and the GraphQL event types are generated from it (src/schema/event-types.ts),
 * so a kind cannot reach one API and not the other.
 *
 * Field types: scalars as named; `JSON` for objects and values whose type varies by property.
 * Every field is optional, since which ones appear depends on `op`.
 */
export type EventFieldType = 'Int' | 'Float' | 'String' | 'Boolean' | 'JSON' | '[Int]' | '[String]';

export interface EventKindDefinition {
  description: string;
  fields: Record<string, EventFieldType>;
}

export const EVENT_KINDS = {
  alert_words: { description: 'Your alert words changed.', fields: { alert_words: '[String]' } },
  attachment: {
    description: 'One of your uploaded files was added, changed or removed.',
    fields: { op: 'String', attachment: 'JSON', upload_space_used: 'Float' },
  },
  default_streams: { description: 'The default channels for new users changed; the full list.', fields: { default_streams: 'JSON' } },
  realm_bot: { description: 'A bot you administer was added, changed or removed.', fields: { op: 'String', bot: 'JSON' } },
  realm_export: { description: "The organization's data exports changed (administrators); the full list.", fields: { exports: 'JSON' } },
  realm_domains: {
    description: 'The email domains allowed for sign-up changed.',
    fields: { op: 'String', realm_domain: 'JSON', domain: 'String' },
  },
  reminders: { description: 'Your message reminders changed.', fields: { op: 'String', reminders: 'JSON', reminder_id: 'Int' } },
  scheduled_messages: {
    description: 'Your scheduled messages changed.',
    fields: { op: 'String', scheduled_messages: 'JSON', scheduled_message: 'JSON', scheduled_message_id: 'Int' },
  },
  channel_folder: {
    description: 'A channel folder was added, changed or the folders reordered.',
    fields: { op: 'String', channel_folder: 'JSON', channel_folder_id: 'Int', data: 'JSON', order: '[Int]' },
  },
  custom_profile_fields: { description: 'The custom profile fields changed; the full list.', fields: { fields: 'JSON' } },
  delete_message: {
    description: 'Messages were deleted.',
    fields: { message_id: 'Int', message_ids: '[Int]', message_type: 'String', stream_id: 'Int', topic: 'String' },
  },
  device: {
    description: 'One of your client devices was added, changed (its push registration) or removed.',
    fields: {
      op: 'String',
      device_id: 'Int',
      push_key_id: 'Float',
      push_token_id: 'String',
      pending_push_token_id: 'String',
      push_token_last_updated_timestamp: 'Float',
      push_registration_error_code: 'String',
    },
  },
  drafts: { description: 'Your drafts changed.', fields: { op: 'String', drafts: 'JSON', draft: 'JSON', draft_id: 'Int' } },
  has_zoom_token: { description: 'You connected or disconnected your Zoom account (Zoom per-user OAuth app).', fields: { value: 'JSON' } },
  invites_changed: { description: 'The pending invitations changed; fetch them again.', fields: {} },
  message: { description: 'A new message you received.', fields: { message: 'JSON', flags: '[String]' } },
  muted_topics: { description: 'Your muted topics (legacy form of user_topic).', fields: { muted_topics: 'JSON' } },
  muted_users: { description: 'The users you muted.', fields: { muted_users: 'JSON' } },
  navigation_view: {
    description: 'Your navigation views changed.',
    fields: { op: 'String', navigation_view: 'JSON', fragment: 'String', data: 'JSON' },
  },
  presence: {
    description: "A user's presence changed.",
    fields: { user_id: 'Int', email: 'String', server_timestamp: 'Float', presence: 'JSON', presences: 'JSON' },
  },
  reaction: {
    description: 'An emoji reaction was added to or removed from a message.',
    fields: { op: 'String', message_id: 'Int', user_id: 'Int', emoji_name: 'String', emoji_code: 'String', reaction_type: 'String' },
  },
  realm: {
    description: 'Organization settings changed.',
    fields: { op: 'String', property: 'String', value: 'JSON', data: 'JSON', extra_data: 'JSON', realm_id: 'Int' },
  },
  realm_emoji: { description: 'The custom emoji changed; the full set.', fields: { op: 'String', realm_emoji: 'JSON' } },
  realm_filters: { description: 'Linkifiers in the legacy form.', fields: { realm_filters: 'JSON' } },
  realm_linkifiers: { description: 'The linkifiers changed; the full list.', fields: { realm_linkifiers: 'JSON' } },
  realm_playgrounds: { description: 'The code playgrounds changed; the full list.', fields: { realm_playgrounds: 'JSON' } },
  realm_user: { description: 'An account was added, changed or removed.', fields: { op: 'String', person: 'JSON' } },
  realm_user_settings_defaults: {
    description: 'A default setting for new users changed.',
    fields: { op: 'String', property: 'String', value: 'JSON' },
  },
  saved_snippets: {
    description: 'Your saved snippets changed.',
    fields: { op: 'String', saved_snippet: 'JSON', saved_snippet_id: 'Int' },
  },
  stream: {
    description: 'A channel was created, changed, archived or deleted.',
    fields: {
      op: 'String',
      streams: 'JSON',
      stream_ids: '[Int]',
      stream_id: 'Int',
      name: 'String',
      property: 'String',
      value: 'JSON',
      rendered_description: 'String',
      history_public_to_subscribers: 'Boolean',
      is_web_public: 'Boolean',
    },
  },
  submessage: {
    description: "A submessage was added to a message: an action on its widget (a poll's vote, a checked task).",
    fields: { msg_type: 'String', content: 'String', message_id: 'Int', sender_id: 'Int', submessage_id: 'Int' },
  },
  subscription: {
    description: 'Your subscriptions, or the subscribers of channels you can see, changed.',
    fields: { op: 'String', subscriptions: 'JSON', stream_id: 'Int', stream_ids: '[Int]', user_ids: '[Int]', property: 'String', value: 'JSON' },
  },
  typing: {
    description: 'Someone started or stopped typing a message.',
    fields: { op: 'String', message_type: 'String', sender: 'JSON', recipients: 'JSON', stream_id: 'Int', topic: 'String' },
  },
  typing_edit_message: {
    description: 'Someone started or stopped editing a message.',
    fields: { op: 'String', sender_id: 'Int', message_id: 'Int', recipient: 'JSON' },
  },
  update_message: {
    description: 'Messages were edited or moved.',
    fields: {
      user_id: 'Int',
      rendering_only: 'Boolean',
      message_id: 'Int',
      message_ids: '[Int]',
      flags: '[String]',
      edit_timestamp: 'Int',
      stream_name: 'String',
      stream_id: 'Int',
      new_stream_id: 'Int',
      propagate_mode: 'String',
      orig_subject: 'String',
      subject: 'String',
      topic_links: 'JSON',
      orig_content: 'String',
      orig_rendered_content: 'String',
      content: 'String',
      rendered_content: 'String',
      is_me_message: 'Boolean',
    },
  },
  update_message_flags: {
    description: 'Your flags on messages changed.',
    fields: { op: 'String', operation: 'String', flag: 'String', messages: '[Int]', all: 'Boolean', message_details: 'JSON' },
  },
  user_group: {
    description: 'A user group was added, changed or removed, or its members changed.',
    fields: { op: 'String', group: 'JSON', group_id: 'Int', data: 'JSON', user_ids: '[Int]', direct_subgroup_ids: '[Int]' },
  },
  user_settings: { description: 'One of your settings changed.', fields: { op: 'String', property: 'String', value: 'JSON', language_name: 'String' } },
  user_status: {
    description: "A user's status changed.",
    fields: { user_id: 'Int', away: 'Boolean', status_text: 'String', emoji_name: 'String', emoji_code: 'String', reaction_type: 'String' },
  },
  user_topic: {
    description: 'Your visibility policy for a topic changed.',
    fields: { stream_id: 'Int', topic_name: 'String', last_updated: 'Int', visibility_policy: 'Int' },
  },
} as const satisfies Record<string, EventKindDefinition>;

/**
 * Kinds only REST event queues carry, about the queue itself rather than the organization: a
 * GraphQL subscription is kept alive by its socket and ends when the server restarts.
 */
export const QUEUE_ONLY_KINDS = ['heartbeat', 'restart'] as const;

export type EventKind = keyof typeof EVENT_KINDS;
export type AnyEventKind = EventKind | (typeof QUEUE_ONLY_KINDS)[number];

export const eventKinds = Object.keys(EVENT_KINDS) as EventKind[];

const known = new Set<string>(eventKinds);

/**
 * Refuses to emit an event kind this table does not list: it would reach REST queues with no
 * GraphQL type to carry it. A programming error, so it fails the action (and every test of it).
 */
export function assertEventKind(type: string): void {
  if (!known.has(type)) throw new Error(`event kind ${type} is not listed in src/realtime/event-kinds.ts`);
}
