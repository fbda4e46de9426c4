import { errors } from '../../errors';

/** Zulip's limit on message content, in characters (code points). */
export const MAX_MESSAGE_LENGTH = 10000;
export const TRUNCATION_MARKER = '\n[message truncated]';

/**
 * Cuts text longer than `maxLength` code points so that, with the marker appended, it is exactly
 * `maxLength` long.
 */
export function truncateContent(text: string, maxLength: number, marker: string): string {
  const chars = [...text];
  if (chars.length <= maxLength) return text;
  return chars.slice(0, maxLength - [...marker].length).join('') + marker;
}

/**
 * Message content as it is stored: trailing whitespace and leading blank lines removed, refused
 * when empty or when it holds NUL characters, truncated past the length limit.
 */
export function normalizeMessageContent(raw: string): string {
  const body = raw.trimEnd().replace(/^\n+/, '');
  if (body.length === 0) throw errors.badRequest('Message must not be empty');
  if (body.includes('\u0000')) throw errors.badRequest('Message must not contain null bytes');
  return truncateContent(body, MAX_MESSAGE_LENGTH, TRUNCATION_MARKER);
}
