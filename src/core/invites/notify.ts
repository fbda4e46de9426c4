import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import { sendInternalMessage } from '../messages/send';
import { notificationBot } from '../system-bots/notification-bot';
import { User } from '../users/model';

/**
 * Tells the inviter, in a direct message from the notification bot, that their invitation was
 * accepted. A deactivated inviter is not written to.
 */
export async function notifyReferrerOfJoin(deps: AppDeps, uow: UnitOfWork, referrerId: number, newUser: User): Promise<void> {
  const referrer = await User.query(uow.trx).findById(referrerId);
  if (!referrer || !referrer.is_active) return;
  const bot = await notificationBot(uow.trx);
  const mention = `@_**${newUser.full_name}|${newUser.id}**`;
  await sendInternalMessage(deps, uow, bot, { users: [referrer] }, `${mention} accepted your invitation to join the organization.`);
}
