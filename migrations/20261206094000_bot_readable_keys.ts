import type { Knex } from 'knex';

/**
 * A bot's API key kept readable, so its owner and the organization's administrators can fetch it
 * again (GET /bots/{bot_id}/api_key). Null for people's keys, which stay stored as hashes only, and
 * for bot keys issued before this column existed. Keys are still checked against key_hash only.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.text('bot_key').nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('api_keys', (t) => {
    t.dropColumn('bot_key');
  });
}
