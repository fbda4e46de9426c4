import type { Knex } from 'knex';
import { systemGroupId, SystemGroupName } from './system-groups';
import type { GroupSettingConfig, GroupSettingValue } from './setting-values';

/**
 * Organization-wide permission settings whose values are groups. Each has Zulip's default; a row in
 * realm_group_settings overrides it. Features add their own settings to this table.
 */
export const REALM_GROUP_SETTINGS: Record<string, GroupSettingConfig & { defaultValue: SystemGroupName }> = {
  can_create_groups: {
    allowNobody: true,
    allowEveryone: false,
    allowInternet: false,
    requireSystemGroup: false,
    allowedSystemGroups: [],
    defaultValue: 'role:members',
  },
  // Who may create bots (the bots feature enforces both).
  can_create_bots_group: {
    allowNobody: true,
    allowEveryone: false,
    allowInternet: false,
    requireSystemGroup: false,
    allowedSystemGroups: [],
    defaultValue: 'role:members',
  },
  can_create_write_only_bots_group: {
    allowNobody: true,
    allowEveryone: false,
    allowInternet: false,
    requireSystemGroup: false,
    allowedSystemGroups: [],
    defaultValue: 'role:members',
  },
  can_manage_all_groups: {
    allowNobody: true,
    allowEveryone: false,
    allowInternet: false,
    requireSystemGroup: false,
    allowedSystemGroups: [],
    defaultValue: 'role:owners',
  },
};

export async function getRealmGroupSetting(db: Knex, realmId: number, name: string): Promise<GroupSettingValue> {
  const setting = REALM_GROUP_SETTINGS[name];
  if (!setting) throw new Error(`unknown realm group setting ${name}`);
  const row = await db('realm_group_settings').where({ realm_id: realmId, name }).first('value');
  if (row) return typeof row.value === 'string' ? JSON.parse(row.value) : row.value;
  return systemGroupId(db, realmId, setting.defaultValue);
}

/** Every organization-level setting with its current value. */
export async function allRealmGroupSettings(db: Knex, realmId: number): Promise<Record<string, GroupSettingValue>> {
  const out: Record<string, GroupSettingValue> = {};
  for (const name of Object.keys(REALM_GROUP_SETTINGS)) out[name] = await getRealmGroupSetting(db, realmId, name);
  return out;
}

/**
 * Every setting of this table with its current value, in one query; `systemGroups` gives the
 * defaults' ids.
 */
export async function storedRealmGroupSettings(
  db: Knex,
  realmId: number,
  systemGroups: Record<SystemGroupName, number>,
): Promise<Record<string, GroupSettingValue>> {
  const rows: { name: string; value: unknown }[] = await db('realm_group_settings').where({ realm_id: realmId }).select('name', 'value');
  const out: Record<string, GroupSettingValue> = {};
  for (const [name, setting] of Object.entries(REALM_GROUP_SETTINGS)) {
    const row = rows.find((r) => r.name === name);
    out[name] = row ? (typeof row.value === 'string' ? JSON.parse(row.value) : row.value) : systemGroups[setting.defaultValue];
  }
  return out;
}

/** Stores a value that the caller has already validated (see validateGroupSettingValue). */
export async function setRealmGroupSetting(db: Knex, realmId: number, name: string, value: GroupSettingValue): Promise<void> {
  if (!REALM_GROUP_SETTINGS[name]) throw new Error(`unknown realm group setting ${name}`);
  await db('realm_group_settings')
    .insert({ realm_id: realmId, name, value: JSON.stringify(value) })
    .onConflict(['realm_id', 'name'])
    .merge();
}
