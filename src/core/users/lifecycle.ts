import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { User } from './model';

/**
 * What other features do when an account is deactivated, reactivated or changes role: withdraw its
 * pending invitations, tell channel peers, show or hide channels. Each step runs inside the users action's transaction once the
 * account's state has changed: before the realm_user event on deactivation, after it on
 * reactivation (Zulip's order). Features register their steps at start (`connectFeatures`),
 * because they depend on the users feature and it cannot import them.
 */
export interface AccountLifecycleSteps {
  deactivated?(uow: UnitOfWork, user: User, deps: AppDeps): Promise<void>;
  reactivated?(uow: UnitOfWork, user: User): Promise<void>;
  /**
   * Runs before a role change is written (to note what the account could do); the step it returns
   * runs after the change and its realm_user and group events.
   */
  changingRole?(uow: UnitOfWork, user: User, deps: AppDeps): Promise<(changed: User) => Promise<void>>;
}

const registered: AccountLifecycleSteps[] = [];

export function registerAccountLifecycleSteps(steps: AccountLifecycleSteps): void {
  if (!registered.includes(steps)) registered.push(steps);
}

export async function runDeactivationSteps(uow: UnitOfWork, user: User, deps: AppDeps): Promise<void> {
  for (const steps of registered) await steps.deactivated?.(uow, user, deps);
}

export async function runReactivationSteps(uow: UnitOfWork, user: User): Promise<void> {
  for (const steps of registered) await steps.reactivated?.(uow, user);
}

/** Notes the registered features' view of the account before its role changes; call the result after. */
export async function prepareRoleChangeSteps(uow: UnitOfWork, user: User, deps: AppDeps): Promise<(changed: User) => Promise<void>> {
  const after: ((changed: User) => Promise<void>)[] = [];
  for (const steps of registered) if (steps.changingRole) after.push(await steps.changingRole(uow, user, deps));
  return async (changed) => {
    for (const step of after) await step(changed);
  };
}
