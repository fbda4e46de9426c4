import { Knex } from 'knex';

/**
 * Event queues saved across a graceful restart of a single-process server (queues otherwise live in
 * memory, or in Redis). Rows exist only between a shutdown and the next start, which loads and
 * deletes them.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('saved_event_queues', (t) => {
    t.string('queue_id', 64).primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // Descriptor, next event id, newest acknowledged id and the pending events.
    t.jsonb('data').notNullable();
    t.timestamp('saved_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['realm_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('saved_event_queues');
}
