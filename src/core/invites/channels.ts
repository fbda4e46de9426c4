import type { Knex } from 'knex';
import { ApiError, errors } from '../../errors';
import type { UnitOfWork } from '../../db/unit-of-work';
import { accessChannelById, canAddSubscribersToAll, loadViewer } from '../channels/access';
import { subscribeNewAccount } from '../channels/actions';
import type { User } from '../users/model';

/**
 * Where invitations meet channels; the channels feature decides access and does the subscribing.
 *
 * Each channel must be one the inviter can access (otherwise it is reported as an invalid id, as
 * a missing one is) and may add subscribers to. The organization has no default channels, so
 * include_realm_default_subscriptions adds nothing.
 */
export async function resolveInviteChannels(db: Knex, _realmId: number, actor: User, ids: number[]): Promise<number[]> {
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
  if (!(await canAddSubscribersToAll(db, viewer, streams))) {
    throw errors.badRequest('You do not have permission to subscribe other users to channels.');
  }
  return [...new Set(ids)];
}

/**
 * Subscribes a user who accepted an invitation to its channels (those still active), with the
 * usual subscription events. Default channels do not exist, so `_includeRealmDefaults` adds none.
 */
export async function subscribeInvitedUser(uow: UnitOfWork, user: User, channelIds: number[], _includeRealmDefaults: boolean): Promise<void> {
  await subscribeNewAccount(uow, user, channelIds);
}
