/**
 * Facts of Zulip's export format (the layout `manage.py export` writes and `manage.py import`
 * reads): realm.json holds the organization's tables, messages-000001.json, ... hold the messages
 * and each user's copy of them, date fields are UNIX seconds as floats, foreign keys are plain ids.
 */
export const REALM_FILE = 'realm.json';
export const ATTACHMENT_FILE = 'attachment.json';
/** Parley's own additions, which Zulip's importer never reads: the hashes of the users' API keys. */
export const PARLEY_FILE = 'parley.json';
export const MESSAGES_PER_FILE = 1000;

export const messageFileName = (index: number) => `messages-${String(index).padStart(6, '0')}.json`;
export const MESSAGE_FILE_RE = /^messages-(\d{6})\.json$/;

/** Zulip's Recipient.type values. */
export const RECIPIENT_PERSONAL = 1;
export const RECIPIENT_STREAM = 2;
export const RECIPIENT_HUDDLE = 3;

export type Row = Record<string, unknown>;
export type Tables = Record<string, Row[]>;

export const toSeconds = (date: Date | string | null) => (date === null ? null : new Date(date).getTime() / 1000);
export const fromSeconds = (seconds: unknown) => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);

/**
 * Password hashes: Django writes an Argon2 hash as "argon2" followed by the PHC string Parley
 * stores, so Argon2 passwords carry over both ways; other Django hashers cannot be verified here.
 */
export const DJANGO_ARGON2_PREFIX = 'argon2';
export function toDjangoHash(hash: string | null): string | null {
  return hash && hash.startsWith('$argon2') ? `${DJANGO_ARGON2_PREFIX}${hash}` : null;
}
export function fromDjangoHash(hash: unknown): string | null {
  if (typeof hash !== 'string' || !hash.startsWith(`${DJANGO_ARGON2_PREFIX}$argon2`)) return null;
  return hash.slice(DJANGO_ARGON2_PREFIX.length);
}

/** The id of a row knex inserted with `.returning('id')` (PostgreSQL and PGlite answer alike). */
export function insertedId(rows: unknown[]): number {
  const row = rows[0];
  return Number(typeof row === 'object' && row !== null ? (row as { id: unknown }).id : row);
}

/**
 * Rewrites links to uploads and custom emoji images when the organization's id (the first part of
 * every path_id and of emoji URLs) changes.
 */
export function relinkUploads(text: string, fromRealm: number, toRealm: number): string {
  if (fromRealm === toRealm || !text.includes('user_')) return text;
  return text
    .replace(new RegExp(`(user_uploads/(?:thumbnail/)?)${fromRealm}/`, 'g'), `$1${toRealm}/`)
    .replace(new RegExp(`user_avatars/${fromRealm}/emoji/`, 'g'), `user_avatars/${toRealm}/emoji/`);
}

/** How a long export or import reports its steps (a terminal's progress bar, or nothing). */
export interface StepProgress {
  start(label: string, total: number): void;
  advance(by?: number): void;
  stop(): void;
}

/**
 * Rendered content names users, channels and groups by id (mentions, channel links): those ids
 * are rewritten to the importing organization's, as Zulip's importer does.
 */
export function remapRenderedIds(html: string, ids: { user: Map<number, number>; stream: Map<number, number>; group: Map<number, number> }): string {
  if (!html.includes('data-') && !html.includes('#narrow/')) return html;
  const swap = (map: Map<number, number>, id: string) => String(map.get(Number(id)) ?? id);
  return html
    .replace(/data-user-id="(\d+)"/g, (_m, id: string) => `data-user-id="${swap(ids.user, id)}"`)
    .replace(/data-stream-id="(\d+)"/g, (_m, id: string) => `data-stream-id="${swap(ids.stream, id)}"`)
    .replace(/data-user-group-id="(\d+)"/g, (_m, id: string) => `data-user-group-id="${swap(ids.group, id)}"`)
    .replace(/#narrow\/(channel|stream)\/(\d+)-/g, (_m, word: string, id: string) => `#narrow/${word}/${swap(ids.stream, id)}-`);
}
