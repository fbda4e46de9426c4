import { errors } from '../../errors';
import type { Validator } from '../../validation/validate';
import { v } from '../../validation/validate';

/**
 * A group-setting value: the id of a named group, or an anonymous collection of users and groups.
 * Anonymous values are stored inline (no row of their own), sorted and without duplicates.
 */
export type AnonymousGroupValue = {
  direct_members: number[];
  direct_subgroups: number[];
};
export type GroupSettingValue = number | AnonymousGroupValue;

/** The requested change of one setting in PATCH /user_groups/{id}. */
export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/** How a permission setting may be set, as Zulip configures each one. */
export interface GroupSettingConfig {
  allowNobody: boolean;
  /** False: role:everyone is refused, and guests never hold the permission. */
  allowEveryone: boolean;
  allowInternet: boolean;
  requireSystemGroup: boolean;
  /** When non-empty, the only system groups a named value may be. */
  allowedSystemGroups: string[];
  /** System group name, or "group_creator" for an anonymous group holding just the creator. */
  defaultValue: string;
}

const config = (c: Partial<GroupSettingConfig> & Pick<GroupSettingConfig, 'allowEveryone' | 'defaultValue'>): GroupSettingConfig => ({
  allowNobody: true,
  allowInternet: false,
  requireSystemGroup: false,
  allowedSystemGroups: [],
  ...c,
});

/** The permission settings every user group carries. */
export const GROUP_PERMISSION_SETTINGS = {
  can_add_members_group: config({ allowEveryone: false, defaultValue: 'group_creator' }),
  can_join_group: config({ allowEveryone: false, defaultValue: 'role:nobody' }),
  can_leave_group: config({ allowEveryone: true, defaultValue: 'role:everyone' }),
  can_manage_group: config({ allowEveryone: false, defaultValue: 'group_creator' }),
  can_mention_group: config({ allowEveryone: true, defaultValue: 'role:everyone' }),
  can_remove_members_group: config({ allowEveryone: false, defaultValue: 'role:nobody' }),
} as const;

export type GroupPermissionSetting = keyof typeof GROUP_PERMISSION_SETTINGS;
export const GROUP_PERMISSION_SETTING_NAMES = Object.keys(GROUP_PERMISSION_SETTINGS) as GroupPermissionSetting[];

export function isAnonymous(value: GroupSettingValue): value is AnonymousGroupValue {
  return typeof value === 'object';
}

function sortedUnique(ids: number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/**
 * Zulip's canonical form: a collection of exactly one group is that group, an empty collection is
 * role:nobody.
 */
export function normalizeGroupSettingValue(value: GroupSettingValue, nobodyGroupId: number): GroupSettingValue {
  if (!isAnonymous(value)) return value;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return value.direct_subgroups[0];
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) return nobodyGroupId;
  return { direct_members: sortedUnique(value.direct_members), direct_subgroups: sortedUnique(value.direct_subgroups) };
}

export function sameGroupSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (!isAnonymous(a) && !isAnonymous(b)) return a === b;
  if (isAnonymous(a) && isAnonymous(b)) {
    const same = (x: number[], y: number[]) => {
      const sx = new Set(x);
      const sy = new Set(y);
      return sx.size === sy.size && [...sx].every((id) => sy.has(id));
    };
    return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
  }
  return false;
}

/** Decodes the JSON form of a value (request parameters). */
export const groupSettingValueValidator: Validator<GroupSettingValue> = (value, name) => {
  if (typeof value === 'number') return v.int()(value, name);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const dict = v.dict<AnonymousGroupValue>({
      direct_members: v.list(v.int()),
      direct_subgroups: v.list(v.int()),
    })(value, name);
    return { direct_members: dict.direct_members, direct_subgroups: dict.direct_subgroups };
  }
  throw errors.badRequest(`${name} is not an allowed_type`);
};

/** Decodes {new, old?}; any other shape is refused with Zulip's message. */
export const groupSettingChangeValidator: Validator<GroupSettingChange> = (value, name) => {
  const malformed = () => errors.badRequest(`${name} does not have the expected format`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw malformed();
  const input = value as Record<string, unknown>;
  if (!('new' in input) || Object.keys(input).some((k) => k !== 'new' && k !== 'old')) throw malformed();
  try {
    const change: GroupSettingChange = { new: groupSettingValueValidator(input.new, name) };
    if (input.old !== undefined && input.old !== null) change.old = groupSettingValueValidator(input.old, name);
    return change;
  } catch {
    throw malformed();
  }
};
