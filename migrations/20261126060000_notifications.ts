import type { Knex } from 'knex';

/**
 * Notifications for people who are away. Messages are the durable record: a cursor per realm says
 * up to which message the due notifications have been decided, and the decisions are rows of
 * `notification_jobs` that the delivery workers claim. Sending a message writes nothing here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('notification_cursors', (t) => {
    t.integer('realm_id').primary().references('realms.id').onDelete('CASCADE');
    t.integer('last_message_id').notNullable().defaultTo(0);
    // Ids below last_message_id that were missing when it moved past them, each with when it was
    // noticed ([[id, ms], ...]): a send that commits late fills one; the rest expire.
    t.jsonb('gaps').notNullable().defaultTo('[]');
  });
  // Messages sent before notifications existed are not notified about.
  await knex.raw(
    'INSERT INTO notification_cursors (realm_id, last_message_id) SELECT r.id, COALESCE((SELECT max(m.id) FROM messages m WHERE m.realm_id = r.id), 0) FROM realms r',
  );

  // Edits that added mentions, written in the edit's transaction and decided like new messages.
  await knex.schema.createTable('notification_edits', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('message_id').notNullable();
    t.specificType('user_ids', 'integer[]').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('notification_jobs', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // 'email', 'push' or 'push_remove'.
    t.string('kind', 12).notNullable();
    // The message (email, push); null for removals, which name message_ids.
    t.integer('message_id').nullable();
    t.specificType('message_ids', 'integer[]').nullable();
    // Why it is due (Zulip's trigger names: direct_message, mentioned, stream_email_notify...).
    t.string('trigger', 64).notNullable().defaultTo('');
    t.timestamp('due_at', { useTz: true }).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    // A worker holds the row until then; a crashed worker's claim runs out and another retries.
    t.timestamp('claimed_until', { useTz: true }).nullable();
  });
  await knex.raw('CREATE UNIQUE INDEX notification_jobs_once ON notification_jobs (user_id, message_id, kind) WHERE message_id IS NOT NULL');
  await knex.raw('CREATE INDEX notification_jobs_due ON notification_jobs (kind, due_at)');

  // When each user last received a digest.
  await knex.schema.createTable('digest_sends', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.timestamp('sent_at', { useTz: true }).notNullable();
  });

  // The key that signs unsubscribe links, made once per realm.
  await knex.schema.createTable('email_signing_keys', (t) => {
    t.integer('realm_id').primary().references('realms.id').onDelete('CASCADE');
    t.text('key').notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('email_signing_keys');
  await knex.schema.dropTableIfExists('digest_sends');
  await knex.schema.dropTableIfExists('notification_jobs');
  await knex.schema.dropTableIfExists('notification_edits');
  await knex.schema.dropTableIfExists('notification_cursors');
}
