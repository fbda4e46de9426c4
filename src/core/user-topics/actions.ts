import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { accessChannelById, accessChannelByName, findChannel, invalidChannelId, loadViewer } from '../channels/access';
import type { Stream } from '../channels/model';
import { canonicalTopic } from '../messages/topics';
import type { User } from '../users/model';
import { setVisibilityPolicies, VisibilityPolicy } from './store';

/**
 * Changing one's visibility policy for a topic: POST /user_topics (any policy) and the legacy
 * PATCH /users/me/subscriptions/muted_topics (mute/unmute), one store for both. Setting the policy
 * a topic already has is not an error (Zulip feature level 169). The topic need not have messages.
 */
export async function updateUserTopic(deps: AppDeps, user: User, streamId: number, topic: string, policy: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    let stream: Stream;
    if (policy === VisibilityPolicy.INHERIT) {
      // Dropping a preference works even for channels one can no longer read.
      const found = await findChannel(db, deps.realmId, streamId);
      if (!found) throw invalidChannelId();
      stream = found;
    } else {
      stream = await accessChannelById(db, await loadViewer(db, user), streamId);
    }
    await setVisibilityPolicies(uow, [user.id], stream.id, canonicalTopic(topic), policy);
  });
}

export async function updateMutedTopic(
  deps: AppDeps,
  user: User,
  target: { streamId?: number; streamName?: string },
  topic: string,
  op: 'add' | 'remove',
): Promise<void> {
  if (target.streamId === undefined && target.streamName === undefined) throw errors.badRequest("Missing 'stream_id' argument");
  if (target.streamId !== undefined && target.streamName !== undefined) {
    throw errors.badRequest('Unsupported parameter combination: stream_id, stream', { parameters: 'stream_id, stream' });
  }
  const streamId =
    target.streamId ?? (await accessChannelByName(deps.knex, await loadViewer(deps.knex, user), target.streamName!, { requireActive: op === 'add' })).id;
  await updateUserTopic(deps, user, streamId, topic, op === 'add' ? VisibilityPolicy.MUTED : VisibilityPolicy.INHERIT);
}
