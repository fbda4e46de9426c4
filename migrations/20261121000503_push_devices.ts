import { Knex } from 'knex';

/** Devices registered for end-to-end-encrypted push notifications, one per (user, push account). */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('push_devices', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // Chosen by the client; included in each push so it can find the matching key.
    t.bigInteger('push_account_id').notNullable();
    t.string('token_kind', 4).notNullable();
    t.text('token').notNullable();
    t.text('ios_app_id').nullable();
    // The client's NaCl public key (base64) that notification payloads are encrypted to.
    t.text('push_public_key').notNullable();
    t.timestamp('registered_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.unique(['user_id', 'push_account_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('push_devices');
}
