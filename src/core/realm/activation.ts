import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { cancelWelcomeFollowUps } from '../accounts/welcome-follow-ups';
import { activeUserIds } from '../users/access';
import type { User } from '../users/model';
import { isOwnerRole } from '../users/roles';
import { Realm } from './model';

/**
 * Deactivating the organization (owners only): from then on every API key is refused with
 * REALM_DEACTIVATED; active clients hear a `realm` `deactivated` event first. Only the operator
 * can reactivate it (CLI), since nobody can authenticate any more.
 */
export function requireRealmOwner(actor: User): void {
  if (!isOwnerRole(actor.role)) throw errors.mustBeOwner();
}

export async function deactivateRealm(deps: AppDeps, actor: User): Promise<void> {
  requireRealmOwner(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    await Realm.query(uow.trx).patch({ deactivated: true }).where('id', deps.realmId);
    // As Zulip deletes the organization's scheduled emails.
    await cancelWelcomeFollowUps(uow.trx, deps.realmId, null);
    uow.emit({ type: 'realm', op: 'deactivated', realm_id: deps.realmId }, await activeUserIds(uow.trx, deps.realmId));
  });
}

/** Returns false when the organization was active already. */
export async function reactivateRealm(deps: AppDeps): Promise<boolean> {
  const changed = await Realm.query(deps.knex).patch({ deactivated: false }).where({ id: deps.realmId, deactivated: true });
  return Number(changed) > 0;
}
