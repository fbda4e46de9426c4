import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { AccountLifecycleSteps } from '../users/lifecycle';
import { deactivateAccount } from '../users/actions';
import { User } from '../users/model';
import { botAdministratorIds } from './access';
import { administersAllBots, botDicts } from './queries';

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
  /** Becoming or ceasing to be an administrator adds or removes the bots one does not own from one's realm_bots. */
  async changingRole(uow: UnitOfWork, user: User, deps: AppDeps) {
    const before = administersAllBots(user);
    return async (changed: User) => {
      if (administersAllBots(changed) === before) return;
      const others = await User.query(uow.trx)
        .where({ realm_id: uow.realmId, is_bot: true, is_system_bot: false })
        .where((q) => q.whereNull('bot_owner_id').orWhereNot('bot_owner_id', user.id))
        .orderBy('id');
      if (others.length === 0) return;
      if (before) {
        for (const bot of others) uow.emit({ type: 'realm_bot', op: 'delete', bot: { user_id: bot.id } }, [user.id]);
        return;
      }
      for (const dict of await botDicts(deps, uow.trx, others)) uow.emit({ type: 'realm_bot', op: 'add', bot: dict }, [user.id]);
    };
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
