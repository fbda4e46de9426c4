import { errors } from '../../errors';
import { Anchor, parseAnchor } from './fetch';

// `anchor=date` with `anchor_date` (Zulip feature level 445): instead of naming a message, the
// client gives a moment, and the anchor is the oldest message of the narrow sent at or after it
// (the newest, when none was; see fetch.ts). The moment is ISO 8601, read as UTC without an offset.

// Calendar date, then optionally a time (minutes and seconds optional, any fraction) and an offset.
const ISO_8601 = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

export function parseAnchorDate(raw: string): Date {
  const invalid = () => errors.badRequest('Invalid anchor_date');
  const match = ISO_8601.exec(raw.trim());
  if (!match) throw invalid();
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0));
  const fraction = match[7] ? Number(`0.${match[7]}`) : 0;
  const date = new Date(0);
  // setUTCFullYear rather than Date.UTC, which reads years below 100 as 19xx.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, Math.floor(fraction * 1000));
  // Out-of-range fields roll over in JavaScript; a date that moved was not a real one.
  if (year < 1 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) throw invalid();
  const offset = match[8];
  if (offset && offset !== 'Z') {
    const digits = offset.slice(1).replace(':', '');
    const hours = Number(digits.slice(0, 2));
    const minutes = Number(digits.slice(2) || 0);
    if (hours > 23 || minutes > 59) throw invalid();
    const sign = offset.startsWith('-') ? -1 : 1;
    date.setTime(date.getTime() - sign * (hours * 60 + minutes) * 60_000);
  }
  return date;
}

/** GET /messages' anchor: as parseAnchor, plus `date` (which needs `anchor_date`). */
export function parseFetchAnchor(raw: string | undefined, useFirstUnreadAnchor: boolean, anchorDate: string | undefined): Anchor {
  if (useFirstUnreadAnchor || raw !== 'date') return parseAnchor(raw, useFirstUnreadAnchor);
  if (anchorDate === undefined) throw errors.missing('anchor_date');
  return { date: parseAnchorDate(anchorDate) };
}
