import type { Knex } from 'knex';
import type { Config } from '../../config';
import { isRowId } from '../../db/ids';
import { ApiError, errors } from '../../errors';
import { accessChannelById, loadViewer } from '../channels/access';
import { userSettings } from '../settings/store';
import { User } from '../users/model';
import { placeholderEmail, canSeeDeliveryEmail } from '../users/view';
import { Draft } from './model';
import { anyOf } from '../../db/lists';

/** Whether the user keeps drafts on the server: their `enable_drafts_synchronization` setting. */
export async function draftsSyncEnabled(db: Knex, user: Pick<User, 'id' | 'realm_id'>): Promise<boolean> {
  return (await userSettings(db, user)).enable_drafts_synchronization !== false;
}

export async function requireDraftsSync(db: Knex, user: User): Promise<void> {
  if (!(await draftsSyncEnabled(db, user))) throw errors.badRequest('User has disabled synchronizing drafts.');
}

/** One of the user's own drafts. Someone else's draft gets the same answer as a missing one. */
export async function findOwnDraft(db: Knex, user: User, draftId: number): Promise<Draft> {
  const draft = isRowId(draftId) ? await Draft.query(db).findOne({ id: draftId, user_id: user.id, realm_id: user.realm_id }) : undefined;
  if (!draft) throw new ApiError('BAD_REQUEST', 'Draft does not exist', 404);
  return draft;
}

/**
 * The channel a channel draft is addressed to: exactly one id, naming an active channel the user
 * can read (anything else is "Invalid channel ID", as a missing channel is).
 */
export async function resolveDraftChannel(db: Knex, user: User, to: number[]): Promise<number> {
  if (to.length !== 1) throw errors.badRequest('Must specify exactly 1 channel ID for channel messages');
  const viewer = await loadViewer(db, user);
  return (await accessChannelById(db, viewer, to[0])).id;
}

/**
 * The `to` list a direct-message draft is stored with, as Zulip derives it from the conversation:
 * the other participants in id order, or the user alone for a note to self. Every id must be an
 * account of the organization, and none may be deactivated.
 */
export async function resolveDraftRecipients(db: Knex, config: Config, user: User, to: number[]): Promise<number[]> {
  const ids = [...new Set(to)];
  // Numbers beyond the id range name nobody (and cannot be sent in a query).
  const found = await User.query(db)
    .where('realm_id', user.realm_id)
    .whereRaw(...anyOf('id', ids.filter(isRowId)));
  const byId = new Map(found.map((u) => [u.id, u]));
  for (const id of ids) {
    if (!byId.has(id)) throw errors.badRequest(`Invalid user ID ${id}`);
  }
  for (const id of ids) {
    const recipient = byId.get(id)!;
    if (!recipient.is_active) {
      const shown = canSeeDeliveryEmail(user, recipient) ? recipient.delivery_email : placeholderEmail(config, recipient.id);
      throw errors.badRequest(`'${shown}' is no longer using Zulip.`);
    }
  }
  const others = ids.filter((id) => id !== user.id).sort((a, b) => a - b);
  return others.length === 0 ? [user.id] : others;
}
