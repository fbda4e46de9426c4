import type { Knex } from 'knex';

/**
 * Display settings of Zulip's web app for the left sidebar and the inbox: whether the left sidebar
 * sums up unread counts, and whether the left sidebar and the inbox group channels by their folders.
 * All on by default, as in Zulip; existing accounts and organization defaults take the default.
 *
 * E2EE push devices keep the client's symmetric push key (feature level 432) instead of its public
 * key. Devices registered with a public key cannot be sent to any more and are dropped: the apps,
 * not finding their push account in the register state, register again.
 *
 * Client devices (feature level 468): one row per signed-in app install, made by
 * POST /register_client_device and removed at sign-out.
 */
const SETTINGS = ['web_left_sidebar_unreads_count_summary', 'web_left_sidebar_show_channel_folders', 'web_inbox_show_channel_folders'];

export async function up(knex: Knex): Promise<void> {
  for (const table of ['user_settings', 'realm_user_default_settings']) {
    await knex.schema.alterTable(table, (t) => {
      for (const name of SETTINGS) t.boolean(name).notNullable().defaultTo(true);
    });
  }
  await knex('push_devices').delete();
  await knex.schema.alterTable('push_devices', (t) => t.renameColumn('push_public_key', 'push_key'));
  await knex.schema.createTable('client_devices', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('client_devices');
  await knex('push_devices').delete();
  await knex.schema.alterTable('push_devices', (t) => t.renameColumn('push_key', 'push_public_key'));
  for (const table of ['user_settings', 'realm_user_default_settings']) {
    await knex.schema.alterTable(table, (t) => {
      for (const name of SETTINGS) t.dropColumn(name);
    });
  }
}
