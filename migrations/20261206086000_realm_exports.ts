import type { Knex } from 'knex';

/**
 * Data exports of an organization requested through the API (Zulip's RealmExport): who asked,
 * which kind, where the export stands, and the file it produced.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realm_exports', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('acting_user_id').nullable().references('users.id').onDelete('SET NULL');
    t.smallint('export_type').notNullable();
    // 1 requested, 2 started, 3 succeeded, 4 failed, 5 deleted (Zulip's numbers).
    t.smallint('status').notNullable().defaultTo(1);
    t.timestamp('date_requested', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('date_started', { useTz: true }).nullable();
    t.timestamp('date_succeeded', { useTz: true }).nullable();
    t.timestamp('date_failed', { useTz: true }).nullable();
    t.timestamp('date_deleted', { useTz: true }).nullable();
    // The file store key of the export, and its size.
    t.text('export_path').nullable();
    t.bigInteger('export_size').nullable();
    t.index(['realm_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('realm_exports');
}
