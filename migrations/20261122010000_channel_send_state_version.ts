import type { Knex } from 'knex';

/**
 * `streams.send_state_version` changes whenever anything a remembered send snapshot relies on
 * changes outside the channel's own row (core/messages/send-snapshots.ts): the channel's
 * subscriptions, whether a subscriber's account is active, anyone's topic visibility policies in
 * it, and which topics still hold messages (deletions and moves). A send whose remembered channel
 * row no longer matches reads everything afresh. Statement-level triggers, so that a bulk change
 * bumps each channel once; PostgreSQL allows transition tables only on single-event triggers,
 * hence one trigger per event. Users get a row trigger instead, skipped by PostgreSQL unless
 * activation changes, as nearly every update of a user changes something else.
 */
const BUMP = 'UPDATE streams SET send_state_version = send_state_version + 1 WHERE id IN';

const functions: Record<string, string> = {
  // Subscriptions and topic policies: the channels of every row touched.
  send_state_after_insert: `${BUMP} (SELECT stream_id FROM new_rows)`,
  send_state_after_update: `${BUMP} (SELECT stream_id FROM new_rows UNION SELECT stream_id FROM old_rows)`,
  send_state_after_delete: `${BUMP} (SELECT stream_id FROM old_rows)`,
  // Messages: a topic may have emptied. Content edits, the usual update, change neither column.
  send_state_after_message_update: `${BUMP} (SELECT o.stream_id FROM old_rows o JOIN new_rows n ON n.id = o.id
                                              WHERE o.stream_id IS DISTINCT FROM n.stream_id OR o.topic IS DISTINCT FROM n.topic)`,
  // Users: the channels of someone deactivated or reactivated (a row trigger, see below).
  send_state_after_activation_change: `${BUMP} (SELECT stream_id FROM subscriptions WHERE user_id = NEW.id)`,
};

const triggers: { table: string; event: 'INSERT' | 'UPDATE' | 'DELETE'; fn: string }[] = [
  { table: 'subscriptions', event: 'INSERT', fn: 'send_state_after_insert' },
  { table: 'subscriptions', event: 'UPDATE', fn: 'send_state_after_update' },
  { table: 'subscriptions', event: 'DELETE', fn: 'send_state_after_delete' },
  { table: 'user_topics', event: 'INSERT', fn: 'send_state_after_insert' },
  { table: 'user_topics', event: 'UPDATE', fn: 'send_state_after_update' },
  { table: 'user_topics', event: 'DELETE', fn: 'send_state_after_delete' },
  { table: 'messages', event: 'UPDATE', fn: 'send_state_after_message_update' },
  { table: 'messages', event: 'DELETE', fn: 'send_state_after_delete' },
];

const transitionTables = { INSERT: 'NEW TABLE AS new_rows', UPDATE: 'OLD TABLE AS old_rows NEW TABLE AS new_rows', DELETE: 'OLD TABLE AS old_rows' };

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('streams', (t) => {
    t.bigInteger('send_state_version').notNullable().defaultTo(0);
  });
  for (const [name, body] of Object.entries(functions)) {
    await knex.raw(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body}; RETURN NULL; END $$`);
  }
  for (const { table, event, fn } of triggers) {
    await knex.raw(
      `CREATE TRIGGER ${table}_send_state_${event.toLowerCase()} AFTER ${event} ON ${table}
       REFERENCING ${transitionTables[event]} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
    );
  }
  await knex.raw(
    `CREATE TRIGGER users_send_state_activation AFTER UPDATE OF is_active ON users
     FOR EACH ROW WHEN (OLD.is_active IS DISTINCT FROM NEW.is_active) EXECUTE FUNCTION send_state_after_activation_change()`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER users_send_state_activation ON users');
  for (const { table, event } of triggers) await knex.raw(`DROP TRIGGER ${table}_send_state_${event.toLowerCase()} ON ${table}`);
  for (const name of Object.keys(functions)) await knex.raw(`DROP FUNCTION ${name}()`);
  await knex.schema.alterTable('streams', (t) => {
    t.dropColumn('send_state_version');
  });
}
