import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { ApiError } from '../../errors';
import { activeOwnerCount, findUser } from '../users/access';
import { deactivateAccount } from '../users/actions';
import type { User } from '../users/model';
import { isOwnerRole } from '../users/roles';

/** Zulip's CannotDeactivateLastUserError. */
function cannotDeactivateLast(isLastOwner: boolean): ApiError {
  const entity = isLastOwner ? 'organization owner' : 'user';
  return new ApiError('CANNOT_DEACTIVATE_LAST_USER', `Cannot deactivate the only ${entity}.`, 400, { is_last_owner: isLastOwner, entity });
}

/** DELETE /users/me: a user leaves the organization. The only owner, or the only user, cannot. */
export async function deactivateOwnAccount(deps: AppDeps, user: User): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const me = await findUser(uow.trx, deps.realmId, user.id);
    const active = (await uow.trx('users').where({ realm_id: deps.realmId, is_active: true, is_system_bot: false }).count('id as n').first()) as {
      n: number | string;
    };
    if (Number(active.n) <= 1) throw cannotDeactivateLast(false);
    if (isOwnerRole(me.role) && !me.is_bot && (await activeOwnerCount(uow.trx, deps.realmId)) <= 1) throw cannotDeactivateLast(true);
    // Ends the account's web sessions too.
    await deactivateAccount(deps, uow, me);
  });
}
