import { Knex } from 'knex';

/**
 * Uploaded files (their bytes live in the file store, under path_id) and the messages linking them;
 * the organization's uploaded icon and logos.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('attachments', (t) => {
    t.increments('id').primary();
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.integer('owner_id').notNullable().references('users.id').onDelete('CASCADE');
    // "<realm id>/<two hex>/<random>/<sanitized name>": the file's key in the store and its URL path.
    t.text('path_id').notNullable().unique();
    t.text('file_name').notNullable();
    t.text('content_type').notNullable();
    t.bigInteger('size').notNullable();
    t.timestamp('create_time', { useTz: true }).notNullable();
    t.index(['owner_id', 'id']);
  });
  await knex.schema.createTable('attachment_messages', (t) => {
    t.integer('attachment_id').notNullable().references('attachments.id').onDelete('CASCADE');
    // No foreign key, like user_messages: message deletion releases these rows itself.
    t.integer('message_id').notNullable();
    t.primary(['attachment_id', 'message_id']);
    t.index(['message_id']);
  });
  // Key for temporary download links; created on first use, shared by every server process.
  await knex.schema.alterTable('realms', (t) => {
    t.text('upload_signing_key').nullable();
    // Uploaded organization icon and logos: 'U' when uploaded; the version is in their URLs.
    t.string('icon_source', 1).notNullable().defaultTo('G');
    t.integer('icon_version').notNullable().defaultTo(1);
    t.string('logo_source', 1).notNullable().defaultTo('D');
    t.integer('logo_version').notNullable().defaultTo(0);
    t.string('night_logo_source', 1).notNullable().defaultTo('D');
    t.integer('night_logo_version').notNullable().defaultTo(0);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('realms', (t) => {
    t.dropColumn('upload_signing_key');
    for (const column of ['icon_source', 'icon_version', 'logo_source', 'logo_version', 'night_logo_source', 'night_logo_version']) t.dropColumn(column);
  });
  await knex.schema.dropTableIfExists('attachment_messages');
  await knex.schema.dropTableIfExists('attachments');
}
