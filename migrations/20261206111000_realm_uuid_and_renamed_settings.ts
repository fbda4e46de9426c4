import type { Knex } from 'knex';

/**
 * Each organization gets a UUID of its own (register's realm_uuid, the key of its generated
 * profile pictures); settings Zulip renamed keep their stored values under the new names: the GIF
 * rating (giphy_rating → gif_rating_policy) and the Recent conversations home view
 * (recent_topics → recent).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('realms', (t) => {
    // Volatile default: every existing row gets a UUID of its own.
    t.uuid('uuid').notNullable().defaultTo(knex.raw('gen_random_uuid()'));
  });
  await renameStoredValues(knex);
}

/** The stored values under their new names (exported for its test). */
export async function renameStoredValues(knex: Knex): Promise<void> {
  await knex('realm_settings').where({ name: 'giphy_rating' }).update({ name: 'gif_rating_policy' });
  for (const table of ['user_settings', 'realm_user_default_settings']) {
    await knex(table).where({ web_home_view: 'recent_topics' }).update({ web_home_view: 'recent' });
  }
}

export async function down(knex: Knex): Promise<void> {
  for (const table of ['user_settings', 'realm_user_default_settings']) {
    await knex(table).where({ web_home_view: 'recent' }).update({ web_home_view: 'recent_topics' });
  }
  await knex('realm_settings').where({ name: 'gif_rating_policy' }).update({ name: 'giphy_rating' });
  await knex.schema.alterTable('realms', (t) => {
    t.dropColumn('uuid');
  });
}
