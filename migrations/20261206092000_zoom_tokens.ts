import type { Knex } from 'knex';

/**
 * Members' tokens for Zoom's per-user OAuth app (src/core/calls/zoom-tokens.ts): one per member,
 * sealed with a key derived from the app's client secret, never read by any API but the call
 * creation that uses it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('zoom_tokens', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.text('sealed').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('zoom_tokens');
}
