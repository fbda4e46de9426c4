import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { AccountLifecycleSteps } from '../users/lifecycle';
import { deactivateAccount } from '../users/actions';
import { User } from '../users/model';
import { administersAllBots, botDicts } from './queries';

/**
 * Bots follow their accounts' lifecycle as in Zulip: deactivating a person deactivates the bots they
 * own, and becoming or ceasing to be an administrator changes which bots one's realm_bots lists.
 * A bot's name and whether it is active are in its user object, so since Zulip 12.0 (feature level
 * 474) renaming, deactivating or reactivating it sends no `realm_bot` event.
 */
export const botLifecycleSteps: AccountLifecycleSteps = {
  async deactivated(uow: UnitOfWork, user: User, deps: AppDeps) {
    if (user.is_bot) return;
    const owned = await User.query(uow.trx).where({ bot_owner_id: user.id, is_bot: true, is_active: true });
    for (const bot of owned) await deactivateAccount(deps, uow, bot);
  },
  /** Becoming or ceasing to be an administrator adds or removes the bots one does not own from one's realm_bots. */
  async changingRole(uow: UnitOfWork, user: User) {
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
      for (const dict of await botDicts(uow.trx, others)) uow.emit({ type: 'realm_bot', op: 'add', bot: dict }, [user.id]);
    };
  },
};
