import type { AppDeps } from '../deps';
import { loadViewer, accessChannelById } from '../channels/access';
import { canReadChannelHistory } from '../messages/access';
import { displayTopic } from '../messages/topics';
import type { User } from '../users/model';
import { unixTime } from '../messages/model';

/**
 * GET /users/me/{stream_id}/topics: the channel's topics the user can see, most recent first; archived
 * channels too (Zulip refused them before feature level 480).
 */
export async function channelTopics(deps: AppDeps, user: User, streamId: number, allowEmptyTopicName: boolean) {
  const db = deps.knex;
  const viewer = await loadViewer(db, user);
  const stream = await accessChannelById(db, viewer, streamId, { requireActive: false });
  const query = db('messages')
    .where({ realm_id: deps.realmId, stream_id: stream.id })
    .groupBy('topic')
    .select('topic')
    .max('id as max_id')
    .orderBy('max_id', 'desc');
  // With protected history, only topics of messages the user received.
  if (!canReadChannelHistory(viewer, stream)) query.whereIn('id', (sub) => sub.select('message_id').from('user_messages').where('user_id', user.id));
  const rows = (await query) as { topic: string; max_id: number }[];
  const seen = new Set<string>();
  const topics: { name: string; max_id: number }[] = [];
  for (const row of rows) {
    const key = row.topic.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    topics.push({ name: displayTopic(row.topic, allowEmptyTopicName), max_id: Number(row.max_id) });
  }
  return topics;
}

export interface UserTopicDict {
  stream_id: number;
  topic_name: string;
  last_updated: number;
  visibility_policy: number;
}

export const byChannelAndTopic = (a: { stream_id: number; topic_name: string }, b: { stream_id: number; topic_name: string }) =>
  a.stream_id - b.stream_id || (a.topic_name.toLowerCase() < b.topic_name.toLowerCase() ? -1 : a.topic_name.toLowerCase() > b.topic_name.toLowerCase() ? 1 : 0);

export async function userTopics(db: AppDeps['knex'], userId: number, allowEmptyTopicName: boolean): Promise<UserTopicDict[]> {
  const rows: { stream_id: number; topic_name: string; last_updated: Date; visibility_policy: number }[] = await db('user_topics')
    .where('user_id', userId)
    .select('stream_id', 'topic_name', 'last_updated', 'visibility_policy');
  return rows
    .map((r) => ({
      stream_id: r.stream_id,
      topic_name: displayTopic(r.topic_name, allowEmptyTopicName),
      last_updated: unixTime(r.last_updated),
      visibility_policy: r.visibility_policy,
    }))
    .sort(byChannelAndTopic);
}
