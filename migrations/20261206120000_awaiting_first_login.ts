import type { Knex } from 'knex';

/**
 * Accounts created through the API whose date_joined moves to their first login (Zulip's feature
 * level 475; src/core/users/first-login.ts). Existing accounts are not waiting for one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.boolean('awaiting_first_login').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('awaiting_first_login');
  });
}
