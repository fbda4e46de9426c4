import type { AccountLifecycleSteps } from '../users/lifecycle';
import { registerAccountLifecycleSteps } from '../users/lifecycle';
import { cancelWelcomeFollowUps } from './welcome-follow-ups';

/** A deactivated account's pending onboarding emails are deleted (Zulip clears its scheduled emails). */
const accountSteps: AccountLifecycleSteps = {
  deactivated: async (uow, user) => {
    await cancelWelcomeFollowUps(uow.trx, uow.realmId, user.id);
  },
};

/** Registers the accounts feature's part in other features' actions (see `connectFeatures`). */
export function connectAccounts(): void {
  registerAccountLifecycleSteps(accountSteps);
}
