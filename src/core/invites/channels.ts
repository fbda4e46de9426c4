import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import type { UnitOfWork } from '../../db/unit-of-work';
import { accessChannelById, canAddSubscribersToAll, loadViewer } from '../channels/access';
import { subscribeNewAccount } from '../channels/subscription-actions';
import type { User } from '../users/model';
import { defaultChannelIds } from '../default-channels/store';

/**
 * Where invitations meet channels; the channels feature decides access and does the subscribing.
 *
 * Each channel must be one the inviter can access (otherwise it is reported as an invalid id, as
 * a missing one is) and, unless it is a default channel, may add subscribers to.
 */
export async function resolveInviteChannels(db: Knex, realmId: number, actor: User, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const viewer = await loadViewer(db, actor);
  const streams = [];
  for (const id of ids) {
    try {
      streams.push(await accessChannelById(db, viewer, id));
    } catch (error) {
      if (error instanceof ApiError) throw errors.badRequest(`Invalid channel ID ${id}. No invites were sent.`);
      throw error;
    }
  }
  const defaults = new Set(await defaultChannelIds(db, realmId));
  if (
    !(await canAddSubscribersToAll(
      db,
      viewer,
      streams.filter((s) => !defaults.has(s.id)),
    ))
  ) {
    throw errors.badRequest('You do not have permission to subscribe other users to channels.');
  }
  return [...new Set(ids)];
}

/**
 * Subscribes a user who accepted an invitation to its channels (those still active), plus the
 * default channels when the invitation asked for them, with the usual subscription events.
 */
export async function subscribeInvitedUser(uow: UnitOfWork, user: User, channelIds: number[], includeRealmDefaults: boolean): Promise<void> {
  const defaults = includeRealmDefaults ? await defaultChannelIds(uow.trx, user.realm_id) : [];
  await subscribeNewAccount(uow, user, [...new Set([...channelIds, ...defaults])]);
}
