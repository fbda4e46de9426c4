/**
 * Facts of Zulip's export format (the layout `manage.py export` writes and `manage.py import`
 * reads): realm.json holds the organization's tables, messages-000001.json, ... hold the messages
 * and each user's copy of them, date fields are UNIX seconds as floats, foreign keys are plain ids.
 */
export const REALM_FILE = 'realm.json';
export const ATTACHMENT_FILE = 'attachment.json';
/** Parley's own additions, which Zulip's importer never reads: the hashes of the users' API keys. */
export const PARLEY_FILE = 'parley.json';
/** The upload directories Zulip's importer expects, each with a records.json. */
export const RECORD_DIRS = ['avatars', 'uploads', 'emoji', 'realm_icons'];
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
