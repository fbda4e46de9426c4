import { Knex } from 'knex';

/** Text a user saves to insert into messages later. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('saved_snippets', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('content').notNullable();
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('saved_snippets');
}
