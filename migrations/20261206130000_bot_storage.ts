import { Knex } from 'knex';

/**
 * Bot storage (Zulip's BotStorageData): string values under string keys, kept per account for the
 * bots framework. Gone with the account or the organization.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('bot_storage', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('key').notNullable();
    t.text('value').notNullable();
    t.unique(['user_id', 'key']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('bot_storage');
}
