import type { Knex } from 'knex';

/**
 * Linkifiers gain what turns a pasted URL back into their text (an example input, the reverse
 * template, further URL templates recognized only for that), and custom profile fields whether
 * their values help find users in @-mention suggestions.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('realm_filters', (t) => {
    t.text('example_input').nullable();
    t.text('reverse_template').nullable();
    t.jsonb('alternative_url_templates').notNullable().defaultTo('[]');
  });
  await knex.schema.alterTable('custom_profile_fields', (t) => {
    t.boolean('use_for_user_matching').notNullable().defaultTo(false);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('custom_profile_fields', (t) => {
    t.dropColumn('use_for_user_matching');
  });
  await knex.schema.alterTable('realm_filters', (t) => {
    t.dropColumn('alternative_url_templates');
    t.dropColumn('reverse_template');
    t.dropColumn('example_input');
  });
}
