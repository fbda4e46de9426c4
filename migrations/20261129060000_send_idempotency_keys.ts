import type { Knex } from 'knex';

/**
 * Idempotency keys of sends: a client that retries a send it is unsure about passes the same key,
 * and the server answers with the message the key first produced instead of sending it again.
 * message_id is null while the first send is under way. Rows older than a day are pruned.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('send_idempotency_keys', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('key', 128).notNullable();
    t.integer('message_id').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'key']);
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('send_idempotency_keys');
}
