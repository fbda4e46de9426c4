import type { Knex } from 'knex';

/** Bots the server itself runs (the notification bot) are marked, so message views can name them. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('is_system_bot').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('is_system_bot');
  });
}
