import type { Knex } from 'knex';
import { subscribeToDefaultChannels } from '../default-channels/actions';
import type { AppDeps } from '../deps';
import { announceSignup } from '../channels/announcements';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { emitRoleMembershipMoves, emitSettingsNamingReactivatedUser } from '../groups/actions';
import { syncRoleMembership } from '../groups/system-groups';
import { forgetPushTokens } from '../push/forget';
import { forgetAuthAfterCommit } from './auth-cache';
import { emitAddressSight } from '../settings/email-visibility';
import { applyDefaultsToNewUser } from '../settings/store';
import { activeOwnerCount, activeUserIds, findUser, requireCanAdminUser, requireCanCreateUsers, requireOwnerFor } from './access';
import { generateApiKey, hashApiKey, hashPassword } from './credentials';
import { prepareRoleChangeSteps, runDeactivationSteps, runReactivationSteps } from './lifecycle';
import { ApiKey, User } from './model';
import { isOwnerRole, Role, ROLE_VALUES, RoleValue } from './roles';
import { checkEmail, checkFullName, checkPassword } from './validation';
import { checkUniqueName, requireNameChangesAllowed } from './name-policy';
import { canSeeDeliveryEmail, userDict } from './view';
import { anyOf } from '../../db/lists';
import { deleteUserSessions } from '../accounts/sessions';
import { queueWelcomeEmail } from '../accounts/welcome-email';
import { sendWelcomeBotMessages } from '../system-bots/welcome-bot';
import { deliverNow } from '../deliveries/attempt';
import { loadViewer } from '../channels/access';
import { deleteAvatar } from '../uploads/avatars';
import { accountsForActions, applyDeactivationActions, NO_DEACTIVATION_ACTIONS } from './deactivation-actions';
import { defaultAvatarSource } from '../uploads/jdenticon';

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
  /** Subscribe the account to the default channels (true unless said otherwise). */
  defaultChannels?: boolean;
  /**
   * A person joining (not the first owner, an import or the CLI): the welcome email, if the
   * organization sends them, and the Welcome Bot's direct messages.
   */
  joining?: boolean;
  /** The custom welcome text of the invitation joined through (null: it set none). */
  invitationWelcomeText?: string | null;
}

/** Creates an account. `actor` null means the operator (CLI, first start), who needs no permission. */
export async function createUser(deps: AppDeps, actor: User | null, input: NewUser): Promise<{ user: User; apiKey: string }> {
  if (actor) requireCanCreateUsers(actor);
  // Checked in the order Zulip checks them, so the first problem reported is the same.
  const fullName = checkFullName(input.fullName);
  await checkUniqueName(deps.knex, deps.realmId, fullName, null);
  const email = checkEmail(input.email);
  if (await emailInUse(deps.knex, deps.realmId, email)) throw errors.badRequest('Email is already in use.');
  const passwordHash = input.password === null ? null : await hashPassword(checkPassword(input.password));
  const apiKey = generateApiKey();
  const { user, mailIds } = await inTransaction(deps, deps.realmId, async (uow) => {
    // Checked again: another request may have taken the address while the password was hashed.
    if (await emailInUse(uow.trx, deps.realmId, email)) throw errors.badRequest('Email is already in use.');
    const created = await insertAccount(
      deps,
      uow,
      {
        delivery_email: email,
        full_name: fullName,
        role: input.role ?? Role.MEMBER,
        password_hash: passwordHash,
        can_create_users: input.canCreateUsers ?? false,
        timezone: input.timezone ?? '',
        // Created through the API: date_joined moves to the first login (first-login.ts).
        awaiting_first_login: actor !== null,
      },
      apiKey,
      'Email is already in use.',
    );
    if (input.defaultChannels !== false) await subscribeToDefaultChannels(uow, created);
    await announceSignup(deps, uow, created);
    if (!input.joining) return { user: created, mailIds: [] };
    await sendWelcomeBotMessages(deps, uow, created, input.invitationWelcomeText ?? null);
    return { user: created, mailIds: await queueWelcomeEmail(deps, uow, created) };
  });
  await deliverNow(deps, mailIds);
  return { user, apiKey };
}

/**
 * Writes a new account (a person's or a bot's) with its API key, its organization's default
 * settings and its role group, and tells everyone. `takenMessage` answers a lost race for the address.
 */
export async function insertAccount(deps: AppDeps, uow: UnitOfWork, row: Partial<User>, apiKey: string, takenMessage: string): Promise<User> {
  let created: User;
  try {
    // People start with the organization's default picture (bots say which they get).
    const avatar_source = row.avatar_source ?? (await defaultAvatarSource(uow.trx, deps.realmId));
    created = await User.query(uow.trx).insertAndFetch({ ...row, avatar_source, realm_id: deps.realmId });
  } catch (error) {
    if (isUniqueViolation(error)) throw errors.badRequest(takenMessage);
    throw error;
  }
  // New accounts start from the organization's default settings.
  created = await applyDefaultsToNewUser(uow.trx, created);
  await storeKey(uow, created.id, apiKey, { readable: created.is_bot });
  const moves = await syncRoleMembership(uow.trx, deps.realmId, created.id, created.role);
  await emitPersonAdd(deps, uow, created);
  await emitRoleMembershipMoves(uow, created.id, moves);
  return created;
}

export async function emailInUse(db: Knex, realmId: number, email: string): Promise<boolean> {
  const found = await User.query(db).where('realm_id', realmId).whereRaw('lower(delivery_email) = lower(?)', [email]).first();
  return found !== undefined;
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

/** actor null: the operator, through the CLI. */
export async function updateUser(deps: AppDeps, actor: User | null, userId: number, changes: UserChanges): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const target = await findUser(uow.trx, deps.realmId, userId);
    requireCanAdminUser(actor);
    const patch: Partial<User> = {};
    if (changes.role !== undefined && !(ROLE_VALUES as readonly number[]).includes(changes.role)) throw errors.badRequest('Invalid role');
    if (changes.role !== undefined && changes.role !== target.role) {
      // Granting or removing ownership is for owners only, and an organization keeps one owner.
      if (isOwnerRole(changes.role) || isOwnerRole(target.role)) requireOwnerFor(actor);
      if (isOwnerRole(target.role) && target.is_active && !target.is_bot && (await activeOwnerCount(uow.trx, deps.realmId)) <= 1) {
        throw errors.badRequest('The owner permission cannot be removed from the only organization owner.');
      }
      patch.role = changes.role as RoleValue;
    }
    // A blank name is ignored rather than refused, as Zulip does.
    if (changes.fullName !== undefined && changes.fullName.trim() !== '') {
      const fullName = checkFullName(changes.fullName);
      await checkUniqueName(uow.trx, deps.realmId, fullName, target.id);
      if (fullName !== target.full_name) patch.full_name = fullName;
    }
    if (Object.keys(patch).length === 0) return;
    const finishRoleChange = patch.role !== undefined ? await prepareRoleChangeSteps(uow, target, deps) : null;
    await User.query(uow.trx).patch(patch).where({ id: target.id });
    const moves = patch.role !== undefined ? await syncRoleMembership(uow.trx, deps.realmId, target.id, patch.role) : null;
    forgetAuthAfterCommit(deps, uow, target.id);
    const recipients = await activeUserIds(uow.trx, deps.realmId);
    if (patch.role !== undefined) {
      uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, role: patch.role } }, recipients);
    }
    if (moves) await emitRoleMembershipMoves(uow, target.id, moves);
    if (patch.role !== undefined) await emitAddressAccessChange(deps, uow, target, patch.role);
    if (finishRoleChange) await finishRoleChange(Object.assign(new User(), target, { role: patch.role }));
    if (patch.full_name !== undefined) {
      uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, full_name: patch.full_name } }, recipients);
    }
  });
}

/**
 * A new role can change whose real addresses the user may see (visibility limited to members,
 * moderators or administrators): the user learns each address gained or lost, as when someone
 * changes their email_address_visibility.
 */
async function emitAddressAccessChange(deps: AppDeps, uow: UnitOfWork, user: User, role: number): Promise<void> {
  const others = await User.query(uow.trx).where({ realm_id: deps.realmId }).whereNot('id', user.id);
  const after = { id: user.id, role };
  for (const other of others) {
    const could = canSeeDeliveryEmail(user, other);
    const can = canSeeDeliveryEmail(after, other);
    if (could !== can) emitAddressSight(uow, deps.config, other, [user.id], can);
  }
}

/** A user renaming themselves (PATCH /settings): told to everyone, as an administrator's rename is. */
export async function renameSelf(deps: AppDeps, uow: UnitOfWork, user: User, rawName: string): Promise<boolean> {
  if (rawName.trim() === user.full_name) return false;
  await requireNameChangesAllowed(uow.trx, deps.realmId, user);
  const fullName = checkFullName(rawName);
  await checkUniqueName(uow.trx, deps.realmId, fullName, user.id);
  await User.query(uow.trx).patch({ full_name: fullName }).where({ id: user.id });
  const recipients = await activeUserIds(uow.trx, deps.realmId);
  uow.emit({ type: 'realm_user', op: 'update', person: { user_id: user.id, full_name: fullName } }, recipients);
  return true;
}

/**
 * actor null: the operator, through the CLI. The account's API keys are kept: authentication
 * refuses them while it is deactivated, and they work again once it is reactivated, as in Zulip.
 */
export async function deactivateUser(deps: AppDeps, actor: User | null, userId: number, actions = NO_DEACTIVATION_ACTIONS): Promise<void> {
  const avatarsToDrop = await inTransaction(deps, deps.realmId, async (uow) => {
    const target = await findUser(uow.trx, deps.realmId, userId);
    if (!target.is_active) throw errors.badRequest('User is deactivated');
    requireCanAdminUser(actor);
    if (isOwnerRole(target.role)) requireOwnerFor(actor);
    if (isOwnerRole(target.role) && !target.is_bot && (await activeOwnerCount(uow.trx, deps.realmId)) <= 1) {
      throw errors.badRequest('Cannot deactivate the only organization owner');
    }
    // Noted before the deactivation, which deactivates the bots too.
    const accounts = await accountsForActions(uow.trx, target);
    await deactivateAccount(deps, uow, target);
    const viewer = actor ? await loadViewer(uow.trx, actor) : null;
    return applyDeactivationActions(uow, deps, accounts, actions, viewer);
  });
  // Files go once the rows no longer name them.
  for (const account of avatarsToDrop) await deleteAvatar(deps, account);
}

/** Deactivates an active account once its deactivation was allowed, with every feature's steps and events. */
export async function deactivateAccount(deps: AppDeps, uow: UnitOfWork, target: User): Promise<void> {
  await User.query(uow.trx).patch({ is_active: false }).where({ id: target.id });
  target.is_active = false;
  // Signed out of the web app too (auth_changed below closes the sockets those sessions opened).
  await deleteUserSessions(uow.trx, target.id);
  // Other features first (peers hear of the lost subscriptions before the deactivation, as in Zulip).
  await runDeactivationSteps(uow, target, deps);
  // Told to the accounts still active afterwards.
  const recipients = await activeUserIds(uow.trx, deps.realmId);
  forgetAuthAfterCommit(deps, uow, target.id);
  uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: false } }, recipients);
}

export async function reactivateUser(deps: AppDeps, actor: User | null, userId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    const target = await findUser(uow.trx, deps.realmId, userId);
    requireCanAdminUser(actor);
    // Reactivating an active account changes nothing and tells nobody.
    if (target.is_active) return;
    await User.query(uow.trx).patch({ is_active: true }).where({ id: target.id });
    forgetAuthAfterCommit(deps, uow, target.id);
    target.is_active = true;
    const recipients = await activeUserIds(uow.trx, deps.realmId);
    uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, is_active: true } }, recipients);
    // The waiting period may have been crossed, or raised, while the account was away.
    await syncRoleMembership(uow.trx, deps.realmId, target.id, target.role);
    // Group member lists leave out deactivated accounts, so clients are told where the user is back.
    const groupIds = await uow.trx('user_group_members').where('user_id', target.id).pluck('group_id');
    await emitRoleMembershipMoves(uow, target.id, { removed: [], added: groupIds });
    await emitSettingsNamingReactivatedUser(uow, target.id);
    await runReactivationSteps(uow, target);
  });
}

/** Replaces every key the user holds with one new key. */
export async function regenerateApiKey(deps: AppDeps, userId: number): Promise<string> {
  const apiKey = generateApiKey();
  await inTransaction(deps, deps.realmId, async (uow) => {
    const user = await User.query(uow.trx).findById(userId);
    await ApiKey.query(uow.trx).delete().where({ user_id: userId });
    await storeKey(uow, userId, apiKey, { readable: user?.is_bot === true });
    forgetAuthAfterCommit(deps, uow, userId);
    // Every client is signed out, so the phones stop getting notifications too.
    await forgetPushTokens(deps, uow, userId);
  });
  return apiKey;
}

/**
 * Issues an additional key (a new login), leaving the user's other clients logged in. `seal`, when
 * given, makes the sealed copy the key is stored with (see accounts/login-keys.ts).
 */
export async function issueApiKey(deps: AppDeps, userId: number, seal?: (apiKey: string) => Promise<string>): Promise<string> {
  const apiKey = generateApiKey();
  const sealed = seal ? await seal(apiKey) : null;
  await inTransaction(deps, deps.realmId, async (uow) => {
    if (sealed !== null) {
      // One sealed copy per user: older ones are left unsealed (their keys stay valid).
      await ApiKey.query(uow.trx).patch({ sealed: null }).where({ user_id: userId }).whereNotNull('sealed');
    }
    await storeKey(uow, userId, apiKey, { sealed });
    // Past the per-user limit the oldest key was retired, and it may be cached.
    forgetAuthAfterCommit(deps, uow, userId);
  });
  return apiKey;
}

/**
 * A bot's key, with nothing else changed: the newest readable key of a bot whose keys were all
 * issued before keys were kept readable (its earlier keys keep working).
 */
export async function issueBotApiKey(deps: AppDeps, botId: number): Promise<string> {
  const apiKey = generateApiKey();
  await inTransaction(deps, deps.realmId, async (uow) => {
    await storeKey(uow, botId, apiKey, { readable: true });
    forgetAuthAfterCommit(deps, uow, botId);
  });
  return apiKey;
}

/** `readable` keeps a bot's key itself besides its hash; `sealed` is a login's sealed copy. */
async function storeKey(uow: UnitOfWork, userId: number, apiKey: string, extra: { sealed?: string | null; readable?: boolean } = {}): Promise<void> {
  const row = { realm_id: uow.realmId, user_id: userId, key_hash: hashApiKey(apiKey), sealed: extra.sealed ?? null, bot_key: extra.readable ? apiKey : null };
  await ApiKey.query(uow.trx).insert(row);
  const stale = await ApiKey.query(uow.trx).select('id').where({ user_id: userId }).orderBy('id', 'desc').offset(MAX_KEYS_PER_USER);
  if (stale.length > 0)
    await ApiKey.query(uow.trx)
      .delete()
      .whereRaw(
        ...anyOf(
          'id',
          stale.map((k) => k.id),
        ),
      );
}

export async function setCanCreateUsers(deps: AppDeps, userId: number, value: boolean): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    await findUser(uow.trx, deps.realmId, userId);
    await User.query(uow.trx).patch({ can_create_users: value }).where({ id: userId });
    forgetAuthAfterCommit(deps, uow, userId);
  });
}

/**
 * Sets an account's password (operator reset); no client event, as Zulip sends none for password
 * changes. The account's web sessions end; its API keys stay.
 */
export async function setPassword(deps: AppDeps, userId: number, password: string): Promise<void> {
  const passwordHash = await hashPassword(checkPassword(password));
  await inTransaction(deps, deps.realmId, async (uow) => {
    await findUser(uow.trx, deps.realmId, userId);
    await User.query(uow.trx).patch({ password_hash: passwordHash }).where({ id: userId });
    await deleteUserSessions(uow.trx, userId);
    forgetAuthAfterCommit(deps, uow, userId);
  });
}
