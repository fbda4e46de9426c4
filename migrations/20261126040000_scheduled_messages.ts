import { Knex } from 'knex';

/**
 * Messages waiting to be sent later (Zulip's "send later") and reminders of messages. The rows are
 * the delivery queue: a server claims a due row, sends it and marks it delivered in one transaction.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scheduled_messages', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('sender_id').notNullable().references('users.id').onDelete('CASCADE');
    // 1: send later, 2: reminder (Zulip's delivery types).
    t.smallint('delivery_type').notNullable();
    // 'stream' or 'private'.
    t.string('type', 8).notNullable();
    t.integer('stream_id');
    // Direct messages: every participant, sender included.
    t.jsonb('participant_ids').notNullable().defaultTo('[]');
    t.text('topic').notNullable().defaultTo('');
    t.text('content').notNullable();
    t.text('rendered_content').notNullable();
    t.string('sending_client', 30).notNullable();
    t.boolean('read_by_sender').notNullable();
    t.timestamp('scheduled_timestamp', { useTz: true }).notNullable();
    t.boolean('delivered').notNullable().defaultTo(false);
    t.bigInteger('delivered_message_id');
    t.boolean('failed').notNullable().defaultTo(false);
    t.text('failure_message');
    t.bigInteger('reminder_target_message_id');
    t.text('reminder_note');
    t.index(['sender_id', 'delivery_type']);
  });
  // What the scheduler asks on every tick: the earliest row still waiting.
  await knex.raw('CREATE INDEX scheduled_messages_due ON scheduled_messages (scheduled_timestamp, id) WHERE NOT delivered AND NOT failed');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('scheduled_messages');
}
