import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { anyOf } from '../../db/lists';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import { storedRealmSetting } from '../realm/setting-store';
import { activeUserIds } from '../users/access';
import { Role } from '../users/roles';

/**
 * role:fullmembers directly holds the members (role 400) whose accounts are at least
 * `waiting_period_threshold` days old, as in Zulip; stronger roles belong through its subgroup.
 * Every change of that membership locks the group's row first, so the recomputations of PATCH
 * /realm, of user changes and of the periodic job in every process see each other's result.
 */
const DAY_MS = 24 * 3600 * 1000;

export const waitingPeriodDays = (db: Knex, realmId: number) => storedRealmSetting<number>(db, realmId, 'waiting_period_threshold', 0);

/** Zulip counts whole days since the account was created. */
export function isPastWaitingPeriod(dateJoined: Date | string, thresholdDays: number, now: Date): boolean {
  return Math.floor((now.getTime() - new Date(dateJoined).getTime()) / DAY_MS) >= thresholdDays;
}

/** Locks role:fullmembers for the rest of the transaction and returns its id. */
export async function lockFullMembersGroup(db: Knex, realmId: number): Promise<number> {
  const row = await db('user_groups').where({ realm_id: realmId, name: 'role:fullmembers', is_system_group: true }).forUpdate().first('id');
  if (!row) throw new Error('system group role:fullmembers missing');
  return row.id;
}

/** Whether one account belongs directly in role:fullmembers now. */
export async function belongsInFullMembers(db: Knex, realmId: number, userId: number, role: number, now = new Date()): Promise<boolean> {
  if (role !== Role.MEMBER) return false;
  const threshold = await waitingPeriodDays(db, realmId);
  if (threshold === 0) return true;
  const user = await db('users').where({ id: userId }).first('date_joined');
  return user !== undefined && isPastWaitingPeriod(user.date_joined, threshold, now);
}

/**
 * Brings role:fullmembers in line with the waiting period (Zulip's
 * update_users_in_full_members_system_group): one diff computed under the group's lock, so running
 * it again, or in several processes at once, changes and announces nothing more. Deactivated
 * accounts are kept in line too but left out of the events, as group member lists leave them out.
 */
export async function recomputeFullMembers(uow: UnitOfWork, now = new Date()): Promise<{ removed: number[]; added: number[] }> {
  const db = uow.trx;
  const groupId = await lockFullMembersGroup(db, uow.realmId);
  const threshold = await waitingPeriodDays(db, uow.realmId);
  const members: { id: number; date_joined: Date }[] = await db('users').where({ realm_id: uow.realmId, role: Role.MEMBER }).select('id', 'date_joined');
  const wanted = new Set(members.filter((u) => isPastWaitingPeriod(u.date_joined, threshold, now)).map((u) => u.id));
  const current = new Set<number>(await db('user_group_members').where('group_id', groupId).pluck('user_id'));
  const ascending = (ids: number[]) => ids.sort((a, b) => a - b);
  const removed = ascending([...current].filter((id) => !wanted.has(id)));
  const added = ascending([...wanted].filter((id) => !current.has(id)));
  if (removed.length > 0)
    await db('user_group_members')
      .where('group_id', groupId)
      .whereRaw(...anyOf('user_id', removed))
      .delete();
  if (added.length > 0) await db('user_group_members').insert(added.map((user_id) => ({ group_id: groupId, user_id })));
  if (removed.length > 0 || added.length > 0) {
    const recipients = await activeUserIds(db, uow.realmId);
    const active = new Set(recipients);
    const told = (ids: number[]) => ids.filter((id) => active.has(id));
    // Removals first, as Zulip sends them.
    if (told(removed).length > 0) uow.emit({ type: 'user_group', op: 'remove_members', group_id: groupId, user_ids: told(removed) }, recipients);
    if (told(added).length > 0) uow.emit({ type: 'user_group', op: 'add_members', group_id: groupId, user_ids: told(added) }, recipients);
  }
  return { removed, added };
}

/**
 * Promotes the members who crossed the waiting period since the last run (Zulip's daily
 * promote_new_full_members). With no waiting period everyone is a full member already.
 */
export async function promoteNewFullMembers(deps: AppDeps, now = new Date()): Promise<number[]> {
  if ((await waitingPeriodDays(deps.knex, deps.realmId)) === 0) return [];
  const { added } = await inTransaction(deps, deps.realmId, (uow) => recomputeFullMembers(uow, now));
  return added;
}

/** Runs the promotion every `intervalSeconds` (0: never); returns the function that stops it. */
export function startFullMemberJob(deps: AppDeps, intervalSeconds: number): () => void {
  if (intervalSeconds <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    promoteNewFullMembers(deps)
      .catch((error) => log().error(`full member promotion failed: ${describeFailure(error)}`))
      .finally(() => (running = false));
  }, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
