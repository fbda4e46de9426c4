import type { AppDeps } from '../../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { AccountLifecycleSteps } from '../users/lifecycle';
import { deactivateAccount } from '../users/actions';
import { User } from '../users/model';
import { botAdministratorIds } from './access';

/**
 * Bots follow their accounts' lifecycle as in Zulip: whoever administers a bot hears of its
 * (re)activation and renaming through `realm_bot`, and deactivating a person deactivates the bots they own.
 */
export const botLifecycleSteps: AccountLifecycleSteps = {
  async deactivated(uow: UnitOfWork, user: User, deps: AppDeps) {
    if (user.is_bot) {
      await announceActivation(uow, user, false);
      return;
    }
    const owned = await User.query(uow.trx).where({ bot_owner_id: user.id, is_bot: true, is_active: true });
    for (const bot of owned) await deactivateAccount(deps, uow, bot);
  },
  async reactivated(uow: UnitOfWork, user: User) {
    if (user.is_bot) await announceActivation(uow, user, true);
  },
  async renamed(uow: UnitOfWork, user: User) {
    if (!user.is_bot) return;
    const recipients = await botAdministratorIds(uow.trx, uow.realmId, user);
    uow.emit({ type: 'realm_bot', op: 'update', bot: { user_id: user.id, full_name: user.full_name } }, recipients);
  },
};

async function announceActivation(uow: UnitOfWork, bot: User, isActive: boolean): Promise<void> {
  const recipients = await botAdministratorIds(uow.trx, uow.realmId, bot);
  uow.emit({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, is_active: isActive } }, recipients);
}
