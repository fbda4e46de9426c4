import type { Knex } from 'knex';

/**
 * The outbox of side effects that leave the server (outgoing-webhook calls, emails, mobile
 * pushes): each row is written in the transaction of the change that causes it, then sent by the
 * delivery worker of any process, which claims rows with a lease. `key` is the item's idempotency
 * key, handed to the receiver; `claim_token` names the claim, so only its holder may settle it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('deliveries', (t) => {
    t.bigIncrements('id').primary();
    t.integer('realm_id').notNullable();
    t.string('kind', 16).notNullable();
    t.jsonb('payload').notNullable();
    t.uuid('key').notNullable().unique();
    t.string('state', 8).notNullable().defaultTo('pending');
    t.integer('attempts').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('claimed_until', { useTz: true }).nullable();
    t.uuid('claim_token').nullable();
    t.string('last_error', 200).nullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('sent_at', { useTz: true }).nullable();
  });
  await knex.raw(`ALTER TABLE deliveries ADD CONSTRAINT deliveries_state CHECK (state IN ('pending', 'sent', 'dead'))`);
  // The worker's two questions: which pending rows are due, and which sent rows are old enough to go.
  await knex.raw(`CREATE INDEX deliveries_due ON deliveries (realm_id, next_attempt_at) WHERE state = 'pending'`);
  await knex.raw(`CREATE INDEX deliveries_sent ON deliveries (sent_at) WHERE state = 'sent'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('deliveries');
}
