import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { isRowId } from '../../db/ids';
import { errors } from '../../errors';
import { subscribeNewAccount } from '../channels/subscription-actions';
import { Stream } from '../channels/model';
import { requireRealmAdmin } from '../realm/actions';
import type { User } from '../users/model';
import { announceDefaultChannels, defaultChannelIds } from './store';

/**
 * Default channels: the channels new accounts are subscribed to. Administrators manage them; every
 * non-guest member hears of changes with a `default_streams` event carrying the full list.
 */
async function findChannel(db: Knex, realmId: number, streamId: number): Promise<Stream> {
  const stream = isRowId(streamId) ? await Stream.query(db).findOne({ realm_id: realmId, id: streamId, deactivated: false }) : undefined;
  if (!stream) throw errors.badRequest('Invalid channel ID');
  return stream;
}

export async function addDefaultChannel(deps: AppDeps, actor: User, streamId: number): Promise<void> {
  requireRealmAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const stream = await findChannel(uow.trx, deps.realmId, streamId);
    if (stream.invite_only) throw errors.badRequest('Private channels cannot be made default.');
    const inserted = await uow
      .trx('default_streams')
      .insert({ realm_id: deps.realmId, stream_id: stream.id })
      .onConflict(['realm_id', 'stream_id'])
      .ignore()
      .returning('stream_id');
    if (inserted.length > 0) await announceDefaultChannels(uow, deps.realmId);
  });
}

export async function removeDefaultChannel(deps: AppDeps, actor: User, streamId: number): Promise<void> {
  requireRealmAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const stream = await findChannel(uow.trx, deps.realmId, streamId);
    const removed = await uow.trx('default_streams').where({ realm_id: deps.realmId, stream_id: stream.id }).delete().returning('stream_id');
    if (removed.length > 0) await announceDefaultChannels(uow, deps.realmId);
  });
}

/** Subscribes a new account to the default channels, with the usual subscription events. */
export async function subscribeToDefaultChannels(uow: UnitOfWork, user: User): Promise<void> {
  await subscribeNewAccount(uow, user, await defaultChannelIds(uow.trx, user.realm_id));
}
