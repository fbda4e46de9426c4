import type { Knex } from 'knex';

/**
 * Which settings each user has changed themselves (src/core/settings/others.ts): an administrator
 * changing settings for many users may leave alone those who chose a value of their own
 * (PATCH /settings with target_users.skip_if_already_edited). Changes made for a user by an
 * administrator are not recorded here.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_setting_edits', (t) => {
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.text('setting').notNullable();
    t.primary(['user_id', 'setting']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('user_setting_edits');
}
