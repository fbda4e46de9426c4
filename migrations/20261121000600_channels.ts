import { Knex } from 'knex';

/**
 * Channels (Zulip's "streams") and users' subscriptions to them. Permission settings are stored as
 * group-setting values: a user group id, or {direct_members, direct_subgroups}.
 */
const GROUP_SETTINGS = [
  'can_add_subscribers_group',
  'can_administer_channel_group',
  'can_create_topic_group',
  'can_delete_any_message_group',
  'can_delete_own_message_group',
  'can_move_messages_out_of_channel_group',
  'can_move_messages_within_channel_group',
  'can_remove_subscribers_group',
  'can_send_message_group',
  'can_subscribe_group',
  'can_resolve_topics_group',
];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('streams', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('name', 60).notNullable();
    t.string('description', 1024).notNullable().defaultTo('');
    t.text('rendered_description').notNullable().defaultTo('');
    t.boolean('invite_only').notNullable().defaultTo(false);
    t.boolean('is_web_public').notNullable().defaultTo(false);
    t.boolean('history_public_to_subscribers').notNullable().defaultTo(true);
    t.integer('folder_id').nullable().references('channel_folders.id').onDelete('SET NULL');
    t.string('topics_policy', 24).notNullable().defaultTo('inherit');
    t.integer('message_retention_days').nullable();
    t.integer('creator_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.boolean('deactivated').notNullable().defaultTo(false);
    t.integer('first_message_id').nullable();
    t.boolean('is_recently_active').notNullable().defaultTo(true);
    for (const setting of GROUP_SETTINGS) t.jsonb(setting).notNullable();
  });
  await knex.raw('CREATE UNIQUE INDEX streams_realm_name_unique ON streams (realm_id, lower(name))');
  await knex.raw(
    "ALTER TABLE streams ADD CONSTRAINT streams_topics_policy_check CHECK (topics_policy IN ('inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'))",
  );

  // A row survives unsubscribing (active = false) so personal settings return on resubscribing.
  await knex.schema.createTable('subscriptions', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('stream_id').notNullable().references('streams.id').onDelete('CASCADE');
    t.boolean('active').notNullable().defaultTo(true);
    t.string('color', 10).notNullable().defaultTo('#c2c2c2');
    t.boolean('is_muted').notNullable().defaultTo(false);
    t.boolean('pin_to_top').notNullable().defaultTo(false);
    // null: follow the user's own default for channel notifications.
    t.boolean('desktop_notifications').nullable();
    t.boolean('audible_notifications').nullable();
    t.boolean('push_notifications').nullable();
    t.boolean('email_notifications').nullable();
    t.boolean('wildcard_mentions_notify').nullable();
    // Channels of a user.
    t.unique(['user_id', 'stream_id']);
  });
  // Subscribers of a channel.
  await knex.raw('CREATE INDEX subscriptions_stream_active ON subscriptions (stream_id, user_id) WHERE active');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('subscriptions');
  await knex.schema.dropTableIfExists('streams');
}
