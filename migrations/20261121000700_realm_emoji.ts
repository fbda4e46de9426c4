import { Knex } from 'knex';

/** Custom emoji uploaded by the organization; the image bytes live in the row. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realm_emoji', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.string('file_name', 80).nullable();
    t.string('content_type', 40).nullable();
    t.binary('image').nullable();
    t.integer('author_id').nullable().references('users.id').onDelete('SET NULL');
    t.boolean('deactivated').notNullable().defaultTo(false);
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  // A name may be reused once the emoji holding it is deactivated.
  await knex.raw('CREATE UNIQUE INDEX realm_emoji_active_name ON realm_emoji (realm_id, name) WHERE NOT deactivated');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('realm_emoji');
}
