import { Knex } from 'knex';

/**
 * Bots owned by users: their default channels (Zulip's bot settings) and, for outgoing-webhook
 * bots, the service they call. The service token is sent to the bot's URL with every request, so
 * it is kept as issued (it proves nothing to this server: the bot's API key does, and is hashed).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.integer('default_sending_stream_id').nullable().references('streams.id').onDelete('SET NULL');
    t.integer('default_events_register_stream_id').nullable().references('streams.id').onDelete('SET NULL');
    t.boolean('default_all_public_streams').notNullable().defaultTo(false);
  });
  await knex.raw('CREATE INDEX users_bot_owner ON users (bot_owner_id) WHERE bot_owner_id IS NOT NULL');
  await knex.schema.createTable('bot_services', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('bot_id').notNullable().unique().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('base_url').notNullable();
    t.smallint('interface').notNullable().defaultTo(1);
    t.string('token', 64).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('bot_services');
  await knex.raw('DROP INDEX IF EXISTS users_bot_owner');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('default_sending_stream_id');
    t.dropColumn('default_events_register_stream_id');
    t.dropColumn('default_all_public_streams');
  });
}
