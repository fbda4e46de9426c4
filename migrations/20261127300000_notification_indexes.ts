import type { Knex } from 'knex';

/**
 * Small partial indexes for the notification worker. The two on user_messages cover only rows
 * that matter to it, so sending an ordinary channel message maintains neither.
 * - Rows with a personal reason to notify (mentions, alert words, direct messages), by message:
 *   deciding a batch of new messages reads these instead of every recipient's row.
 * - Rows whose mobile notification is still showing: once such a row is read, the removal is due.
 *   The worker finds them by scanning this index, so a removal survives any crash.
 * - Claimed jobs by the end of their lease: with jobs by kind and due time, the worker learns when
 *   to wake next from the first entries of two indexes, however many emails wait in their batch.
 */
// mentioned | stream_wildcard_mentioned | topic_wildcard_mentioned | group_mentioned | has_alert_word | is_private
const PERSONAL = 8 | 16 | 32 | 64 | 512 | 2048;
const ACTIVE_PUSH = 4096;

export async function up(knex: Knex): Promise<void> {
  await knex.raw(`CREATE INDEX user_messages_personal ON user_messages (message_id) WHERE (flags & ${PERSONAL}) <> 0`);
  await knex.raw(`CREATE INDEX user_messages_active_push ON user_messages (user_id, message_id) WHERE (flags & ${ACTIVE_PUSH}) <> 0`);
  await knex.raw('CREATE INDEX notification_jobs_claimed ON notification_jobs (claimed_until) WHERE claimed_until IS NOT NULL');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX IF EXISTS notification_jobs_claimed');
  await knex.raw('DROP INDEX IF EXISTS user_messages_active_push');
  await knex.raw('DROP INDEX IF EXISTS user_messages_personal');
}
