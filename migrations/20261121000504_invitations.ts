import { Knex } from 'knex';

/**
 * Invitations: email invitations (one address each) and reusable links, told apart by
 * is_multiuse. A row is valid while its status is active and its expiry (if any) is ahead.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('invitations', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.boolean('is_multiuse').notNullable().defaultTo(false);
    // The invited address; null for reusable links.
    t.string('email', 254).nullable();
    t.integer('referred_by_id').notNullable().references('users.id').onDelete('CASCADE');
    t.smallint('invited_as').notNullable().defaultTo(400);
    t.jsonb('stream_ids').notNullable().defaultTo('[]');
    t.jsonb('group_ids').notNullable().defaultTo('[]');
    t.boolean('include_realm_default_subscriptions').notNullable().defaultTo(false);
    t.boolean('notify_referrer_on_join').notNullable().defaultTo(true);
    t.text('welcome_message_custom_text').nullable();
    // The secret part of the invitation link.
    t.string('key', 40).notNullable().unique();
    t.timestamp('invited_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    // null: never expires.
    t.timestamp('expiry_date', { useTz: true }).nullable();
    // 0 active, 1 used (email invitations), 2 revoked.
    t.smallint('status').notNullable().defaultTo(0);
    t.integer('used_by_id').nullable().references('users.id').onDelete('SET NULL');
    t.index(['realm_id', 'is_multiuse', 'status']);
    t.index(['referred_by_id']);
  });

  // One row per invitation email sent, for the organization's daily limit.
  await knex.schema.createTable('invitation_sends', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('invitation_id').nullable().references('invitations.id').onDelete('SET NULL');
    t.timestamp('sent_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['realm_id', 'sent_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('invitation_sends');
  await knex.schema.dropTableIfExists('invitations');
}
