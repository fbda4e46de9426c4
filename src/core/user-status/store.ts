import type { Knex } from 'knex';

/**
 * A user's status: text and an emoji shown beside their name, one row per user who ever set one.
 * Presented as Zulip does: only the parts that are set, plus the deprecated `away` (true while the
 * user's presence_enabled setting is off).
 */
export const USER_STATUS_EVENT = 'user_status';
export const MAX_STATUS_TEXT_LENGTH = 60;
export const UNICODE_EMOJI = 'unicode_emoji';

export interface StatusRow {
  user_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  presence_enabled: boolean;
}

export interface UserStatusDict {
  away?: true;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export function statusDict(row: StatusRow): UserStatusDict {
  const out: UserStatusDict = {};
  if (!row.presence_enabled) out.away = true;
  if (row.status_text) out.status_text = row.status_text;
  if (row.emoji_name) {
    out.emoji_name = row.emoji_name;
    out.emoji_code = row.emoji_code;
    out.reaction_type = row.reaction_type;
  }
  return out;
}

/** Status rows with each user's presence_enabled (a missing settings row means the default, on). */
export function statusRows(db: Knex) {
  return db('user_status as s')
    .leftJoin('user_settings as us', 'us.user_id', 's.user_id')
    .select('s.user_id', 's.status_text', 's.emoji_name', 's.emoji_code', 's.reaction_type', db.raw('coalesce(us.presence_enabled, true) AS presence_enabled'));
}

/** The user's status as GET /users/{id}/status shows it ({} when they never set one). */
export async function userStatusOf(db: Knex, userId: number): Promise<UserStatusDict> {
  const row = (await statusRows(db).where('s.user_id', userId).first()) as StatusRow | undefined;
  return row ? statusDict(row) : {};
}

/** `user_status` of POST /register: active users whose status shows anything, keyed by id as a string. */
export async function realmStatuses(db: Knex, realmId: number): Promise<Record<string, UserStatusDict>> {
  const rows = (await statusRows(db)
    .join('users as u', 'u.id', 's.user_id')
    .where({ 's.realm_id': realmId, 'u.is_active': true })
    .orderBy('s.user_id')) as StatusRow[];
  const out: Record<string, UserStatusDict> = {};
  for (const row of rows) {
    const dict = statusDict(row);
    if (Object.keys(dict).length > 0) out[String(row.user_id)] = dict;
  }
  return out;
}
