import type { Knex } from 'knex';
import type { UnitOfWork } from '../../db/unit-of-work';
import { isGuestRole } from '../users/roles';

/** The organization's default channels (ids, ascending); archived channels are never defaults. */
export async function defaultChannelIds(db: Knex, realmId: number): Promise<number[]> {
  const ids: number[] = await db('default_streams')
    .join('streams', 'streams.id', 'default_streams.stream_id')
    .where({ 'default_streams.realm_id': realmId, 'streams.deactivated': false })
    .orderBy('default_streams.stream_id')
    .pluck('default_streams.stream_id');
  return ids.map(Number);
}

/** Every non-guest member hears of a change, with the full list. */
export async function announceDefaultChannels(uow: UnitOfWork, realmId: number): Promise<void> {
  const db = uow.trx;
  const members: { id: number; role: number }[] = await db('users').where({ realm_id: realmId, is_active: true }).select('id', 'role');
  uow.emit(
    { type: 'default_streams', default_streams: await defaultChannelIds(db, realmId) },
    members.filter((u) => !isGuestRole(u.role)).map((u) => u.id),
  );
}

/** A channel that became private or was archived stops being a default channel. */
export async function dropDefaultChannel(uow: UnitOfWork, realmId: number, streamId: number): Promise<void> {
  const removed = await uow.trx('default_streams').where({ realm_id: realmId, stream_id: streamId }).delete().returning('stream_id');
  if (removed.length > 0) await announceDefaultChannels(uow, realmId);
}
