import { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realms', (t) => {
    t.increments('id').primary();
    t.string('string_id', 40).notNullable().unique();
    t.string('name', 40).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.boolean('deactivated').notNullable().defaultTo(false);
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });

  await knex.schema.createTable('users', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('delivery_email', 254).notNullable();
    t.string('full_name', 100).notNullable();
    t.smallint('role').notNullable().defaultTo(400);
    t.boolean('is_active').notNullable().defaultTo(true);
    t.boolean('is_bot').notNullable().defaultTo(false);
    t.smallint('bot_type').nullable();
    t.integer('bot_owner_id').nullable().references('users.id').onDelete('SET NULL');
    t.text('password_hash').nullable();
    t.string('timezone', 64).notNullable().defaultTo('');
    t.timestamp('date_joined', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('avatar_source', 1).notNullable().defaultTo('G');
    t.integer('avatar_version').notNullable().defaultTo(1);
    t.boolean('can_create_users').notNullable().defaultTo(false);
    t.smallint('email_address_visibility').notNullable().defaultTo(1);
  });
  await knex.raw('CREATE UNIQUE INDEX users_realm_email_unique ON users (realm_id, lower(delivery_email))');
  await knex.raw('CREATE INDEX users_realm_active ON users (realm_id, is_active)');

  // A user may hold several keys (one per logged-in client); only their SHA-256 is stored.
  await knex.schema.createTable('api_keys', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.string('key_hash', 64).notNullable().unique();
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('api_keys');
  await knex.schema.dropTableIfExists('users');
  await knex.schema.dropTableIfExists('realms');
}
