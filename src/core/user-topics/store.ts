import type { Knex } from 'knex';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { ZulipEvent } from '../../realtime/bus';
import { unixTime } from '../messages/model';
import { anyOf } from '../../db/lists';

/**
 * The per-user, per-topic visibility policy (Zulip's UserTopic): 0 inherit (no row), 1 muted,
 * 2 unmuted, 3 followed. Both the legacy muted-topics endpoint and POST /user_topics write
 * through here; every change emits `user_topic` and the legacy `muted_topics` event.
 */
export const VisibilityPolicy = { INHERIT: 0, MUTED: 1, UNMUTED: 2, FOLLOWED: 3 } as const;
export type VisibilityPolicyValue = (typeof VisibilityPolicy)[keyof typeof VisibilityPolicy];
export const VISIBILITY_POLICIES = [0, 1, 2, 3] as const;

export interface UserTopicRow {
  user_id: number;
  stream_id: number;
  topic_name: string;
  visibility_policy: number;
  last_updated: Date;
}

export function userTopicEvent(streamId: number, topicName: string, lastUpdated: Date, policy: number): ZulipEvent {
  return { type: 'user_topic', stream_id: streamId, topic_name: topicName, last_updated: unixTime(lastUpdated), visibility_policy: policy };
}

/** [channel name, topic, muted at] for every muted topic (the legacy format). */
export async function mutedTopicsList(db: Knex, userId: number): Promise<[string, string, number][]> {
  const rows: { name: string; topic_name: string; last_updated: Date }[] = await db('user_topics as ut')
    .join('streams as s', 's.id', 'ut.stream_id')
    .where({ 'ut.user_id': userId, 'ut.visibility_policy': VisibilityPolicy.MUTED })
    .orderBy('ut.id')
    .select('s.name', 'ut.topic_name', 'ut.last_updated');
  return rows.map((r) => [r.name, r.topic_name, unixTime(r.last_updated)]);
}

/**
 * Sets the policy for several users at once; users whose policy does not change are left alone
 * (no event). Returns the users whose policy changed.
 */
export async function setVisibilityPolicies(
  uow: UnitOfWork,
  userIds: number[],
  streamId: number,
  topic: string,
  policy: number,
  options: { lastUpdated?: Date; skipMutedTopicsEvent?: boolean } = {},
): Promise<number[]> {
  const db = uow.trx;
  if (userIds.length === 0) return [];
  const lastUpdated = options.lastUpdated ?? new Date();
  const existing: { user_id: number; visibility_policy: number }[] = await db('user_topics')
    .where('stream_id', streamId)
    .whereRaw(...anyOf('user_id', userIds))
    .whereRaw('lower(topic_name) = lower(?)', [topic])
    .select('user_id', 'visibility_policy');
  const current = new Map(existing.map((r) => [r.user_id, r.visibility_policy]));
  const changed = userIds.filter((id) => (current.get(id) ?? VisibilityPolicy.INHERIT) !== policy);
  if (changed.length === 0) return [];
  if (policy === VisibilityPolicy.INHERIT) {
    await db('user_topics')
      .where('stream_id', streamId)
      .whereRaw(...anyOf('user_id', changed))
      .whereRaw('lower(topic_name) = lower(?)', [topic])
      .delete();
  } else {
    const toUpdate = changed.filter((id) => current.has(id));
    const toInsert = changed.filter((id) => !current.has(id));
    if (toUpdate.length > 0) {
      await db('user_topics')
        .where('stream_id', streamId)
        .whereRaw(...anyOf('user_id', toUpdate))
        .whereRaw('lower(topic_name) = lower(?)', [topic])
        .update({ visibility_policy: policy, last_updated: lastUpdated });
    }
    if (toInsert.length > 0) {
      const realm = await db('streams').where({ id: streamId }).first('realm_id');
      await db('user_topics').insert(
        toInsert.map((userId) => ({
          realm_id: realm.realm_id,
          user_id: userId,
          stream_id: streamId,
          topic_name: topic,
          visibility_policy: policy,
          last_updated: lastUpdated,
        })),
      );
    }
  }
  for (const userId of changed) {
    if (!options.skipMutedTopicsEvent) uow.emit({ type: 'muted_topics', muted_topics: await mutedTopicsList(db, userId) }, [userId]);
    uow.emit(userTopicEvent(streamId, topic, lastUpdated, policy), [userId]);
  }
  return changed;
}
