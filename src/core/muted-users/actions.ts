import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isRowId } from '../../db/ids';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { flagsEvent } from '../messages/events';
import { FLAG_BITS } from '../messages/flags';
import { User } from '../users/model';
import { mutedUsersOf, mutersCache, MUTED_USERS_EVENT } from './store';

/**
 * Muting a user (Zulip's muted users): the muter's clients hide the muted user's messages, and
 * the server marks them read for the muter, both those already received (at mute time) and new
 * ones (at send time, see messages/send.ts). Any account can be muted, bots and deactivated ones
 * included, and the server's own bots, but not oneself.
 */

/** The account a mute names: any of the organization's, or one of the server's bots. */
async function mutableUser(db: Knex, realmId: number, userId: number): Promise<User> {
  const found = isRowId(userId)
    ? await User.query(db)
        .findById(userId)
        .where((q) => q.where('realm_id', realmId).orWhere('is_system_bot', true))
    : undefined;
  if (!found) throw errors.noSuchUser();
  return found;
}

function announce(deps: AppDeps, uow: UnitOfWork, muter: User, mutedUsers: Awaited<ReturnType<typeof mutedUsersOf>>): void {
  uow.emit({ type: MUTED_USERS_EVENT, muted_users: mutedUsers }, [muter.id]);
  uow.afterCommit(() => mutersCache(deps).invalidate());
}

/** POST /users/me/muted_users/{id}. */
export async function muteUser(deps: AppDeps, muter: User, mutedUserId: number): Promise<void> {
  if (muter.id === mutedUserId) throw errors.badRequest('Cannot mute self');
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const muted = await mutableUser(db, deps.realmId, mutedUserId);
    const inserted = await db('muted_users')
      .insert({ realm_id: deps.realmId, user_id: muter.id, muted_user_id: muted.id, date_muted: new Date() })
      .onConflict(['user_id', 'muted_user_id'])
      .ignore()
      .returning('id');
    if (inserted.length === 0) throw errors.badRequest('User already muted');
    await markMessagesFromRead(uow, muter, muted.id);
    announce(deps, uow, muter, await mutedUsersOf(db, muter.id));
  });
}

/** DELETE /users/me/muted_users/{id}. */
export async function unmuteUser(deps: AppDeps, muter: User, mutedUserId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const muted = await mutableUser(db, deps.realmId, mutedUserId);
    const deleted = await db('muted_users').where({ user_id: muter.id, muted_user_id: muted.id }).delete().returning('id');
    if (deleted.length === 0) throw errors.badRequest('User is not muted');
    announce(deps, uow, muter, await mutedUsersOf(db, muter.id));
  });
}

/** The muter's unread messages from the muted user become read, as if the muter had read them. */
async function markMessagesFromRead(uow: UnitOfWork, muter: User, mutedId: number): Promise<void> {
  const result = await uow.trx.raw(
    `UPDATE user_messages um SET flags = um.flags | ?
       FROM messages m
      WHERE um.user_id = ? AND m.id = um.message_id AND m.sender_id = ? AND (um.flags & ?) = 0
      RETURNING um.message_id`,
    [FLAG_BITS.read, muter.id, mutedId, FLAG_BITS.read],
  );
  const ids = (result.rows as { message_id: number }[]).map((r) => Number(r.message_id)).sort((a, b) => a - b);
  if (ids.length > 0) uow.emit(flagsEvent('add', 'read', ids), [muter.id]);
}
