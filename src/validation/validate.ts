import { ApiError, errors } from '../errors';

/**
 * Small composable validators for decoded parameter values. Every message comes from one of
 * Zulip's fixed templates, naming the parameter (and the position inside it: `x[0]`, `x["key"]`).
 */
export type Validator<T> = (value: unknown, name: string) => T;

const fail = (msg: string) => errors.badRequest(msg);

export interface StringRules {
  maxLength?: number;
  minLength?: number;
  /** Message for an empty value; when set, empty strings are refused. */
  emptyMessage?: string;
  allowNul?: boolean;
}

export const v = {
  string:
    (rules: StringRules = {}): Validator<string> =>
    (value, name) => {
      if (typeof value !== 'string') throw fail(`${name} is not a string`);
      if (rules.emptyMessage !== undefined && value.trim() === '') throw fail(rules.emptyMessage);
      if (rules.minLength !== undefined && value.length < rules.minLength) {
        throw fail(`${name} is too short (minimum ${rules.minLength} characters)`);
      }
      if (rules.maxLength !== undefined && [...value].length > rules.maxLength) {
        throw fail(`${name} is too long (limit: ${rules.maxLength} characters)`);
      }
      if (!rules.allowNul && value.includes('\u0000')) throw fail(`${name} contains NULL (0x00) characters.`);
      return value;
    },

  int:
    (rules: { min?: number; max?: number } = {}): Validator<number> =>
    (value, name) => {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw fail(`${name} is not an integer`);
      if (rules.min !== undefined && value < rules.min) throw fail(`${name} is too small`);
      if (rules.max !== undefined && value > rules.max) throw fail(`${name} is too large`);
      return value;
    },

  bool: (): Validator<boolean> => (value, name) => {
    if (typeof value !== 'boolean') throw fail(`${name} is not a boolean`);
    return value;
  },

  oneOf:
    <T extends string | number>(allowed: readonly T[]): Validator<T> =>
    (value, name) => {
      if (!allowed.includes(value as T)) throw fail(`Invalid ${name}`);
      return value as T;
    },

  list:
    <T>(item: Validator<T>, rules: { maxLength?: number } = {}): Validator<T[]> =>
    (value, name) => {
      if (!Array.isArray(value)) throw fail(`${name} is not a list`);
      if (rules.maxLength !== undefined && value.length > rules.maxLength) {
        throw fail(`${name} has too many items (limit: ${rules.maxLength})`);
      }
      return value.map((element, i) => item(element, `${name}[${i}]`));
    },

  dict:
    <T extends Record<string, unknown>>(required: { [K in keyof T]?: Validator<T[K]> }, optional: { [K in keyof T]?: Validator<T[K]> } = {}): Validator<T> =>
    (value, name) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(`${name} is not a dict`);
      const input = value as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [key, check] of Object.entries(required)) {
        if (!(key in input)) throw fail(`${key} key is missing from ${name}`);
        out[key] = (check as Validator<unknown>)(input[key], `${name}["${key}"]`);
      }
      for (const [key, check] of Object.entries(optional)) {
        if (key in input) out[key] = (check as Validator<unknown>)(input[key], `${name}["${key}"]`);
      }
      return out as T;
    },

  record:
    <T>(item: Validator<T>): Validator<Record<string, T>> =>
    (value, name) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw fail(`${name} is not a dict`);
      const out: Record<string, T> = {};
      for (const [key, element] of Object.entries(value)) out[key] = item(element, `${name}["${key}"]`);
      return out;
    },

  nullable:
    <T>(inner: Validator<T>): Validator<T | null> =>
    (value, name) =>
      value === null ? null : inner(value, name),

  any: (): Validator<unknown> => (value) => value,
};

/** JSON-decodes a raw parameter, with Zulip's error for text that is not JSON. */
export function parseJsonParam(raw: string, name: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw errors.invalidJson(name);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
