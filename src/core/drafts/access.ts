import type { Knex } from 'knex';
import type { Config } from '../../config';
import { ApiError, errors } from '../../errors';
import { User } from '../users/model';
import { placeholderEmail, canSeeDeliveryEmail } from '../users/view';
import { Draft } from './model';

/**
 * Whether the user keeps drafts on the server (the `enable_drafts_synchronization` setting). An
 * account without the setting stored has it on, which is Zulip's default.
 */
export function draftsSyncEnabled(user: User): boolean {
  return (user as User & { enable_drafts_synchronization?: boolean }).enable_drafts_synchronization !== false;
}

export function requireDraftsSync(user: User): void {
  if (!draftsSyncEnabled(user)) throw errors.badRequest('User has disabled synchronizing drafts.');
}

/** One of the user's own drafts. Someone else's draft gets the same answer as a missing one. */
export async function findOwnDraft(db: Knex, user: User, draftId: number): Promise<Draft> {
  const draft = await Draft.query(db).findOne({ id: draftId, user_id: user.id, realm_id: user.realm_id });
  if (!draft) throw new ApiError('BAD_REQUEST', 'Draft does not exist', 404);
  return draft;
}

/**
 * The channel a channel draft is addressed to. Only the count is checked here; checking that the
 * channel exists and that the user may access it belongs with channel access.
 */
export async function resolveDraftChannel(_db: Knex, _user: User, to: number[]): Promise<number> {
  if (to.length !== 1) throw errors.badRequest('Must specify exactly 1 channel ID for channel messages');
  return to[0];
}

/**
 * The `to` list a direct-message draft is stored with, as Zulip derives it from the conversation:
 * the other participants in id order, or the user alone for a note to self. Every id must be an
 * account of the organization, and none may be deactivated.
 */
export async function resolveDraftRecipients(db: Knex, config: Config, user: User, to: number[]): Promise<number[]> {
  const ids = [...new Set(to)];
  const found = await User.query(db).where('realm_id', user.realm_id).whereIn('id', ids);
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
