import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { Stream } from '../channels/model';
import { setVisibilityPolicies, VisibilityPolicy } from '../user-topics/store';
import type { User } from '../users/model';
import { isGuestRole } from '../users/roles';
import { anyOf } from '../../db/lists';

/**
 * Topic visibility changes a channel message triggers, per the users' settings; Zulip's defaults
 * (for an account without its settings row): follow the topics one starts
 * (automatically_follow_topics_policy = 3), unmute topics one sends to in muted channels
 * (automatically_unmute_topics_in_muted_streams_policy = 2), and follow topics where one is
 * mentioned (automatically_follow_topics_where_mentioned = true).
 */
export const AUTOMATIC_POLICY_DEFAULTS = {
  automaticallyFollowTopicsPolicy: 3,
  automaticallyUnmuteTopicsInMutedStreamsPolicy: 2,
  automaticallyFollowTopicsWhereMentioned: true,
};
const ON_PARTICIPATION = 1;
const ON_SEND = 2;
const ON_INITIATION = 3;

/**
 * What the policy rules need to know of the sender and the topic, as it was before the message.
 * Sending reads it in the same statement as the channel (each statement is a round trip on the
 * send path): `senderTopicColumns` are the columns to add to a query over `streams`, and
 * `senderTopicState` reads them back.
 */
export interface SenderTopicState {
  /** The sender's visibility policy for the topic. */
  policy: number;
  /** Whether the sender's subscription to the channel is muted. */
  muted: boolean;
  /** Whether the topic already had a message the sender can see in its history. */
  topicExisted: boolean;
  /** The sender's automatically_follow_topics_policy and automatically_unmute_topics_in_muted_streams_policy (Zulip's defaults when absent). */
  followPolicy?: number;
  unmutePolicy?: number;
}

export function senderTopicColumns(db: Knex, sender: User, topic: string): Knex.Raw[] {
  // Without shared history, only messages the sender received count (as Zulip's check does).
  const sharedHistory = '((NOT streams.invite_only AND ?::boolean) OR streams.history_public_to_subscribers)';
  return [
    db.raw(
      `COALESCE((SELECT ut.visibility_policy FROM user_topics ut
                 WHERE ut.user_id = ? AND ut.stream_id = streams.id AND lower(ut.topic_name) = lower(?)), 0) AS sender_topic_policy`,
      [sender.id, topic],
    ),
    db.raw(
      'COALESCE((SELECT sub.is_muted FROM subscriptions sub WHERE sub.user_id = ? AND sub.stream_id = streams.id AND sub.active), false) AS sender_muted',
      [sender.id],
    ),
    db.raw(
      `CASE WHEN ${sharedHistory}
         THEN EXISTS (SELECT 1 FROM messages m WHERE m.stream_id = streams.id AND lower(m.topic) = lower(?))
         ELSE EXISTS (SELECT 1 FROM messages m JOIN user_messages um ON um.message_id = m.id AND um.user_id = ?
                      WHERE m.stream_id = streams.id AND lower(m.topic) = lower(?))
       END AS topic_existed`,
      [!isGuestRole(sender.role), topic, sender.id, topic],
    ),
    db.raw('(SELECT us.automatically_follow_topics_policy FROM user_settings us WHERE us.user_id = ?) AS sender_follow_policy', [sender.id]),
    db.raw('(SELECT us.automatically_unmute_topics_in_muted_streams_policy FROM user_settings us WHERE us.user_id = ?) AS sender_unmute_policy', [sender.id]),
  ];
}

/** Reads the columns of `senderTopicColumns` from a row, removing them from it. */
export function senderTopicState(row: Record<string, unknown>): SenderTopicState {
  const state = {
    policy: Number(row.sender_topic_policy),
    muted: Boolean(row.sender_muted),
    topicExisted: Boolean(row.topic_existed),
    followPolicy: row.sender_follow_policy == null ? undefined : Number(row.sender_follow_policy),
    unmutePolicy: row.sender_unmute_policy == null ? undefined : Number(row.sender_unmute_policy),
  };
  delete row.sender_topic_policy;
  delete row.sender_muted;
  delete row.topic_existed;
  delete row.sender_follow_policy;
  delete row.sender_unmute_policy;
  return state;
}

/** Zulip's visibility_policy_for_send_message: the policy sending should raise the sender's to, if any. */
function policyAfterSending(before: SenderTopicState): number | null {
  const follow = before.followPolicy ?? AUTOMATIC_POLICY_DEFAULTS.automaticallyFollowTopicsPolicy;
  const unmute = before.unmutePolicy ?? AUTOMATIC_POLICY_DEFAULTS.automaticallyUnmuteTopicsInMutedStreamsPolicy;
  const { policy: current, muted } = before;
  if (current === VisibilityPolicy.FOLLOWED) return null;
  const candidates: (number | null)[] = [
    follow === ON_PARTICIPATION || follow === ON_SEND ? VisibilityPolicy.FOLLOWED : null,
    muted && (unmute === ON_PARTICIPATION || unmute === ON_SEND) ? VisibilityPolicy.UNMUTED : null,
  ];
  if (candidates.includes(VisibilityPolicy.FOLLOWED)) return VisibilityPolicy.FOLLOWED;
  let policy: number | null = candidates.includes(VisibilityPolicy.UNMUTED) ? VisibilityPolicy.UNMUTED : null;
  if (current !== VisibilityPolicy.INHERIT) return policy !== null && policy === current ? null : policy;
  const initiated = (follow === ON_INITIATION || (muted && unmute === ON_INITIATION)) && !before.topicExisted;
  if (initiated && follow === ON_INITIATION) return VisibilityPolicy.FOLLOWED;
  if (initiated && muted && unmute === ON_INITIATION) policy = VisibilityPolicy.UNMUTED;
  return policy;
}

/** Whether afterChannelMessageSent may write anything for this message (else it does nothing). */
export function mayChangeTopicPolicies(sender: User, before: SenderTopicState | null, mentionedUserIds: Set<number>, recipientIds: Set<number>): boolean {
  if (!sender.is_bot && before && policyAfterSending(before) !== null) return true;
  return AUTOMATIC_POLICY_DEFAULTS.automaticallyFollowTopicsWhereMentioned && [...mentionedUserIds].some((id) => recipientIds.has(id));
}

/**
 * Returns the sender's new visibility policy for the topic when sending changed it, else null.
 * `before` is the sender's state read with the channel (see senderTopicColumns).
 */
export async function afterChannelMessageSent(
  _deps: AppDeps,
  uow: UnitOfWork,
  sender: User,
  stream: Stream,
  topic: string,
  before: SenderTopicState | null,
  mentionedUserIds: Set<number>,
  recipientIds: Set<number>,
): Promise<number | null> {
  const db = uow.trx;
  let result: number | null = null;
  // Bots' topics follow no policy (`before` is only read for people).
  if (!sender.is_bot && before) {
    const policy = policyAfterSending(before);
    if (policy !== null && (await setVisibilityPolicies(uow, [sender.id], stream.id, topic, policy)).length > 0) result = policy;
  }
  if (AUTOMATIC_POLICY_DEFAULTS.automaticallyFollowTopicsWhereMentioned) {
    const mentioned = [...mentionedUserIds].filter((id) => recipientIds.has(id));
    if (mentioned.length > 0) {
      // Only people whose automatically_follow_topics_where_mentioned is on (Zulip's default without a settings row).
      const humans: { id: number }[] = await db('users')
        .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
        .whereRaw(...anyOf('users.id', mentioned))
        .where({ 'users.is_bot': false, 'users.is_active': true })
        .whereRaw('COALESCE(user_settings.automatically_follow_topics_where_mentioned, true)')
        .select('users.id as id');
      const settled = new Set(
        (
          (await db('user_topics')
            .where('stream_id', stream.id)
            .whereRaw(
              ...anyOf(
                'user_id',
                humans.map((h) => h.id),
              ),
            )
            .whereRaw('lower(topic_name) = lower(?)', [topic])
            .whereRaw(...anyOf('visibility_policy', [VisibilityPolicy.MUTED, VisibilityPolicy.FOLLOWED]))
            .select('user_id')) as { user_id: number }[]
        ).map((r) => r.user_id),
      );
      const toFollow = humans.map((h) => h.id).filter((id) => !settled.has(id));
      await setVisibilityPolicies(uow, toFollow, stream.id, topic, VisibilityPolicy.FOLLOWED);
    }
  }
  return result;
}
