import type { AppDeps } from '../../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { Stream } from '../channels/model';
import { currentPolicy, setVisibilityPolicies, VisibilityPolicy } from '../user-topics/store';
import type { User } from '../users/model';
import { isGuestRole } from '../users/roles';

/**
 * Topic visibility changes a channel message triggers, per the users' settings. Users do not
 * store these settings yet, so Zulip's defaults apply to everyone: follow the topics one starts
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

async function startedTopic(db: UnitOfWork['trx'], sender: User, stream: Stream, topic: string, messageId: number): Promise<boolean> {
  const query = db('messages').where('stream_id', stream.id).whereRaw('lower(topic) = lower(?)', [topic]).whereNot('id', messageId);
  const sharedHistory = (stream.isPublic() && !isGuestRole(sender.role)) || stream.history_public_to_subscribers;
  if (!sharedHistory) query.whereIn('id', (sub) => sub.select('message_id').from('user_messages').where('user_id', sender.id));
  return (await query.first('id')) === undefined;
}

/** Zulip's visibility_policy_for_send_message: the policy sending should raise the sender's to, if any. */
async function policyAfterSending(db: UnitOfWork['trx'], sender: User, stream: Stream, topic: string, messageId: number): Promise<number | null> {
  const { automaticallyFollowTopicsPolicy: follow, automaticallyUnmuteTopicsInMutedStreamsPolicy: unmute } = AUTOMATIC_POLICY_DEFAULTS;
  const current = await currentPolicy(db, sender.id, stream.id, topic);
  if (current === VisibilityPolicy.FOLLOWED) return null;
  const sub = await db('subscriptions').where({ user_id: sender.id, stream_id: stream.id, active: true }).first('is_muted');
  const muted = Boolean(sub?.is_muted);
  const candidates: (number | null)[] = [
    follow === ON_PARTICIPATION || follow === ON_SEND ? VisibilityPolicy.FOLLOWED : null,
    muted && (unmute === ON_PARTICIPATION || unmute === ON_SEND) ? VisibilityPolicy.UNMUTED : null,
  ];
  if (candidates.includes(VisibilityPolicy.FOLLOWED)) return VisibilityPolicy.FOLLOWED;
  let policy: number | null = candidates.includes(VisibilityPolicy.UNMUTED) ? VisibilityPolicy.UNMUTED : null;
  if (current !== VisibilityPolicy.INHERIT) return policy !== null && policy === current ? null : policy;
  const initiated = follow === ON_INITIATION || (muted && unmute === ON_INITIATION) ? await startedTopic(db, sender, stream, topic, messageId) : false;
  if (initiated && follow === ON_INITIATION) return VisibilityPolicy.FOLLOWED;
  if (initiated && muted && unmute === ON_INITIATION) policy = VisibilityPolicy.UNMUTED;
  return policy;
}

/** Returns the sender's new visibility policy for the topic when sending changed it, else null. */
export async function afterChannelMessageSent(
  _deps: AppDeps,
  uow: UnitOfWork,
  sender: User,
  stream: Stream,
  topic: string,
  messageId: number,
  mentionedUserIds: Set<number>,
  recipientIds: Set<number>,
): Promise<number | null> {
  const db = uow.trx;
  let result: number | null = null;
  if (!sender.is_bot) {
    const policy = await policyAfterSending(db, sender, stream, topic, messageId);
    if (policy !== null && (await setVisibilityPolicies(uow, [sender.id], stream.id, topic, policy)).length > 0) result = policy;
  }
  if (AUTOMATIC_POLICY_DEFAULTS.automaticallyFollowTopicsWhereMentioned) {
    const mentioned = [...mentionedUserIds].filter((id) => recipientIds.has(id));
    if (mentioned.length > 0) {
      const humans: { id: number }[] = await db('users').whereIn('id', mentioned).where({ is_bot: false, is_active: true }).select('id');
      const settled = new Set(
        (
          (await db('user_topics')
            .where('stream_id', stream.id)
            .whereIn('user_id', humans.map((h) => h.id))
            .whereRaw('lower(topic_name) = lower(?)', [topic])
            .whereIn('visibility_policy', [VisibilityPolicy.MUTED, VisibilityPolicy.FOLLOWED])
            .select('user_id')) as { user_id: number }[]
        ).map((r) => r.user_id),
      );
      const toFollow = humans.map((h) => h.id).filter((id) => !settled.has(id));
      await setVisibilityPolicies(uow, toFollow, stream.id, topic, VisibilityPolicy.FOLLOWED);
    }
  }
  return result;
}
