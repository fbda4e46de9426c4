import type { Knex } from 'knex';

/** Linkifiers, code playgrounds, and the push device tokens of the legacy mobile endpoints. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realm_filters', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.text('pattern').notNullable();
    t.text('url_template').notNullable();
    // Linkifiers apply in this order (then by id), which decides between overlapping patterns.
    t.integer('order').notNullable().defaultTo(0);
    t.unique(['realm_id', 'pattern']);
  });
  await knex.schema.createTable('realm_playgrounds', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.string('pygments_language', 40).notNullable();
    t.text('url_template').notNullable();
    t.unique(['realm_id', 'pygments_language', 'name']);
  });
  await knex.schema.createTable('push_device_tokens', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // 'apns' or 'fcm' (Zulip's APNS and GCM kinds).
    t.string('kind', 8).notNullable();
    t.text('token').notNullable();
    t.text('ios_app_id').nullable();
    t.timestamp('last_updated', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'kind', 'token']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('push_device_tokens');
  await knex.schema.dropTableIfExists('realm_playgrounds');
  await knex.schema.dropTableIfExists('realm_filters');
}
