import { Knex } from 'knex';

/** A user's pinned or hidden sidebar views, built-in or custom, keyed by URL fragment. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('navigation_views', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('fragment').notNullable();
    t.boolean('is_pinned').notNullable().defaultTo(false);
    // Custom views only; built-in views have no name of their own.
    t.text('name').nullable();
    t.unique(['user_id', 'fragment']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('navigation_views');
}
