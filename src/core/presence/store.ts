import type { Knex } from 'knex';

/**
 * SQL of the presence feature. A report costs one primary-key read and, at most once a minute per
 * user, one write; fetching "changed since" uses the (realm_id, last_update_id) index.
 */
export interface OwnPresence {
  presenceEnabled: boolean;
  lastActive: Date | null;
  /** null: the user has no presence row yet. */
  lastConnected: Date | null;
}

export async function readOwnPresence(db: Knex, userId: number): Promise<OwnPresence> {
  const row = await db('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .leftJoin('user_presence', 'user_presence.user_id', 'users.id')
    .where('users.id', userId)
    .first(
      'user_settings.presence_enabled',
      'user_presence.last_active_time',
      'user_presence.last_connected_time',
    );
  return {
    // An account without a settings row has the default, which is on.
    presenceEnabled: row?.presence_enabled ?? true,
    lastActive: row?.last_active_time ?? null,
    lastConnected: row?.last_connected_time ?? null,
  };
}

/**
 * Stores a user's presence under the realm's next update id, in one statement: the counter row
 * stays locked until the statement's transaction ends, so update ids become visible in order.
 */
export async function writePresence(
  db: Knex,
  realmId: number,
  userId: number,
  lastActive: Date | null,
  lastConnected: Date,
): Promise<number> {
  const result = await db.raw(
    `WITH next_id AS (
       INSERT INTO presence_sequences (realm_id, last_update_id) VALUES (?, 1)
       ON CONFLICT (realm_id) DO UPDATE SET last_update_id = presence_sequences.last_update_id + 1
       RETURNING last_update_id
     )
     INSERT INTO user_presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id)
     SELECT ?, ?, ?::timestamptz, ?::timestamptz, last_update_id FROM next_id
     ON CONFLICT (user_id) DO UPDATE SET
       last_active_time = EXCLUDED.last_active_time,
       last_connected_time = EXCLUDED.last_connected_time,
       last_update_id = EXCLUDED.last_update_id
     RETURNING last_update_id`,
    [realmId, userId, realmId, lastActive, lastConnected],
  );
  return Number(result.rows[0].last_update_id);
}

export interface PresenceRow {
  user_id: number;
  last_active_time: Date | null;
  last_connected_time: Date;
  last_update_id: number;
  date_joined: Date;
  delivery_email: string;
  email_address_visibility: number;
  role: number;
  is_bot: boolean;
  bot_type: number | null;
}

const ROW_COLUMNS = [
  'user_presence.user_id',
  'user_presence.last_active_time',
  'user_presence.last_connected_time',
  'user_presence.last_update_id',
  'users.date_joined',
  'users.delivery_email',
  'users.email_address_visibility',
  'users.role',
  'users.is_bot',
  'users.bot_type',
];

/** Presence of active human users, changed after `afterUpdateId` and/or connected since `since`. */
export async function presenceRows(
  db: Knex,
  realmId: number,
  filter: { afterUpdateId: number | null; connectedSince: Date | null },
): Promise<PresenceRow[]> {
  const query = db('user_presence')
    .join('users', 'users.id', 'user_presence.user_id')
    .where('user_presence.realm_id', realmId)
    .where('users.is_active', true)
    .where('users.is_bot', false)
    .select(ROW_COLUMNS);
  if (filter.afterUpdateId !== null) query.where('user_presence.last_update_id', '>', filter.afterUpdateId);
  if (filter.connectedSince !== null) query.where('user_presence.last_connected_time', '>=', filter.connectedSince);
  const rows: PresenceRow[] = await query;
  for (const row of rows) row.last_update_id = Number(row.last_update_id);
  return rows;
}

export async function presenceRowForUser(db: Knex, userId: number): Promise<PresenceRow | undefined> {
  return db('user_presence').join('users', 'users.id', 'user_presence.user_id').where('user_presence.user_id', userId).first(ROW_COLUMNS);
}
