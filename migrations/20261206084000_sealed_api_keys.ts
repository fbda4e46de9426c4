import type { Knex } from 'knex';

/**
 * A copy of a login's API key sealed with the user's password (see src/core/accounts/login-keys.ts),
 * so the next login with that password hands out the same key instead of a new one. Null for keys
 * issued otherwise. Keys are still checked against key_hash only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('sealed').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('sealed');
  });
}
