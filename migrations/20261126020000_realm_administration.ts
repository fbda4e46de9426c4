import type { Knex } from 'knex';

/** Organization settings not kept elsewhere, default channels, and organization email domains. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realm_settings', (t) => {
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // The setting's JSON value; a missing row means Zulip's default.
    t.jsonb('value').notNullable();
    t.primary(['realm_id', 'name']);
  });
  await knex.schema.createTable('default_streams', (t) => {
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('stream_id').notNullable().references('streams.id').onDelete('CASCADE');
    t.primary(['realm_id', 'stream_id']);
  });
  await knex.schema.createTable('realm_domains', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('domain', 255).notNullable();
    t.boolean('allow_subdomains').notNullable().defaultTo(false);
    t.unique(['realm_id', 'domain']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('realm_domains');
  await knex.schema.dropTableIfExists('default_streams');
  await knex.schema.dropTableIfExists('realm_settings');
}
