import type { Knex } from 'knex';
import { cachedSystemGroupIds } from '../../channels/group-settings';
import { EDIT_HISTORY_POLICY_NAMES, REALM_SETTINGS } from '../../realm/catalog';
import { Realm } from '../../realm/model';
import { loadRealmSettingValues } from '../../realm/values';
import { WRITERS } from '../../realm/writers';
import { SETTINGS, SettingsMap } from '../../settings/catalog';
import { realmDefaults, userSettings, writeRealmDefaults, writeUserSettings } from '../../settings/store';
import type { GroupSettingValue } from '../../groups/setting-values';
import type { GroupExport, GroupImport } from './groups';
import type { Row } from './layout';

/**
 * Settings sit as columns of zerver_realm (the organization's), zerver_userprofile (each user's)
 * and zerver_realmuserdefault (new users' defaults), as in Zulip's tables. Group settings are group
 * ids; the edit-history policy is Zulip's stored number (1 all, 2 moves, 3 none).
 */
const EDIT_HISTORY = 'message_edit_history_visibility_policy';

/** The organization's settings, as zerver_realm columns. */
export async function exportRealmSettings(knex: Knex, realmId: number, groups: GroupExport): Promise<Row> {
  const realm = await Realm.query(knex).findById(realmId).throwIfNotFound();
  const values = await loadRealmSettingValues(knex, realm, await cachedSystemGroupIds(knex, knex, realmId));
  const out: Row = {};
  for (const spec of REALM_SETTINGS) {
    const value = values[spec.name];
    if (spec.kind === 'group') out[spec.name] = groups.idOf(value as GroupSettingValue);
    else if (spec.name === EDIT_HISTORY) out[spec.name] = EDIT_HISTORY_POLICY_NAMES.indexOf(value as never) + 1;
    else out[spec.name] = value;
  }
  return out;
}

const fits = (kind: string, nullable: boolean, value: unknown) =>
  (value === null && nullable) || (kind === 'bool' ? typeof value === 'boolean' : kind === 'int' ? Number.isInteger(value) : typeof value === 'string');

/** Writes every organization setting zerver_realm carries (values of the wrong type are left at their default). */
export async function importRealmSettings(knex: Knex, realmId: number, given: Row, groups: GroupImport): Promise<void> {
  // Exports of servers before feature level 453 name the GIF rating giphy_rating.
  const zRealm = 'giphy_rating' in given && !('gif_rating_policy' in given) ? { ...given, gif_rating_policy: given.giphy_rating } : given;
  for (const spec of REALM_SETTINGS) {
    if (!(spec.name in zRealm)) continue;
    let value: unknown = zRealm[spec.name];
    if (spec.kind === 'group') {
      value = groups.valueOf(value);
      if (value === undefined) continue;
    } else if (spec.name === EDIT_HISTORY) {
      value = typeof value === 'number' ? EDIT_HISTORY_POLICY_NAMES[value - 1] : value;
      if (!EDIT_HISTORY_POLICY_NAMES.includes(value as never)) continue;
    } else if (!fits(spec.kind, spec.nullable, value) || (spec.choices && !spec.choices.includes(value as never))) continue;
    // The organization's name and description were written with its row.
    if (spec.source === 'realm' && (spec.name === 'name' || spec.name === 'description')) continue;
    await WRITERS[spec.source](knex, realmId, spec.name, value);
  }
}

/** Personal settings (those valid in the catalog), taken from a Zulip row holding them as columns. */
function settingsFrom(row: Row): SettingsMap {
  const out: SettingsMap = {};
  for (const spec of SETTINGS) {
    // Before feature level 454 the Recent conversations home view was "recent_topics".
    const value = spec.name === 'web_home_view' && row[spec.name] === 'recent_topics' ? 'recent' : row[spec.name];
    if (!fits(spec.kind, false, value)) continue;
    if (spec.choices && !spec.choices.includes(value as never)) continue;
    if (spec.range && ((value as number) < spec.range.min || (value as number) > spec.range.max)) continue;
    out[spec.name] = value as SettingsMap[string];
  }
  return out;
}

export const exportUserSettings = (knex: Knex, user: Row) => userSettings(knex, { id: user.id as number, realm_id: user.realm_id as number });

export async function importUserSettings(knex: Knex, realmId: number, userId: number, zUser: Row): Promise<void> {
  await writeUserSettings(knex, { id: userId, realm_id: realmId }, settingsFrom(zUser));
}

export async function exportRealmUserDefaults(knex: Knex, realmId: number): Promise<Row[]> {
  return [{ id: 1, realm: realmId, ...(await realmDefaults(knex, realmId)) }];
}

export async function importRealmUserDefaults(knex: Knex, realmId: number, rows: Row[] | undefined): Promise<void> {
  if (!rows?.[0]) return;
  await realmDefaults(knex, realmId);
  await writeRealmDefaults(knex, realmId, settingsFrom(rows[0]));
}
