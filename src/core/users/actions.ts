import type { AppDeps } from '../../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { syncRoleMembership } from '../groups/system-groups';
import { forgetAuthAfterCommit } from './auth-cache';
import { activeOwnerCount, activeUserIds, findUser, requireCanCreateUsers, requireCanManage } from './access';
import { generateApiKey, hashApiKey, hashPassword } from './credentials';
import { ApiKey, User } from './model';
import { isOwnerRole, Role, ROLE_VALUES, RoleValue } from './roles';
import { checkEmail, checkFullName, checkPassword } from './validation';
import { canSeeDeliveryEmail, userDict } from './view';

/** Keys a user may hold at once; logging in again past this retires the oldest. */
const MAX_KEYS_PER_USER = 50;

export interface NewUser {
  email: string;
  fullName: string;
  /** null: the account cannot log in with a password (an API key still works). */
  password: string | null;
  role?: RoleValue;
  canCreateUsers?: boolean;
  timezone?: string;
}

/** Creates an account. `actor` null means the operator (CLI, first start), who needs no permission. */
export async function createUser(deps: AppDeps, actor: User | null, input: NewUser): Promise<{ user: User; apiKey: string }> {
  if (actor) requireCanCreateUsers(actor);
  const email = checkEmail(input.email);
  const fullName = checkFullName(input.fullName);
  const passwordHash = input.password === null ? null : await hashPassword(checkPassword(input.password));
  const apiKey = generateApiKey();
  const user = await inTransaction(deps, deps.realmId, async (uow) => {
    const existing = await User.query(uow.trx)
      .where('realm_id', deps.realmId)
      .whereRaw('lower(delivery_email) = lower(?)', [email])
      .first();
    if (existing) throw errors.badRequest('Email is already in use.');
    let created: User;
    try {
      created = await User.query(uow.trx).insertAndFetch({
        realm_id: deps.realmId,
        delivery_email: email,
        full_name: fullName,
        role: input.role ?? Role.MEMBER,
        password_hash: passwordHash,
        can_create_users: input.canCreateUsers ?? false,
        timezone: input.timezone ?? '',
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw errors.badRequest('Email is already in use.');
      throw error;
    }
    await storeKey(uow, created.id, apiKey);
    await syncRoleMembership(uow.trx, deps.realmId, created.id, created.role);
    await emitPersonAdd(deps, uow, created);
    return created;
  });
  return { user, apiKey };
}

/** realm_user/add goes to every active user, with the address each of them may see. */
async function emitPersonAdd(deps: AppDeps, uow: UnitOfWork, person: User): Promise<void> {
  const viewers = await User.query(uow.trx).select('id', 'role').where({ realm_id: deps.realmId, is_active: true });
  const seeing: number[] = [];
  const notSeeing: number[] = [];
  for (const viewer of viewers) (canSeeDeliveryEmail(viewer, person) ? seeing : notSeeing).push(viewer.id);
  for (const [group, sample] of [
    [seeing, viewers.find((v) => seeing.includes(v.id))],
    [notSeeing, viewers.find((v) => notSeeing.includes(v.id))],
  ] as const) {
    if (group.length === 0 || !sample) continue;
    const dict = userDict(deps.config, sample, person, { clientGravatar: false, includeProfileData: true });
    uow.emit({ type: 'realm_user', op: 'add', person: dict }, group);
  }
}

export interface UserChanges {
  fullName?: string;
  role?: number;
}

export async function updateUser(deps: AppDeps, actor: User, userId: number, changes: UserChanges): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const target = await findUser(uow.trx, deps.realmId, userId);
    requireCanManage(actor, target);
    const patch: Partial<User> = {};
    // A blank name is ignored rather than refused, as Zulip does.
    if (changes.fullName !== undefined && changes.fullName.trim() !== '') {
      const fullName = checkFullName(changes.fullName);
      if (fullName !== target.full_name) patch.full_name = fullName;
    }
    if (changes.role !== undefined && !(ROLE_VALUES as readonly number[]).includes(changes.role)) throw errors.badRequest('Invalid role');
    if (changes.role !== undefined && changes.role !== target.role) {
      // Granting or removing ownership is for owners only, and an organization keeps one owner.
      if ((isOwnerRole(changes.role) || isOwnerRole(target.role)) && !isOwnerRole(actor.role)) throw errors.mustBeOwner();
      if (isOwnerRole(target.role) && target.is_active && (await activeOwnerCount(uow.trx, deps.realmId)) <= 1) {
        throw errors.badRequest('The owner permission cannot be removed from the only organization owner.');
      }
      patch.role = changes.role as RoleValue;
    }
    if (Object.keys(patch).length === 0) return;
    await User.query(uow.trx).patch(patch).where({ id: target.id });
    forgetAuthAfterCommit(deps, uow, target.id);
    if (patch.role !== undefined) await syncRoleMembership(uow.trx, deps.realmId, target.id, patch.role);
    const recipients = await activeUserIds(uow.trx, deps.realmId);
    if (patch.full_name !== undefined) {
      uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: patch.full_name } }, recipients);
    }
    if (patch.role !== undefined) {
      uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, role: patch.role } }, recipients);
    }
  });
}

/** actor null: the operator, through the CLI. */
export async function deactivateUser(deps: AppDeps, actor: User | null, userId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const target = await findUser(uow.trx, deps.realmId, userId);
    if (actor) requireCanManage(actor, target);
    if (!target.is_active) throw errors.badRequest('User is deactivated');
    if (isOwnerRole(target.role) && !target.is_bot && (await activeOwnerCount(uow.trx, deps.realmId)) <= 1) {
      throw errors.badRequest('Cannot deactivate the only organization owner');
    }
    const recipients = await activeUserIds(uow.trx, deps.realmId);
    await User.query(uow.trx).patch({ is_active: false }).where({ id: target.id });
    // Its keys stop working at once; reactivation issues new ones.
    await ApiKey.query(uow.trx).delete().where({ user_id: target.id });
    forgetAuthAfterCommit(deps, uow, target.id);
    uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: false } }, recipients);
  });
}

export async function reactivateUser(deps: AppDeps, actor: User | null, userId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const target = await findUser(uow.trx, deps.realmId, userId);
    if (actor) requireCanManage(actor, target);
    // Reactivating an active account changes nothing and tells nobody.
    if (target.is_active) return;
    await User.query(uow.trx).patch({ is_active: true }).where({ id: target.id });
    forgetAuthAfterCommit(deps, uow, target.id);
    const recipients = await activeUserIds(uow.trx, deps.realmId);
    uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: true } }, recipients);
  });
}

/** Replaces every key the user holds with one new key. */
export async function regenerateApiKey(deps: AppDeps, userId: number): Promise<string> {
  const apiKey = generateApiKey();
  await inTransaction(deps, deps.realmId, async (uow) => {
    await ApiKey.query(uow.trx).delete().where({ user_id: userId });
    await storeKey(uow, userId, apiKey);
    forgetAuthAfterCommit(deps, uow, userId);
  });
  return apiKey;
}

/** Issues an additional key (a new login), leaving the user's other clients logged in. */
export async function issueApiKey(deps: AppDeps, userId: number): Promise<string> {
  const apiKey = generateApiKey();
  await inTransaction(deps, deps.realmId, async (uow) => {
    await storeKey(uow, userId, apiKey);
    // Past the per-user limit the oldest key was retired, and it may be cached.
    forgetAuthAfterCommit(deps, uow, userId);
  });
  return apiKey;
}

async function storeKey(uow: UnitOfWork, userId: number, apiKey: string): Promise<void> {
  await ApiKey.query(uow.trx).insert({ realm_id: uow.realmId, user_id: userId, key_hash: hashApiKey(apiKey) });
  const stale = await ApiKey.query(uow.trx)
    .select('id')
    .where({ user_id: userId })
    .orderBy('id', 'desc')
    .offset(MAX_KEYS_PER_USER);
  if (stale.length > 0) await ApiKey.query(uow.trx).delete().whereIn('id', stale.map((k) => k.id));
}

export async function setCanCreateUsers(deps: AppDeps, userId: number, value: boolean): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    await findUser(uow.trx, deps.realmId, userId);
    await User.query(uow.trx).patch({ can_create_users: value }).where({ id: userId });
    forgetAuthAfterCommit(deps, uow, userId);
  });
}
