import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import { activeUserIds } from '../users/access';
import type { User } from '../users/model';
import { USER_STATUS_EVENT } from './store';

/** Everyone who sees a user's status: every active account (nobody's view of users is limited). */
export function statusAudience(deps: AppDeps, uow: UnitOfWork): Promise<number[]> {
  return activeUserIds(uow.trx, deps.realmId);
}

/**
 * A change of presence_enabled made through the settings: a user who has a status shows it as the
 * deprecated `away`, so clients following statuses are told (the status endpoint announces its own).
 */
export async function announceAway(deps: AppDeps, uow: UnitOfWork, user: User, away: boolean): Promise<void> {
  const row = await uow.trx('user_status').where('user_id', user.id).first('user_id');
  if (!row) return;
  uow.emit({ type: USER_STATUS_EVENT, user_id: user.id, away }, await statusAudience(deps, uow));
}
