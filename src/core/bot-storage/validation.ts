import { errors } from '../../errors';
import { v, Validator } from '../../validation/validate';

/** Zulip's USER_STATE_SIZE_LIMIT: the characters of all keys and values of one account, together. */
export const BOT_STORAGE_SIZE_LIMIT = 10_000_000;

/** Characters as Zulip counts them (code points), which is also what the database's length() counts. */
export const characters = (text: string): number => [...text].length;

const hasNul = (text: string) => text.includes('\u0000');

/**
 * `storage`: a dict of strings to strings, in the order sent. Neither keys nor values may hold NUL,
 * which the database cannot store.
 */
export const parseStorage: Validator<Map<string, string>> = (value, name) => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.badRequest(`${name} is not a dict`);
  const entries = new Map<string, string>();
  // Own keys only, read without assignment, so a "__proto__" key is an entry like any other.
  for (const key of Object.keys(value)) {
    if (hasNul(key)) throw errors.badRequest(`${name} contains NULL (0x00) characters.`);
    entries.set(key, v.string()((value as Record<string, unknown>)[key], `${name}["${key}"]`));
  }
  return entries;
};

/** `keys`: a list of strings (one with NUL names nothing stored). */
export const parseKeys: Validator<string[]> = v.list(v.string({ allowNul: true }));

/** The keys that can be stored at all: the database holds no text with NUL. */
export const storableKeys = (keys: readonly string[]): string[] => keys.filter((key) => !hasNul(key));

export const storageLimitExceeded = (size: number) =>
  errors.badRequest(`Request exceeds storage limit by ${size - BOT_STORAGE_SIZE_LIMIT} characters. The limit is ${BOT_STORAGE_SIZE_LIMIT} characters.`);

export const keyDoesNotExist = () => errors.badRequest('Key does not exist.');
