import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { ChannelViewer } from '../channels/access';
import { deleteMessagesInTransaction } from '../messages/bulk-delete';
import { v, Validator } from '../../validation/validate';
import { activeUserIds } from './access';
import { User } from './model';

/**
 * What `DELETE /users/{user_id}` may also do while deactivating (its `actions`, feature level 459):
 * delete the profile (the name becomes "Deleted user", an uploaded avatar goes), and delete the
 * messages the user sent in public channels, in private channels, or as direct messages. As the
 * deactivation itself, the actions apply first to the bots the user owns, then to the user.
 */
export interface DeactivationActions {
  deleteProfile: boolean;
  deletePublicChannelMessages: boolean;
  deletePrivateChannelMessages: boolean;
  deleteDirectMessages: boolean;
}

export const NO_DEACTIVATION_ACTIONS: DeactivationActions = {
  deleteProfile: false,
  deletePublicChannelMessages: false,
  deletePrivateChannelMessages: false,
  deleteDirectMessages: false,
};

type WireActions = Partial<Record<'delete_profile' | 'delete_public_channel_messages' | 'delete_private_channel_messages' | 'delete_direct_messages', boolean>>;

/** The REST parameter: a JSON object of booleans, each false unless given. */
export const deactivationActionsValidator: Validator<DeactivationActions> = (value, name) => {
  const wire = v.dict<WireActions>(
    {},
    {
      delete_profile: v.bool(),
      delete_public_channel_messages: v.bool(),
      delete_private_channel_messages: v.bool(),
      delete_direct_messages: v.bool(),
    },
  )(value, name);
  return {
    deleteProfile: wire.delete_profile ?? false,
    deletePublicChannelMessages: wire.delete_public_channel_messages ?? false,
    deletePrivateChannelMessages: wire.delete_private_channel_messages ?? false,
    deleteDirectMessages: wire.delete_direct_messages ?? false,
  };
};

/** The name a deleted profile takes (Zulip's). */
export const DELETED_USER_NAME = 'Deleted user';

/** The accounts the actions apply to, in order: the active bots the user owns, then the user. */
export async function accountsForActions(db: Knex, target: User): Promise<User[]> {
  if (target.is_bot) return [target];
  const bots = await User.query(db).where({ bot_owner_id: target.id, is_bot: true, is_active: true }).orderBy('id');
  return [...bots, target];
}

/**
 * Applies the actions inside the deactivation's transaction. Deletions are announced as any
 * deletion; the acting administrator hears only of the messages they could access. Returns the
 * accounts whose uploaded avatar is to go once the transaction is committed.
 */
export async function applyDeactivationActions(
  uow: UnitOfWork,
  deps: AppDeps,
  accounts: User[],
  actions: DeactivationActions,
  actor: ChannelViewer | null,
): Promise<User[]> {
  const avatarsToDrop: User[] = [];
  for (const account of accounts) {
    const ids = await sentMessageIds(uow.trx, deps.realmId, account.id, actions);
    await deleteMessagesInTransaction(uow, deps, ids, actor);
    if (actions.deleteProfile) {
      await deleteProfileName(uow, deps, account);
      if (account.avatar_source === 'U') avatarsToDrop.push(account);
    }
  }
  return avatarsToDrop;
}

async function sentMessageIds(db: Knex, realmId: number, senderId: number, actions: DeactivationActions): Promise<number[]> {
  const { deletePublicChannelMessages: pub, deletePrivateChannelMessages: priv, deleteDirectMessages: direct } = actions;
  if (!pub && !priv && !direct) return [];
  const query = db('messages as m')
    .leftJoin('streams as s', 's.id', 'm.stream_id')
    .where({ 'm.realm_id': realmId, 'm.sender_id': senderId })
    .where((q) => {
      if (direct) q.orWhereNull('m.stream_id');
      if (pub) q.orWhere('s.invite_only', false);
      if (priv) q.orWhere('s.invite_only', true);
    })
    .orderBy('m.id');
  return (await query.pluck('m.id')).map(Number);
}

/** The profile's name becomes "Deleted user" (whatever the organization's unique-names rule), told as a rename. */
async function deleteProfileName(uow: UnitOfWork, deps: AppDeps, account: User): Promise<void> {
  if (account.full_name === DELETED_USER_NAME) return;
  await User.query(uow.trx).patch({ full_name: DELETED_USER_NAME }).where({ id: account.id });
  account.full_name = DELETED_USER_NAME;
  const recipients = await activeUserIds(uow.trx, deps.realmId);
  uow.emit({ type: 'realm_user', op: 'update', person: { user_id: account.id, full_name: DELETED_USER_NAME } }, recipients);
}
