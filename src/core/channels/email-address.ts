import type { AppDeps } from '../deps';
import { isRowId } from '../../db/ids';
import { errors } from '../../errors';
import { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { accessChannelById, accessChannelForPost, loadViewer } from './access';

/**
 * GET /streams/{id}/email_address. Parley has no incoming-email gateway, so the answer is the one
 * Zulip gives when its gateway is not configured: an empty address, after the same checks (a
 * channel the caller can see; a `sender_id` that is the caller or a bot they administer). Since
 * feature level 448 the address is only for those who may post there: the caller, and the bot
 * chosen as sender (which may use its owner's permission, as when it sends).
 */
export async function channelEmailAddress(deps: AppDeps, user: User, streamId: number, senderId: number | undefined): Promise<{ email: string }> {
  const db = deps.knex;
  const viewer = await loadViewer(db, user);
  const stream = await accessChannelById(db, viewer, streamId, { requireContentAccess: false });
  let bot: User | undefined;
  if (senderId !== undefined && senderId !== user.id) {
    bot = isRowId(senderId) ? await User.query(db).findOne({ realm_id: deps.realmId, id: senderId }) : undefined;
    if (!bot || !bot.is_bot) throw errors.badRequest('No such bot');
    if (!isAdminRole(user.role) && bot.bot_owner_id !== user.id) throw errors.badRequest('Insufficient permission');
  }
  await accessChannelForPost(db, viewer, stream);
  if (bot) await accessChannelForPost(db, await loadViewer(db, bot), stream);
  return { email: '' };
}
