import type { Knex } from 'knex';
import { errors } from '../../errors';
import type { Validator } from '../../validation/validate';
import { DEFAULT_EXTERNAL_ACCOUNTS, FIELD_TYPE_IDS, FieldType, HINT_MAX_LENGTH, NAME_MAX_LENGTH, NOT_FOR_SUMMARY, USER_MATCHING_TYPES } from './field-types';
import { anyOf } from '../../db/lists';

/** Validation of field definitions and of user values, with Zulip's messages. */

export type FieldData = Record<string, string> | Record<string, Record<string, string>>;
export type ProfileValue = string | number[];

const fail = (msg: string) => errors.badRequest(msg);
const isDict = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** field_data is a dict whose values are all strings, or all dicts of strings. */
export const fieldDataValidator: Validator<FieldData> = (value, name) => {
  if (!isDict(value)) throw fail(`${name} is not a dict`);
  let strings = 0;
  let dicts = 0;
  for (const item of Object.values(value)) {
    if (typeof item === 'string') strings += 1;
    else if (isDict(item) && Object.values(item).every((x) => typeof x === 'string')) dicts += 1;
    else throw fail(`${name} contains a value that is not an allowed_type`);
  }
  if (strings > 0 && dicts > 0) throw fail(`${name} is not a dict`);
  return value as FieldData;
};

/** Zulip's check_dict_only: required keys in order, then optional ones, nothing else. */
function checkDictOnly(
  value: unknown,
  name: string,
  required: [string, (v: unknown, n: string) => void][],
  optional: [string, (v: unknown, n: string) => void][] = [],
): Record<string, unknown> {
  if (!isDict(value)) throw fail(`${name} is not a dict`);
  for (const [key, check] of required) {
    if (!(key in value)) throw fail(`${key} key is missing from ${name}`);
    check(value[key], `${name}["${key}"]`);
  }
  for (const [key, check] of optional) if (key in value) check(value[key], `${name}["${key}"]`);
  const known = new Set([...required, ...optional].map(([key]) => key));
  const extra = Object.keys(value).filter((key) => !known.has(key));
  if (extra.length > 0) throw fail(`Unexpected arguments: ${extra.join(', ')}`);
  return value;
}

function requiredString(value: unknown, name: string): void {
  if (typeof value !== 'string') throw fail(`${name} is not a string`);
  if (value.trim() === '') throw fail(`${name} cannot be blank.`);
}

const URL_PATTERN =
  /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?(?:localhost|\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-f:.]+\]|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+(?:[a-z\u00a1-\uffff]{2,63}|xn--[a-z0-9]{1,59})\.?)(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;

/** Django's URLValidator, closely enough: http(s)/ftp(s), a real host, no spaces. */
export function isUrl(value: string): boolean {
  return URL_PATTERN.test(value);
}

function urlPattern(value: unknown, name: string): void {
  if (typeof value !== 'string') throw fail(`${name} is not a string`);
  if (value.split('%(username)s').length - 1 !== 1) throw fail("URL pattern must contain '%(username)s'.");
  if (!isUrl(value.replace('%(username)s', 'username'))) throw fail(`${name} is not a URL`);
}

export function isDefaultExternalAccount(fieldType: number, fieldData: FieldData): boolean {
  return fieldType === FieldType.EXTERNAL_ACCOUNT && (fieldData as Record<string, unknown>).subtype !== 'custom';
}

/** Choices (type 3) and external accounts (type 7) define themselves in field_data. */
export function validateFieldData(fieldType: number, fieldData: FieldData): void {
  if (fieldType === FieldType.SELECT) {
    if (Object.keys(fieldData).length < 1) throw fail('Field must have at least one choice.');
    const texts = new Set<string>();
    for (const [key, choice] of Object.entries(fieldData)) {
      if (key.trim() === '') throw fail("'value' cannot be blank.");
      const checked = checkDictOnly(choice, 'field_data', [
        ['text', requiredString],
        ['order', requiredString],
      ]);
      texts.add(checked.text as string);
    }
    if (texts.size !== Object.keys(fieldData).length) throw fail('Field must not have duplicate choices.');
  } else if (fieldType === FieldType.EXTERNAL_ACCOUNT) {
    checkDictOnly(fieldData, 'field_data', [['subtype', requiredString]], [['url_pattern', urlPattern]]);
    const subtype = (fieldData as Record<string, string>).subtype;
    if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) {
      if (subtype !== 'custom') throw fail('Invalid external account type');
      if (!('url_pattern' in fieldData)) throw fail('Custom external account must define URL pattern');
    }
  }
}

/** Everything about a field definition except the summary limit and name uniqueness. */
export function validateFieldDefinition(def: {
  name: string;
  hint: string;
  fieldType: number;
  fieldData: FieldData;
  displayInProfileSummary: boolean;
  useForUserMatching: boolean;
}): void {
  validateFieldData(def.fieldType, def.fieldData);
  // Default external accounts take their label and hint from the known sites.
  if (!isDefaultExternalAccount(def.fieldType, def.fieldData)) {
    if (def.name.trim() === '') throw fail('Label cannot be blank.');
    if ([...def.hint].length > HINT_MAX_LENGTH) throw fail(`hint is too long (limit: ${HINT_MAX_LENGTH} characters)`);
    if ([...def.name].length > NAME_MAX_LENGTH) throw fail(`name is too long (limit: ${NAME_MAX_LENGTH} characters)`);
  }
  if (!FIELD_TYPE_IDS.includes(def.fieldType)) throw fail('Invalid field type.');
  if (def.displayInProfileSummary && NOT_FOR_SUMMARY.includes(def.fieldType)) {
    throw fail('Field type not supported for display in profile summary.');
  }
  if (def.useForUserMatching && !USER_MATCHING_TYPES.includes(def.fieldType)) throw fail('Field type not supported for user matching.');
}

function cappedString(value: unknown, name: string, max: number): string {
  if (typeof value !== 'string') throw fail(`${name} is not a string`);
  if ([...value].length > max) throw fail(`${name} is too long (limit: ${max} characters)`);
  return value;
}

function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day && year >= 1;
}

/**
 * A user's value for a field, validated for the field's type; returns the text stored. The name in
 * messages is the field's label, as in Zulip.
 */
export async function validateFieldValue(
  db: Knex,
  realmId: number,
  field: { name: string; field_type: number; field_data: string },
  value: unknown,
): Promise<string> {
  const name = field.name;
  switch (field.field_type) {
    case FieldType.SHORT_TEXT:
    case FieldType.EXTERNAL_ACCOUNT:
    case FieldType.PRONOUNS:
      return cappedString(value, name, 50);
    case FieldType.LONG_TEXT:
      return cappedString(value, name, 500);
    case FieldType.DATE: {
      if (typeof value !== 'string') throw fail(`${name} is not a string`);
      if (!isIsoDate(value)) throw fail(`${name} is not a date`);
      return value;
    }
    case FieldType.URL: {
      if (typeof value !== 'string') throw fail(`${name} is not a string`);
      if (!isUrl(value)) throw fail(`${name} is not a URL`);
      return value;
    }
    case FieldType.SELECT: {
      if (typeof value !== 'string') throw fail(`${name} is not a string`);
      const choices = field.field_data ? (JSON.parse(field.field_data) as Record<string, unknown>) : {};
      if (!Object.prototype.hasOwnProperty.call(choices, value)) throw fail(`'${value}' is not a valid choice for '${name}'.`);
      return value;
    }
    case FieldType.USER:
      return JSON.stringify(await validatePersonPicker(db, realmId, value));
    default:
      throw new Error(`unknown field type ${field.field_type}`);
  }
}

async function validatePersonPicker(db: Knex, realmId: number, value: unknown): Promise<number[]> {
  if (!Array.isArray(value)) throw fail('User IDs is not a list');
  value.forEach((id, i) => {
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) throw fail(`User IDs[${i}] is not an integer`);
  });
  const ids = value as number[];
  const users: { id: number; is_active: boolean; is_bot: boolean }[] =
    ids.length === 0
      ? []
      : await db('users')
          .where('realm_id', realmId)
          .whereRaw(...anyOf('id', ids))
          .select('id', 'is_active', 'is_bot');
  const found = new Set(users.map((u) => u.id));
  const invalid = ids.filter((id) => !found.has(id));
  if (invalid.length > 0) throw fail(`Invalid user IDs: ${invalid.join(', ')}`);
  for (const user of users) {
    if (!user.is_active) throw fail(`User with ID ${user.id} is deactivated`);
    if (user.is_bot) throw fail(`User with ID ${user.id} is a bot`);
  }
  return ids;
}

/** One entry of `data` in PATCH /users/me/profile_data (value may be null in PATCH /users/{id}). */
export function profileDataValidator(allowNull: boolean): Validator<{ id: number; value: ProfileValue | null }[]> {
  return (value, name) => {
    if (!Array.isArray(value)) throw fail(`${name} is not a list`);
    return value.map((entry, i) => {
      const item = `${name}[${i}]`;
      if (!isDict(entry)) throw fail(`${item} is not a dict`);
      if (!('id' in entry)) throw fail(`id key is missing from ${item}`);
      if (typeof entry.id !== 'number' || !Number.isSafeInteger(entry.id)) throw fail(`${item}["id"] is not an integer`);
      if (!('value' in entry)) throw fail(`value key is missing from ${item}`);
      const v = entry.value;
      const ok = typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'number' && Number.isSafeInteger(x))) || (allowNull && v === null);
      if (!ok) throw fail(`${item}["value"] is not a string or an integer list`);
      return { id: entry.id as number, value: v as ProfileValue | null };
    });
  };
}
