import { Knex } from 'knex';

/** Drafts a user keeps on the server so their clients stay in step. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('drafts', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // '' (unaddressed), 'stream' or 'private'.
    t.string('type', 8).notNullable();
    // The channel id, or the other participants' user ids, as clients see them.
    t.jsonb('to').notNullable().defaultTo('[]');
    t.text('topic').notNullable().defaultTo('');
    t.text('content').notNullable();
    t.timestamp('last_edit_time', { useTz: true }).notNullable();
    t.index(['user_id', 'last_edit_time']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('drafts');
}
