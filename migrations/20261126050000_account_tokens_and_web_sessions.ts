import { Knex } from 'knex';

/**
 * Confirmation links (password resets, email changes) and web login sessions. Only the SHA-256 of
 * each link's secret and each session's cookie is stored.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('account_tokens', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // 'password_reset' or 'email_change'.
    t.string('purpose', 32).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    // The address an email change moves to, and the one it moves from.
    t.string('new_email', 254).nullable();
    t.string('old_email', 254).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['user_id', 'purpose']);
  });

  await knex.schema.createTable('web_sessions', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('session_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('web_sessions');
  await knex.schema.dropTableIfExists('account_tokens');
}
