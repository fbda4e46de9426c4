import { Knex } from 'knex';

/**
 * Personal preference settings (one row per user), the organization's defaults for new users (one
 * row per realm), and presence (one row per user plus a per-realm update counter).
 *
 * The setting columns are a frozen copy of the catalog at the time of this migration: later
 * settings get their own migration.
 */
type Column = [name: string, type: 'bool' | 'int' | 'text', fallback: boolean | number | string];

const SETTING_COLUMNS: Column[] = [
  ['color_scheme', 'int', 1],
  ['default_language', 'text', 'en'],
  ['web_home_view', 'text', 'inbox'],
  ['demote_inactive_streams', 'int', 1],
  ['emojiset', 'text', 'google'],
  ['enable_drafts_synchronization', 'bool', true],
  ['enter_sends', 'bool', false],
  ['fluid_layout_width', 'bool', false],
  ['high_contrast_mode', 'bool', false],
  ['left_side_userlist', 'bool', false],
  ['starred_message_counts', 'bool', true],
  ['translate_emoticons', 'bool', false],
  ['twenty_four_hour_time', 'bool', false],
  ['desktop_icon_count_display', 'int', 1],
  ['email_notifications_batching_period_seconds', 'int', 120],
  ['enable_desktop_notifications', 'bool', true],
  ['enable_digest_emails', 'bool', true],
  ['enable_login_emails', 'bool', true],
  ['enable_marketing_emails', 'bool', true],
  ['enable_offline_email_notifications', 'bool', true],
  ['enable_offline_push_notifications', 'bool', true],
  ['enable_online_push_notifications', 'bool', true],
  ['enable_sounds', 'bool', true],
  ['enable_stream_audible_notifications', 'bool', false],
  ['enable_stream_desktop_notifications', 'bool', false],
  ['enable_stream_email_notifications', 'bool', false],
  ['enable_stream_push_notifications', 'bool', false],
  ['message_content_in_email_notifications', 'bool', true],
  ['notification_sound', 'text', 'zulip'],
  ['pm_content_in_desktop_notifications', 'bool', true],
  ['presence_enabled', 'bool', true],
  ['realm_name_in_email_notifications_policy', 'int', 1],
  ['wildcard_mentions_notify', 'bool', true],
  ['display_emoji_reaction_users', 'bool', true],
  ['email_address_visibility', 'int', 1],
  ['web_escape_navigates_to_home_view', 'bool', true],
  ['receives_typing_notifications', 'bool', true],
  ['send_private_typing_notifications', 'bool', true],
  ['send_read_receipts', 'bool', true],
  ['send_stream_typing_notifications', 'bool', true],
  ['allow_private_data_export', 'bool', false],
  ['web_mark_read_on_scroll_policy', 'int', 1],
  ['web_channel_default_view', 'int', 1],
  ['user_list_style', 'int', 3],
  ['web_animate_image_previews', 'text', 'on_hover'],
  ['web_stream_unreads_count_display_policy', 'int', 2],
  ['web_font_size_px', 'int', 16],
  ['web_line_height_percent', 'int', 140],
  ['web_navigate_to_sent_message', 'bool', true],
  ['web_suggest_update_timezone', 'bool', true],
  ['hide_ai_features', 'bool', false],
  ['resolved_topic_notice_auto_read_policy', 'text', 'except_followed'],
  ['enable_followed_topic_desktop_notifications', 'bool', true],
  ['enable_followed_topic_email_notifications', 'bool', true],
  ['enable_followed_topic_push_notifications', 'bool', true],
  ['enable_followed_topic_audible_notifications', 'bool', true],
  ['enable_followed_topic_wildcard_mentions_notify', 'bool', true],
  ['automatically_follow_topics_policy', 'int', 3],
  ['automatically_unmute_topics_in_muted_streams_policy', 'int', 2],
  ['automatically_follow_topics_where_mentioned', 'bool', true],
];

// Kept on the users row, where the user presenters already read it.
const ON_USERS_ROW = new Set(['email_address_visibility']);

function addColumns(t: Knex.CreateTableBuilder, columns: Column[]): void {
  for (const [name, type, fallback] of columns) {
    const column = type === 'bool' ? t.boolean(name) : type === 'int' ? t.integer(name) : t.text(name);
    column.notNullable().defaultTo(fallback);
  }
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realm_user_default_settings', (t) => {
    t.integer('realm_id').primary().references('realms.id').onDelete('CASCADE');
    addColumns(t, SETTING_COLUMNS);
  });

  await knex.schema.createTable('user_settings', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    addColumns(
      t,
      SETTING_COLUMNS.filter(([name]) => !ON_USERS_ROW.has(name)),
    );
  });

  // Existing organizations and accounts start from Zulip's defaults (the column defaults).
  await knex.raw('INSERT INTO realm_user_default_settings (realm_id) SELECT id FROM realms');
  await knex.raw('INSERT INTO user_settings (user_id, realm_id) SELECT id, realm_id FROM users');

  // Each presence write takes the next value of its realm's counter; clients ask for rows changed
  // since the last value they saw. Updating this row in the same statement as the presence row
  // makes the ids commit in order, so a poll never skips a write that commits late.
  await knex.schema.createTable('presence_sequences', (t) => {
    t.integer('realm_id').primary().references('realms.id').onDelete('CASCADE');
    t.bigInteger('last_update_id').notNullable().defaultTo(0);
  });

  await knex.schema.createTable('user_presence', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    // Null until the user first reports being active.
    t.timestamp('last_active_time', { useTz: true }).nullable();
    t.timestamp('last_connected_time', { useTz: true }).notNullable();
    t.bigInteger('last_update_id').notNullable();
  });
  await knex.raw('CREATE INDEX user_presence_realm_update_id ON user_presence (realm_id, last_update_id)');
  await knex.raw('CREATE INDEX user_presence_realm_connected ON user_presence (realm_id, last_connected_time)');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('user_presence');
  await knex.schema.dropTableIfExists('presence_sequences');
  await knex.schema.dropTableIfExists('user_settings');
  await knex.schema.dropTableIfExists('realm_user_default_settings');
}
