import type { Knex } from 'knex';
import { errors } from '../../errors';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { User } from '../users/model';

/**
 * Where invitations meet channels. Until the channels feature provides a `streams` table every
 * channel id is unknown, so an invitation naming channels is refused; once the table exists, ids
 * of the organization's channels are accepted. Channel access and the "may subscribe others"
 * rule belong here too, next to subscribing the new user on acceptance.
 */
export async function resolveInviteChannels(db: Knex, realmId: number, _actor: User, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const known = (await db.schema.hasTable('streams'))
    ? new Set<number>((await db('streams').where('realm_id', realmId).whereIn('id', ids).pluck('id')) as number[])
    : new Set<number>();
  for (const id of ids) {
    if (!known.has(id)) throw errors.badRequest(`Invalid channel ID ${id}. No invites were sent.`);
  }
  return [...new Set(ids)];
}

/** Subscribes a user who accepted an invitation to its channels (and the defaults when asked). */
export async function subscribeInvitedUser(
  _uow: UnitOfWork,
  _user: User,
  _channelIds: number[],
  _includeRealmDefaults: boolean,
): Promise<void> {
  // Channels and subscriptions do not exist yet; nothing to subscribe to.
}
