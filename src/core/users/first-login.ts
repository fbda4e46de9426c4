import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { activeUserIds } from './access';
import { forgetAuthAfterCommit } from './auth-cache';
import { isoTimestamp } from './view';

/**
 * Zulip's feature level 475: an account created through the API (POST /users, GraphQL createUser)
 * has its creation time as date_joined until its owner first logs in; that login becomes its
 * date_joined, told to everyone as a `realm_user` update. Parley has no imported stub accounts
 * (is_imported_stub is always false), so imports keep the date_joined they bring.
 *
 * Called at every login that proves the owner's credentials: a web session, POST /fetch_api_key
 * (and GraphQL login), the mobile login flow.
 */
export async function noteLogin(deps: AppDeps, userId: number): Promise<void> {
  // Nearly every login finds nothing to do: one indexed read, no transaction.
  const waiting = await deps.knex('users').where({ id: userId, realm_id: deps.realmId, awaiting_first_login: true }).first('id');
  if (!waiting) return;
  await inTransaction(deps, deps.realmId, async (uow) => {
    const now = new Date();
    // Conditional, so two first logins at once announce one date.
    const updated = await uow
      .trx('users')
      .where({ id: userId, awaiting_first_login: true })
      .update({ awaiting_first_login: false, date_joined: now })
      .returning('id');
    if (updated.length === 0) return;
    forgetAuthAfterCommit(deps, uow, userId);
    const person = { user_id: userId, date_joined: isoTimestamp(now) };
    uow.emit({ type: 'realm_user', op: 'update', person }, await activeUserIds(uow.trx, deps.realmId));
  });
}
