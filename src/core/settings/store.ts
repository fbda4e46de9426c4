import type { Knex } from 'knex';
import { storedRealmSetting } from '../realm/setting-store';
import { User } from '../users/model';
import { SETTINGS, SETTINGS_ON_USERS_ROW, SettingsMap, SettingValue } from './catalog';
import { anyOf } from '../../db/lists';

/**
 * Reading and writing the settings tables: `user_settings` (one row per user) and
 * `realm_user_default_settings` (one row per realm, copied into every new account).
 */
const USER_TABLE_COLUMNS = SETTINGS.map((s) => s.name).filter((name) => !SETTINGS_ON_USERS_ROW.has(name));
const DEFAULT_COLUMNS = SETTINGS.map((s) => s.name);

function pick(row: Record<string, unknown>, names: string[]): SettingsMap {
  const out: SettingsMap = {};
  for (const name of names) out[name] = row[name] as SettingValue;
  return out;
}

/** The organization's defaults for new users; the row is created on first use. */
export async function realmDefaults(db: Knex, realmId: number): Promise<SettingsMap> {
  let row = await db('realm_user_default_settings').where({ realm_id: realmId }).first(DEFAULT_COLUMNS);
  if (!row) {
    await db('realm_user_default_settings').insert({ realm_id: realmId }).onConflict('realm_id').ignore();
    row = await db('realm_user_default_settings').where({ realm_id: realmId }).first(DEFAULT_COLUMNS);
  }
  return pick(row, DEFAULT_COLUMNS);
}

export async function writeRealmDefaults(db: Knex, realmId: number, changes: SettingsMap): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db('realm_user_default_settings').where({ realm_id: realmId }).update(changes);
}

/** Every setting of one user (email_address_visibility comes from the users row). */
export async function userSettings(db: Knex, user: Pick<User, 'id' | 'realm_id'>): Promise<SettingsMap> {
  const row = await db('user_settings')
    .join('users', 'users.id', 'user_settings.user_id')
    .where('user_settings.user_id', user.id)
    .first([...USER_TABLE_COLUMNS.map((c) => `user_settings.${c}`), 'users.email_address_visibility']);
  if (row) return pick(row, DEFAULT_COLUMNS);
  // An account without its row (inserted by hand) behaves as a new account would.
  const defaults = await realmDefaults(db, user.realm_id);
  const visibility = await db('users').where({ id: user.id }).first('email_address_visibility');
  return { ...defaults, email_address_visibility: visibility?.email_address_visibility ?? defaults.email_address_visibility };
}

export async function writeUserSettings(db: Knex, user: Pick<User, 'id' | 'realm_id'>, changes: SettingsMap): Promise<void> {
  const onUsersRow: SettingsMap = {};
  const own: SettingsMap = {};
  for (const [name, value] of Object.entries(changes)) (SETTINGS_ON_USERS_ROW.has(name) ? onUsersRow : own)[name] = value;
  if (Object.keys(onUsersRow).length > 0) await db('users').where({ id: user.id }).update(onUsersRow);
  if (Object.keys(own).length > 0) {
    await db('user_settings')
      .insert({ user_id: user.id, realm_id: user.realm_id, ...own })
      .onConflict('user_id')
      .merge(Object.keys(own));
  }
}

/** Notes that the user changed these settings themselves (see skip_if_already_edited). */
export async function recordOwnEdits(db: Knex, user: Pick<User, 'id' | 'realm_id'>, names: string[]): Promise<void> {
  if (names.length === 0) return;
  await db('user_setting_edits')
    .insert(names.map((setting) => ({ user_id: user.id, realm_id: user.realm_id, setting })))
    .onConflict(['user_id', 'setting'])
    .ignore();
}

/** Of the given users, those who changed the setting themselves at some point. */
export async function usersWhoEdited(db: Knex, userIds: readonly number[], setting: string): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const ids: number[] = await db('user_setting_edits')
    .where({ setting })
    .whereRaw(...anyOf('user_id', userIds))
    .pluck('user_id');
  return new Set(ids.map(Number));
}

/**
 * Gives a just-created account the organization's current defaults and language. Returns the user as stored,
 * since email_address_visibility (on the users row) may have changed.
 */
export async function applyDefaultsToNewUser(db: Knex, user: User): Promise<User> {
  const defaults = await realmDefaults(db, user.realm_id);
  const own = pick(defaults, USER_TABLE_COLUMNS);
  // The interface language is not among the defaults: it starts as the organization's language.
  own.default_language = await storedRealmSetting(db, user.realm_id, 'default_language', own.default_language);
  await db('user_settings')
    .insert({ user_id: user.id, realm_id: user.realm_id, ...own })
    .onConflict('user_id')
    .merge();
  const visibility = defaults.email_address_visibility as number;
  if (visibility !== user.email_address_visibility) {
    await db('users').where({ id: user.id }).update({ email_address_visibility: visibility });
    user.email_address_visibility = visibility;
  }
  return user;
}

/**
 * Of the given users, those who want typing notifications (the typing feature delivers only to
 * them). Keeps the order given.
 */
export async function receivesTypingNotifications(knex: Knex, userIds: readonly number[]): Promise<number[]> {
  if (userIds.length === 0) return [];
  const rows: { user_id: number }[] = await knex('user_settings')
    .whereRaw(...anyOf('user_id', [...new Set(userIds)]))
    .where('receives_typing_notifications', false)
    .select('user_id');
  const declined = new Set(rows.map((r) => r.user_id));
  return userIds.filter((id) => !declined.has(id));
}
