import { Knex } from 'knex';

/**
 * User groups (including the system groups that stand for roles) and channel folders: both are
 * referenced by channel settings, so they exist before channels do.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('user_groups', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('name', 100).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.boolean('is_system_group').notNullable().defaultTo(false);
    t.boolean('deactivated').notNullable().defaultTo(false);
    t.integer('creator_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('date_created', { useTz: true }).nullable().defaultTo(knex.fn.now());
    // Group-setting values (a group id, or {direct_members, direct_subgroups}) keyed by setting name.
    t.jsonb('settings').notNullable().defaultTo('{}');
  });
  await knex.raw('CREATE UNIQUE INDEX user_groups_realm_name_unique ON user_groups (realm_id, lower(name))');

  await knex.schema.createTable('user_group_members', (t) => {
    t.integer('group_id').notNullable().references('user_groups.id').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.primary(['group_id', 'user_id']);
    t.index(['user_id']);
  });

  await knex.schema.createTable('user_group_subgroups', (t) => {
    t.integer('supergroup_id').notNullable().references('user_groups.id').onDelete('CASCADE');
    t.integer('subgroup_id').notNullable().references('user_groups.id').onDelete('CASCADE');
    t.primary(['supergroup_id', 'subgroup_id']);
    t.index(['subgroup_id']);
  });

  await knex.schema.createTable('channel_folders', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.string('name', 60).notNullable();
    t.text('description').notNullable().defaultTo('');
    t.text('rendered_description').notNullable().defaultTo('');
    t.boolean('is_archived').notNullable().defaultTo(false);
    t.integer('order').notNullable().defaultTo(0);
    t.integer('creator_id').nullable().references('users.id').onDelete('SET NULL');
    t.timestamp('date_created', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw('CREATE UNIQUE INDEX channel_folders_realm_name_unique ON channel_folders (realm_id, lower(name))');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('channel_folders');
  await knex.schema.dropTableIfExists('user_group_subgroups');
  await knex.schema.dropTableIfExists('user_group_members');
  await knex.schema.dropTableIfExists('user_groups');
}
