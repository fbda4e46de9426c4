import type { Knex } from 'knex';

/**
 * Sending to a channel remembers the sender's automatic topic policies with the rest of its send
 * snapshot (core/messages/send-snapshots.ts), so a change of either setting bumps the
 * send_state_version of the sender's channels, as the triggers of
 * 20261122010000_channel_send_state_version do for everything else a snapshot relies on.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(
    `CREATE FUNCTION send_state_after_topic_policy_settings() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
       UPDATE streams SET send_state_version = send_state_version + 1 WHERE id IN (SELECT stream_id FROM subscriptions WHERE user_id = NEW.user_id);
       RETURN NULL; END $$`,
  );
  await knex.raw(
    `CREATE TRIGGER user_settings_send_state_topic_policies
     AFTER UPDATE OF automatically_follow_topics_policy, automatically_unmute_topics_in_muted_streams_policy ON user_settings
     FOR EACH ROW WHEN (OLD.automatically_follow_topics_policy IS DISTINCT FROM NEW.automatically_follow_topics_policy
       OR OLD.automatically_unmute_topics_in_muted_streams_policy IS DISTINCT FROM NEW.automatically_unmute_topics_in_muted_streams_policy)
     EXECUTE FUNCTION send_state_after_topic_policy_settings()`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP TRIGGER user_settings_send_state_topic_policies ON user_settings');
  await knex.raw('DROP FUNCTION send_state_after_topic_policy_settings()');
}
