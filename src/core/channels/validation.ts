import { ApiError, errors } from '../../errors';
import { MAX_CHANNEL_NAME_LENGTH } from './constants';

/** Code points Zulip refuses in names: controls, surrogates and the Unicode non-characters. */
function isPrintable(char: string): boolean {
  if (/^[\p{Cc}\p{Cs}]$/u.test(char)) return false;
  const code = char.codePointAt(0)!;
  if (code >= 0xfdd0 && code <= 0xfdef) return false;
  return (code & 0xfffe) !== 0xfffe;
}

/** Validates an already-trimmed channel name. */
export function checkChannelName(name: string): void {
  if (name.trim() === '') throw errors.badRequest("Channel name can't be empty.");
  const chars = [...name];
  if (chars.length > MAX_CHANNEL_NAME_LENGTH) {
    throw errors.badRequest(`Channel name too long (limit: ${MAX_CHANNEL_NAME_LENGTH} characters).`);
  }
  const bad = chars.findIndex((c) => !isPrintable(c));
  if (bad >= 0) throw errors.badRequest(`Invalid character in channel name, at position ${bad + 1}.`);
}

/** Descriptions are one line: newlines become spaces. */
export function normalizeDescription(description: string): string {
  return description.replace(/\n/g, ' ');
}

const COLOR_RE = /^#([a-fA-F0-9]{3,6})$/;

export function checkColor(name: string, value: unknown): string {
  if (typeof value !== 'string') throw errors.badRequest(`${name} is not a string`);
  if (!COLOR_RE.test(value)) throw errors.badRequest(`${name} is not a valid hex color code`);
  return value;
}

/** message_retention_days: "realm_default" (null), "unlimited" (-1) or a positive number of days. */
export function parseMessageRetentionDays(value: string | number): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'string' || value <= 0) {
    throw new ApiError('REQUEST_VARIABLE_INVALID', `Bad value for 'message_retention_days': ${value}`, 400, {
      var_name: 'message_retention_days',
      bad_value: value,
    });
  }
  return value;
}
