import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { accessChannelById, loadViewer } from '../channels/access';
import type { Stream } from '../channels/model';
import { setVisibilityPolicies, VisibilityPolicy } from '../user-topics/store';
import type { User } from '../users/model';
import { canReadChannelHistory, eventRecipientsForMessages, hasMessageAccess } from './access';
import { refreshFirstMessageId } from './delete';
import { removeMessageRows } from './bulk-delete';
import { deleteMessageEvent } from './events';
import { canonicalTopic } from './topics';
import { anyOf } from '../../db/lists';

/** Messages deleted per transaction (Zulip's batch for channel messages). */
export const DELETE_TOPIC_BATCH_SIZE = 100;

/**
 * POST /streams/{id}/delete_topic (administrators): deletes the topic's messages the caller can
 * see, newest first, a batch per transaction with its `delete_message` event, so a large topic
 * makes progress even when one request cannot finish it. Past the time budget
 * (PARLEY_DELETE_TOPIC_TIME_LIMIT_SECONDS, Zulip's 50 s) it answers `complete: false` and the
 * client asks again. Once the topic is empty, the visibility policies set for it are dropped
 * (`user_topic` events); in a channel with protected history, only for users who can see none of
 * its remaining messages.
 */
export async function deleteTopic(deps: AppDeps, user: User, streamId: number, topicName: string): Promise<{ complete: boolean }> {
  const viewer = await loadViewer(deps.knex, user);
  const stream = await accessChannelById(deps.knex, viewer, streamId);
  const topic = canonicalTopic(topicName);
  // Like Zulip's bulk access check: the whole history, the messages one received, or nothing.
  const everything = canReadChannelHistory(viewer, stream);
  if (!everything && !hasMessageAccess(viewer, asChannelMessage(stream), stream, true, { modifying: true })) return { complete: true };
  const deadline = Date.now() + deps.config.deleteTopicTimeLimitSeconds * 1000;
  for (;;) {
    if (Date.now() >= deadline) return { complete: false };
    const deleted = await inTransaction(deps, deps.realmId, async (uow) => {
      const db = uow.trx;
      const query = db('messages as m')
        .where({ 'm.realm_id': deps.realmId, 'm.stream_id': stream.id })
        .whereRaw('lower(m.topic) = lower(?)', [topic])
        .orderBy('m.id', 'desc')
        .limit(DELETE_TOPIC_BATCH_SIZE)
        .forUpdate()
        .select('m.id', 'm.topic');
      if (!everything) query.whereExists(db('user_messages as um').whereRaw('um.message_id = m.id').where('um.user_id', user.id));
      const batch: { id: number; topic: string }[] = await query;
      if (batch.length === 0) return 0;
      const ids = batch.map((m) => m.id).sort((a, b) => a - b);
      const recipients = await eventRecipientsForMessages(db, ids, stream);
      // The caller deletes only messages they can access, and sees them go.
      recipients.add(user.id);
      await removeMessageRows(uow, deps, ids);
      await refreshFirstMessageId(uow, deps, stream, ids);
      uow.emit(deleteMessageEvent(ids, { streamId: stream.id, topic: batch[0].topic }), recipients);
      return batch.length;
    });
    if (deleted === 0) break;
  }
  await dropStaleVisibilityPolicies(deps, stream, topic);
  return { complete: true };
}

const asChannelMessage = (stream: Stream) => ({ stream_id: stream.id, realm_id: stream.realm_id });

async function dropStaleVisibilityPolicies(deps: AppDeps, stream: Stream, topic: string): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const rows: { user_id: number; topic_name: string }[] = await db('user_topics')
      .where('stream_id', stream.id)
      .whereRaw('lower(topic_name) = lower(?)', [topic])
      .select('user_id', 'topic_name');
    let userIds = rows.map((r) => r.user_id);
    if (userIds.length === 0) return;
    if (!stream.history_public_to_subscribers) {
      const stillSee: { user_id: number }[] = await db('user_messages as um')
        .join('messages as m', 'm.id', 'um.message_id')
        .whereRaw(...anyOf('um.user_id', userIds))
        .where('m.stream_id', stream.id)
        .whereRaw('lower(m.topic) = lower(?)', [topic])
        .distinct('um.user_id');
      const keep = new Set(stillSee.map((r) => r.user_id));
      userIds = userIds.filter((id) => !keep.has(id));
    }
    await setVisibilityPolicies(uow, userIds, stream.id, rows[0].topic_name, VisibilityPolicy.INHERIT);
  });
}
