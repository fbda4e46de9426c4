import type { AppDeps } from '../deps';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { deleteAllDrafts } from '../drafts/actions';
import { applyPresenceEnabled, requireHuman } from '../presence/actions';
import { announceAway } from '../user-status/away';
import { requireAdmin } from '../users/access';
import { renameSelf } from '../users/actions';
import { hashPassword, verifyPassword } from '../users/credentials';
import { User } from '../users/model';
import { checkFullName } from '../users/validation';
import { startEmailChange } from '../accounts/email-change';
import { countPasswordAttempt, isStrongPassword } from '../accounts/password-policy';
import { deleteUserSessions } from '../accounts/sessions';
import { forgetAuthAfterCommit } from '../users/auth-cache';
import { SETTINGS_BY_NAME, SettingsMap } from './catalog';
import { activeViewers, emitEmailVisibilityChange, groupByApiEmail } from './email-visibility';
import { realmDefaultsEvent, userSettingsEvent } from './events';
import { realmDefaults, recordOwnEdits, userSettings, writeRealmDefaults, writeUserSettings } from './store';
import { checkTimezone } from './validate';

export interface OwnSettingsChanges {
  /** Validated setting values (see validate.ts). */
  settings: SettingsMap;
  fullName?: string;
  timezone?: string;
  oldPassword?: string;
  newPassword?: string;
  /** A new address: confirmed through a link sent to it before it takes effect. */
  email?: string;
}

/** Only the values that differ from what is stored: unchanged settings cause no event. */
function changedOnly(current: SettingsMap, wanted: SettingsMap): SettingsMap {
  return Object.fromEntries(Object.entries(wanted).filter(([name, value]) => current[name] !== value));
}

/** Who is asking: a browser session (its hash) when the request came with one. */
export interface SettingsRequester {
  sessionHash?: string;
}

/**
 * PATCH /settings: the user's own settings, name, time zone and password. Everything is checked
 * before anything changes; each changed setting is reported to the user with a user_settings
 * event, and the changes others can see (name, time zone, address visibility, presence sharing)
 * with their own events. A new password ends the account's web sessions but the requester's own
 * (as Zulip keeps the session that changed it); API keys stay.
 */
export async function updateOwnSettings(deps: AppDeps, user: User, changes: OwnSettingsChanges, requester: SettingsRequester = {}): Promise<void> {
  requireHuman(user);
  for (const name of Object.keys(changes.settings)) {
    if (!SETTINGS_BY_NAME.has(name)) throw errors.badRequest(`Invalid setting: ${name}`);
  }
  if (changes.fullName !== undefined) checkFullName(changes.fullName);
  const timezone = changes.timezone === undefined ? undefined : checkTimezone(changes.timezone);
  let passwordHash: string | undefined;
  if (changes.newPassword !== undefined) {
    // Argon2 is slow on purpose: hash before the transaction starts.
    const stored = await User.query(deps.knex).findById(user.id);
    await countPasswordAttempt(deps, user.delivery_email);
    if (!(await verifyPassword(changes.oldPassword ?? '', stored?.password_hash ?? null))) {
      throw errors.badRequest('Wrong password!');
    }
    if (!isStrongPassword(changes.newPassword)) throw errors.badRequest('New password is too weak!');
    passwordHash = await hashPassword(changes.newPassword);
  }
  if (changes.email !== undefined) await startEmailChange(deps, user, changes.email);

  await inTransaction(deps, deps.realmId, async (uow) => {
    const me = await User.query(uow.trx).findById(user.id).throwIfNotFound();
    if (passwordHash !== undefined) {
      await User.query(uow.trx).patch({ password_hash: passwordHash }).where({ id: me.id });
      await deleteUserSessions(uow.trx, me.id, requester.sessionHash);
      forgetAuthAfterCommit(deps, uow, me.id);
    }
    if (changes.fullName !== undefined) await renameSelf(deps, uow, me, changes.fullName);

    await applyOwnSettings(deps, uow, me, changes.settings);

    if (timezone !== undefined && timezone !== me.timezone) await changeTimezone(deps, uow, me, timezone);
  });
}

/**
 * Stores the settings that differ from the user's, with their events and side effects, inside the
 * caller's transaction (PATCH /settings, and the deprecated `away` of POST /users/me/status, which
 * announces the user's status itself: `announceStatus` false), and notes them as the user's own
 * choices, which administrators' bulk changes may be told to respect.
 */
export async function applyOwnSettings(deps: AppDeps, uow: UnitOfWork, me: User, settings: SettingsMap, { announceStatus = true } = {}): Promise<void> {
  const changed = await applySettings(deps, uow, me, settings, { announceStatus });
  await recordOwnEdits(uow.trx, me, Object.keys(changed));
}

/**
 * Stores the settings that differ from the user's, each with its event to the user and its side
 * effects; returns those that changed. Whoever asked (the user, or an administrator for them).
 */
export async function applySettings(deps: AppDeps, uow: UnitOfWork, user: User, settings: SettingsMap, { announceStatus = true } = {}): Promise<SettingsMap> {
  const changed = changedOnly(await userSettings(uow.trx, user), settings);
  await writeUserSettings(uow.trx, user, changed);
  for (const [name, value] of Object.entries(changed)) {
    uow.emit(userSettingsEvent(name, value), [user.id]);
    await applySideEffects(deps, uow, user, name, value, announceStatus);
  }
  return changed;
}

/** What a setting change means beyond the setting itself. */
async function applySideEffects(deps: AppDeps, uow: UnitOfWork, me: User, name: string, value: unknown, announceStatus: boolean): Promise<void> {
  if (name === 'email_address_visibility') {
    const after = Object.assign(new User(), me, { email_address_visibility: value as number });
    emitEmailVisibilityChange(uow, deps.config, await activeViewers(uow.trx, deps.realmId), me, after);
    me.email_address_visibility = value as number;
  } else if (name === 'enable_drafts_synchronization' && value === false) {
    // The drafts feature drops the stored drafts; clients keep their own copies.
    await deleteAllDrafts(uow.trx, deps.realmId, me.id);
  } else if (name === 'presence_enabled') {
    await applyPresenceEnabled(deps, uow, me, value as boolean);
    // A status shows `away` while presence is off (Zulip's deprecated form of the setting).
    if (announceStatus) await announceAway(deps, uow, me, !value);
  }
}

/** The profile time zone is seen by everyone (realm_user update) and is one of the user's settings. */
async function changeTimezone(deps: AppDeps, uow: UnitOfWork, me: User, timezone: string): Promise<void> {
  await User.query(uow.trx).patch({ timezone }).where({ id: me.id });
  uow.emit(userSettingsEvent('timezone', timezone), [me.id]);
  for (const { email, userIds } of groupByApiEmail(deps.config, me, await activeViewers(uow.trx, deps.realmId))) {
    uow.emit({ type: 'realm_user', op: 'update', person: { email, user_id: me.id, timezone } }, userIds);
  }
}

/**
 * PATCH /realm/user_settings_defaults (administrators): the settings future accounts start with.
 * Existing accounts keep theirs.
 */
export async function updateRealmDefaults(deps: AppDeps, actor: User, settings: SettingsMap): Promise<void> {
  requireAdmin(actor);
  for (const name of Object.keys(settings)) {
    if (!SETTINGS_BY_NAME.get(name)?.realmDefault) throw errors.badRequest(`Invalid setting: ${name}`);
  }
  await inTransaction(deps, deps.realmId, async (uow) => {
    const changed = changedOnly(await realmDefaults(uow.trx, deps.realmId), settings);
    if (Object.keys(changed).length === 0) return;
    await writeRealmDefaults(uow.trx, deps.realmId, changed);
    const everyone = (await activeViewers(uow.trx, deps.realmId)).map((v) => v.id);
    for (const [name, value] of Object.entries(changed)) uow.emit(realmDefaultsEvent(name, value), everyone);
  });
}
