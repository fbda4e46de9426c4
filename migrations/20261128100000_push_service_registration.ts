import type { Knex } from 'knex';

/**
 * E2EE push devices as the push service registers them: the server never learns the device token
 * (only the service can open the client's sealed registration). It keeps the sealed registration
 * until the service has answered, then the service's device id (active) or its error code (failed).
 * The registration is handed over by the notification worker: due time, lease and attempts as for
 * notification jobs. Devices stored before have no registration at the service and are dropped, so
 * the apps, not finding their push account in the register state, register again.
 */
export async function up(knex: Knex): Promise<void> {
  await knex('push_devices').delete();
  await knex.schema.alterTable('push_devices', (t) => {
    t.dropColumn('token');
    t.dropColumn('ios_app_id');
    t.bigInteger('bouncer_device_id').nullable();
    t.string('error_code', 64).nullable();
    t.text('bouncer_public_key').nullable();
    t.text('encrypted_push_registration').nullable();
    t.timestamp('register_due_at', { useTz: true }).nullable();
    t.timestamp('register_claimed_until', { useTz: true }).nullable();
    t.integer('register_attempts').notNullable().defaultTo(0);
  });
  await knex.raw('CREATE INDEX push_devices_register_due ON push_devices (register_due_at) WHERE register_due_at IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex('push_devices').delete();
  await knex.raw('DROP INDEX IF EXISTS push_devices_register_due');
  await knex.schema.alterTable('push_devices', (t) => {
    t.dropColumn('bouncer_device_id');
    t.dropColumn('error_code');
    t.dropColumn('bouncer_public_key');
    t.dropColumn('encrypted_push_registration');
    t.dropColumn('register_due_at');
    t.dropColumn('register_claimed_until');
    t.dropColumn('register_attempts');
    t.text('token').notNullable();
    t.text('ios_app_id').nullable();
  });
}
