import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import { insertDeliveries } from '../deliveries/store';
import { welcomeEmail } from '../email/templates';
import { storedRealmSetting } from '../realm/setting-store';
import type { User } from '../users/model';
import { accountMailAddressing } from './mails';
import { queueWelcomeFollowUps } from './welcome-follow-ups';

/**
 * The welcome email of a person who joins (an invitation, POST /users, an account made at a
 * single sign-on or directory login), while the organization's send_welcome_emails is on. It is
 * an outbox item written with the account, which the caller sends after the commit (the delivery
 * worker is not woken for it, so the two do not race; it retries what that send fails). The
 * onboarding emails of the following days are queued with it (welcome-follow-ups.ts); only the
 * welcome email's id is answered, since those wait for their time.
 */
export async function queueWelcomeEmail(deps: AppDeps, uow: UnitOfWork, user: User): Promise<number[]> {
  if (user.is_bot || !(await storedRealmSetting(uow.trx, deps.realmId, 'send_welcome_emails', true))) return [];
  const email = welcomeEmail(await accountMailAddressing(deps, uow.trx, user));
  const ids = await insertDeliveries(uow.trx, deps.realmId, [{ kind: 'email', payload: { ...email } }]);
  await queueWelcomeFollowUps(deps, uow, user);
  return ids;
}
