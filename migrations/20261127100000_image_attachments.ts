import type { Knex } from 'knex';

/**
 * Facts about uploaded images (Zulip's ImageAttachment): size as shown (after EXIF rotation),
 * frames, declared type, and the thumbnails made so far. A row whose thumbnail_metadata is still
 * empty is pending work for the thumbnail worker, which finds it again after a restart;
 * `claimed_until` keeps two processes from making the same thumbnails at once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('image_attachments', (t) => {
    t.integer('attachment_id').primary().references('attachments.id').onDelete('CASCADE');
    t.integer('realm_id').notNullable().references('realms.id').onDelete('CASCADE');
    t.text('path_id').notNullable().unique();
    t.integer('original_width_px').notNullable();
    t.integer('original_height_px').notNullable();
    t.integer('frames').notNullable();
    t.text('content_type').notNullable();
    t.jsonb('thumbnail_metadata').notNullable().defaultTo('[]');
    t.timestamp('claimed_until', { useTz: true }).nullable();
  });
  await knex.raw("CREATE INDEX image_attachments_pending ON image_attachments (realm_id, attachment_id) WHERE thumbnail_metadata = '[]'::jsonb");
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('image_attachments');
}
