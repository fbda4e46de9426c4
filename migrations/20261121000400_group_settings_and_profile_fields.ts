import { Knex } from 'knex';

/**
 * Organization-level group-setting values (who may create groups, manage all groups, ...), custom
 * profile fields with their per-user values, and case-sensitive user group names (Zulip lets
 * "Support" and "support" coexist).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('realm_group_settings', (t) => {
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    // A group id, or {direct_members, direct_subgroups}. A missing row means the setting's default.
    t.jsonb('value').notNullable();
    t.primary(['realm_id', 'name']);
  });

  await knex.raw('DROP INDEX IF EXISTS user_groups_realm_name_unique');
  await knex.raw('CREATE UNIQUE INDEX user_groups_realm_name_unique ON user_groups (realm_id, name)');

  await rewireFullMembers(knex);

  await knex.schema.createTable('custom_profile_fields', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('name', 40).notNullable();
    t.string('hint', 80).notNullable().defaultTo('');
    t.smallint('field_type').notNullable();
    // JSON text for choices (type 3) and external accounts (type 7); empty for the others.
    t.text('field_data').notNullable().defaultTo('');
    t.integer('order').notNullable().defaultTo(0);
    t.boolean('display_in_profile_summary').notNullable().defaultTo(false);
    t.boolean('required').notNullable().defaultTo(false);
    t.boolean('editable_by_user').notNullable().defaultTo(true);
    t.unique(['realm_id', 'name']);
  });

  await knex.schema.createTable('custom_profile_field_values', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.integer('field_id').notNullable().references('custom_profile_fields.id').onDelete('CASCADE');
    t.text('value').notNullable();
    t.text('rendered_value').nullable();
    t.unique(['user_id', 'field_id']);
    t.index(['field_id']);
  });
}

/**
 * Zulip's chain is moderators ⊂ full members ⊂ members, and only members (role 400) belong to
 * role:fullmembers directly; databases made before this migration had members ⊂ full members.
 */
async function rewireFullMembers(knex: Knex): Promise<void> {
  const realms: { id: number }[] = await knex('realms').select('id');
  for (const realm of realms) {
    const rows: { id: number; name: string }[] = await knex('user_groups')
      .where({ realm_id: realm.id, is_system_group: true })
      .whereIn('name', ['role:moderators', 'role:fullmembers', 'role:members'])
      .select('id', 'name');
    const id = (name: string) => rows.find((r) => r.name === name)?.id;
    const [moderators, fullMembers, members] = [id('role:moderators'), id('role:fullmembers'), id('role:members')];
    if (moderators === undefined || fullMembers === undefined || members === undefined) continue;
    await knex('user_group_subgroups').whereIn('supergroup_id', [fullMembers, members]).delete();
    await knex('user_group_subgroups').insert([
      { supergroup_id: fullMembers, subgroup_id: moderators },
      { supergroup_id: members, subgroup_id: fullMembers },
    ]);
    await knex('user_group_members').where('group_id', fullMembers).whereIn('user_id', knex('users').whereNot('role', 400).select('id')).delete();
  }
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('custom_profile_field_values');
  await knex.schema.dropTableIfExists('custom_profile_fields');
  await knex.raw('DROP INDEX IF EXISTS user_groups_realm_name_unique');
  await knex.raw('CREATE UNIQUE INDEX user_groups_realm_name_unique ON user_groups (realm_id, lower(name))');
  await knex.schema.dropTableIfExists('realm_group_settings');
}
