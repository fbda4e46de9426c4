import type { AccountLifecycleSteps } from '../users/lifecycle';
import { registerAccountLifecycleSteps } from '../users/lifecycle';
import { revokeInvitationsBy } from './actions';

/** A deactivated user's pending invitations are withdrawn. */
const accountSteps: AccountLifecycleSteps = {
  deactivated: (uow, user) => revokeInvitationsBy(uow, user.id),
};

/** Registers the invitations feature's part in other features' actions (see `connectFeatures`). */
export function connectInvites(): void {
  registerAccountLifecycleSteps(accountSteps);
}
