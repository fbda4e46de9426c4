import type { Knex } from 'knex';

/**
 * Submessages: the data of message widgets (polls, to-do lists). A widget message's first
 * submessage describes the widget; each later one is an action on it (a vote, a new option, a
 * checked task), replayed in id order by clients. They go with their message.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('submessages', (t) => {
    t.increments('id').primary();
    t.integer('message_id').notNullable().references('messages.id').onDelete('CASCADE');
    t.integer('sender_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('msg_type').notNullable();
    t.text('content').notNullable();
    t.index(['message_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('submessages');
}
