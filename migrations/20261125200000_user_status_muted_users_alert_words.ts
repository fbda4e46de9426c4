import { Knex } from 'knex';

/**
 * Three personal features: a user's status (text and emoji shown beside their name), the users
 * they muted, and their alert words.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_status', (t) => {
    t.integer('user_id').primary().references('users.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.text('status_text').notNullable().defaultTo('');
    t.text('emoji_name').notNullable().defaultTo('');
    t.text('emoji_code').notNullable().defaultTo('');
    t.string('reaction_type', 30).notNullable().defaultTo('unicode_emoji');
    // The client that set it, as Zulip records.
    t.string('client', 30).notNullable().defaultTo('');
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['realm_id']);
  });
  await knex.schema.createTable('muted_users', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('muted_user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.timestamp('date_muted', { useTz: true }).notNullable();
    t.unique(['user_id', 'muted_user_id']);
    t.index(['realm_id']);
  });
  await knex.schema.createTable('alert_words', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // As the user wrote it; words are unique per user ignoring case, compared through `word_key`
    // (the word lower-cased by the server, whatever the database's locale).
    t.text('word').notNullable();
    t.text('word_key').notNullable();
    t.unique(['user_id', 'word_key']);
    t.index(['realm_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('alert_words');
  await knex.schema.dropTableIfExists('muted_users');
  await knex.schema.dropTableIfExists('user_status');
}
