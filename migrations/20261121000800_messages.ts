import { Knex } from 'knex';

/**
 * Messages and everything hanging off them: who received each message (with personal flags),
 * edit history, reactions, per-topic visibility preferences, and the organization's message
 * settings.
 *
 * Sized for millions of rows: `user_messages` is the largest table (one row per recipient per
 * message) and carries partial indexes for the flag queries clients run constantly (unread,
 * starred, mentions, direct messages), as Zulip does; `messages` is indexed for the narrows
 * clients open (channel, channel + topic, conversation, sender) and for full-text search.
 */
export async function up(knex: Knex): Promise<void> {
  // One row per conversation a message can be addressed to: a channel, or a set of users talking
  // directly. Its id is the message's `recipient_id`.
  await knex.schema.createTable('message_recipients', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('stream_id').nullable().references('streams.id').onDelete('CASCADE');
    // Direct messages: the participants' ids, ascending, joined by commas ("3,8,12").
    t.text('dm_key').nullable();
    t.specificType('user_ids', 'integer[]').nullable();
  });
  await knex.raw('CREATE UNIQUE INDEX message_recipients_stream ON message_recipients (stream_id) WHERE stream_id IS NOT NULL');
  await knex.raw('CREATE UNIQUE INDEX message_recipients_dm ON message_recipients (realm_id, dm_key) WHERE dm_key IS NOT NULL');

  await knex.schema.createTable('messages', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('sender_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('recipient_id').notNullable().references('message_recipients.id');
    // Set for channel messages; direct messages have dm_key instead.
    t.integer('stream_id').nullable().references('streams.id').onDelete('CASCADE');
    t.text('dm_key').nullable();
    t.string('topic', 60).notNullable().defaultTo('');
    t.text('content').notNullable();
    t.text('rendered_content').notNullable();
    t.string('sending_client', 30).notNullable().defaultTo('Unspecified');
    t.timestamp('date_sent', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // Any edit or move; edit history rows give the details.
    t.timestamp('last_edit_time', { useTz: true }).nullable();
    t.boolean('has_link').notNullable().defaultTo(false);
    t.boolean('has_image').notNullable().defaultTo(false);
    t.boolean('has_attachment').notNullable().defaultTo(false);
  });
  await knex.raw("ALTER TABLE messages ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english', topic || ' ' || rendered_content)) STORED");
  await knex.raw('CREATE INDEX messages_search ON messages USING gin (search_tsv)');
  // Channel + topic narrows (topics compare without letter case, as in Zulip).
  await knex.raw('CREATE INDEX messages_stream_topic ON messages (stream_id, lower(topic), id) WHERE stream_id IS NOT NULL');
  // Channel narrows, and recent traffic per channel.
  await knex.raw('CREATE INDEX messages_stream ON messages (stream_id, id) WHERE stream_id IS NOT NULL');
  await knex.raw('CREATE INDEX messages_stream_date ON messages (stream_id, date_sent) WHERE stream_id IS NOT NULL');
  // Direct-message conversations.
  await knex.raw('CREATE INDEX messages_recipient ON messages (recipient_id, id)');
  await knex.raw('CREATE INDEX messages_sender ON messages (sender_id, id)');

  // Who received a message, with their personal flags as a bitmask (see core/messages/flags.ts).
  await knex.schema.createTable('user_messages', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('message_id').notNullable().references('messages.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable();
    t.integer('flags').notNullable().defaultTo(0);
    t.primary(['user_id', 'message_id']);
  });
  await knex.raw('CREATE INDEX user_messages_message ON user_messages (message_id)');
  // Partial indexes: each covers only the rows with that flag state, so "my unread messages" or
  // "my starred messages" reads a small index in message order.
  await knex.raw('CREATE INDEX user_messages_unread ON user_messages (user_id, message_id) WHERE (flags & 1) = 0');
  await knex.raw('CREATE INDEX user_messages_starred ON user_messages (user_id, message_id) WHERE (flags & 2) <> 0');
  await knex.raw('CREATE INDEX user_messages_mentioned ON user_messages (user_id, message_id) WHERE (flags & 120) <> 0');
  await knex.raw('CREATE INDEX user_messages_private ON user_messages (user_id, message_id) WHERE (flags & 2048) <> 0');

  // Edit history: one row per edit with the values before it (and the new topic/channel).
  await knex.schema.createTable('message_edits', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('message_id').notNullable().references('messages.id').onDelete('CASCADE');
    t.integer('user_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('edit_time', { useTz: true }).notNullable();
    t.text('prev_content').nullable();
    t.text('prev_rendered_content').nullable();
    t.string('prev_topic', 60).nullable();
    t.string('topic', 60).nullable();
    t.integer('prev_stream_id').nullable();
    t.integer('stream_id').nullable();
    t.index(['message_id', 'id']);
  });

  await knex.schema.createTable('reactions', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('message_id').notNullable().references('messages.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('emoji_name', 100).notNullable();
    t.string('emoji_code', 100).notNullable();
    t.string('reaction_type', 30).notNullable();
    t.unique(['message_id', 'user_id', 'emoji_code', 'reaction_type']);
  });

  // Personal visibility preference per topic: 1 muted, 2 unmuted, 3 followed (0 is never stored).
  await knex.schema.createTable('user_topics', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('stream_id').notNullable().references('streams.id').onDelete('CASCADE');
    t.string('topic_name', 60).notNullable();
    t.smallint('visibility_policy').notNullable();
    t.timestamp('last_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX user_topics_unique ON user_topics (user_id, stream_id, lower(topic_name))');
  await knex.raw('CREATE INDEX user_topics_topic ON user_topics (stream_id, lower(topic_name))');

  // The organization's message settings; without a row Zulip's defaults apply (realm-settings.ts).
  await knex.schema.createTable('realm_message_settings', (t) => {
    t.integer('realm_id').primary().references('realms.id').onDelete('CASCADE');
    t.boolean('allow_message_editing').notNullable().defaultTo(true);
    t.integer('message_content_edit_limit_seconds').nullable().defaultTo(600);
    t.integer('message_content_delete_limit_seconds').nullable().defaultTo(600);
    t.integer('move_messages_within_stream_limit_seconds').nullable().defaultTo(604800);
    t.integer('move_messages_between_streams_limit_seconds').nullable().defaultTo(604800);
    // 1 all, 2 moves only, 3 none.
    t.smallint('message_edit_history_visibility_policy').notNullable().defaultTo(1);
    // Group-setting values; null means the default system group.
    t.jsonb('can_delete_any_message_group').nullable();
    t.jsonb('can_delete_own_message_group').nullable();
    t.jsonb('can_move_messages_between_channels_group').nullable();
    t.jsonb('can_move_messages_between_topics_group').nullable();
    t.jsonb('can_resolve_topics_group').nullable();
    t.jsonb('can_mention_many_users_group').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('realm_message_settings');
  await knex.schema.dropTableIfExists('user_topics');
  await knex.schema.dropTableIfExists('reactions');
  await knex.schema.dropTableIfExists('message_edits');
  await knex.schema.dropTableIfExists('user_messages');
  await knex.schema.dropTableIfExists('messages');
  await knex.schema.dropTableIfExists('message_recipients');
}
