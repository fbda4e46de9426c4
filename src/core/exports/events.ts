import type { Knex } from 'knex';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { AppDeps } from '../deps';
import { listExports } from './view';

/** The human administrators, who hear of every export's progress. */
async function adminIds(db: Knex, realmId: number): Promise<number[]> {
  const rows = await db('users').where({ realm_id: realmId, is_active: true, is_bot: false }).whereIn('role', [100, 200]).select('id');
  return rows.map((r: { id: number }) => r.id);
}

/** Tells the administrators the organization's exports as they now stand. */
export async function emitExports(deps: AppDeps, uow: UnitOfWork): Promise<void> {
  uow.emit({ type: 'realm_export', exports: await listExports(uow.trx, deps.config, deps.realmId) }, await adminIds(uow.trx, deps.realmId));
}
