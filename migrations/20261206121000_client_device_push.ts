import { Knex } from 'knex';

/**
 * E2EE push registrations hang on client devices (Zulip's feature level 468): a device's push key and
 * its key id, the push service's token ids (the registered one, and one being registered, as base64
 * of their 8 bytes), the token's kind and when it last changed, the service's error code, and, while
 * a registration waits to be handed to the service, its sealed registration and retry state. The
 * registrations by push account (push_devices) are gone with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('client_devices', (t) => {
    t.text('push_key').nullable();
    t.bigInteger('push_key_id').nullable();
    t.string('push_token_kind', 4).nullable();
    t.string('push_token_id', 16).nullable();
    t.string('pending_push_token_id', 16).nullable();
    t.timestamp('push_token_updated_at', { useTz: true }).nullable();
    t.string('push_registration_error_code', 64).nullable();
    t.text('bouncer_public_key').nullable();
    t.text('encrypted_push_registration').nullable();
    t.timestamp('register_due_at', { useTz: true }).nullable();
    t.timestamp('register_claimed_until', { useTz: true }).nullable();
    t.integer('register_attempts').notNullable().defaultTo(0);
  });
  await knex.raw('CREATE INDEX client_devices_register_due ON client_devices (register_due_at) WHERE register_due_at IS NOT NULL');
  await knex.schema.dropTableIfExists('push_devices');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_devices', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.bigInteger('push_account_id').notNullable();
    t.string('token_kind', 4).notNullable();
    t.text('push_key').notNullable();
    t.timestamp('registered_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.bigInteger('bouncer_device_id').nullable();
    t.string('error_code', 64).nullable();
    t.text('bouncer_public_key').nullable();
    t.text('encrypted_push_registration').nullable();
    t.timestamp('register_due_at', { useTz: true }).nullable();
    t.timestamp('register_claimed_until', { useTz: true }).nullable();
    t.integer('register_attempts').notNullable().defaultTo(0);
    t.unique(['user_id', 'push_account_id']);
  });
  await knex.raw('CREATE INDEX push_devices_register_due ON push_devices (register_due_at) WHERE register_due_at IS NOT NULL');
  await knex.raw('DROP INDEX IF EXISTS client_devices_register_due');
  await knex.schema.alterTable('client_devices', (t) => {
    for (const name of [
      'push_key',
      'push_key_id',
      'push_token_kind',
      'push_token_id',
      'pending_push_token_id',
      'push_token_updated_at',
      'push_registration_error_code',
      'bouncer_public_key',
      'encrypted_push_registration',
      'register_due_at',
      'register_claimed_until',
      'register_attempts',
    ])
      t.dropColumn(name);
  });
}
