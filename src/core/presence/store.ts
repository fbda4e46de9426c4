import type { Knex } from 'knex';

/**
 * SQL of the presence feature. A report costs one primary-key read and, at most once a minute per
 * user, one write; "changed since" reads use the (realm_id, last_update_id) index and return
 * timestamps already in UNIX seconds, so large answers build no Date objects.
 */
export interface OwnPresence {
  presenceEnabled: boolean;
  lastActive: Date | null;
  /** null: the user has no presence row yet. */
  lastConnected: Date | null;
}

export async function readOwnPresence(db: Knex, userId: number): Promise<OwnPresence> {
  const result = await db.raw(
    `SELECT s.presence_enabled, p.last_active_time, p.last_connected_time
       FROM users u
       LEFT JOIN user_settings s ON s.user_id = u.id
       LEFT JOIN user_presence p ON p.user_id = u.id
      WHERE u.id = ?`,
    [userId],
  );
  const row = result.rows[0];
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
export async function writePresence(db: Knex, realmId: number, userId: number, lastActive: Date | null, lastConnected: Date): Promise<number> {
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

export interface PresenceWrite {
  userId: number;
  lastActive: Date | null;
  lastConnected: Date;
}

/**
 * Stores several users' presence (distinct users) in one statement, under consecutive update ids
 * taken from the counter at once, in the order given. Returns the ids in that order.
 */
export async function writePresences(db: Knex, realmId: number, writes: PresenceWrite[]): Promise<number[]> {
  if (writes.length === 1) return [await writePresence(db, realmId, writes[0].userId, writes[0].lastActive, writes[0].lastConnected)];
  const values: string[] = [];
  const bindings: Knex.RawBinding[] = [];
  writes.forEach((w, i) => {
    values.push('(?::integer, ?::timestamptz, ?::timestamptz, ?::integer)');
    bindings.push(w.userId, w.lastActive, w.lastConnected, i + 1);
  });
  const n = writes.length;
  const result = await db.raw(
    `WITH input (user_id, last_active_time, last_connected_time, ord) AS (VALUES ${values.join(', ')}),
     next_id AS (
       INSERT INTO presence_sequences (realm_id, last_update_id) VALUES (?, ?)
       ON CONFLICT (realm_id) DO UPDATE SET last_update_id = presence_sequences.last_update_id + ?
       RETURNING last_update_id
     )
     INSERT INTO user_presence (user_id, realm_id, last_active_time, last_connected_time, last_update_id)
     SELECT i.user_id, ?, i.last_active_time, i.last_connected_time, n.last_update_id - ? + i.ord FROM input i CROSS JOIN next_id n
     ON CONFLICT (user_id) DO UPDATE SET
       last_active_time = EXCLUDED.last_active_time,
       last_connected_time = EXCLUDED.last_connected_time,
       last_update_id = EXCLUDED.last_update_id
     RETURNING user_id, last_update_id`,
    [...bindings, realmId, n, n, realmId, n],
  );
  const ids = new Map<number, number>();
  for (const row of result.rows) ids.set(Number(row.user_id), Number(row.last_update_id));
  return writes.map((w) => ids.get(w.userId)!);
}

export interface PresenceRow {
  user_id: number;
  last_update_id: number;
  /** UNIX seconds; a user never reported active counts as active at min(joining, last connection). */
  active: number;
  connected: number;
  /** Only when addresses were asked for (the legacy format is keyed by email). */
  delivery_email?: string;
  email_address_visibility?: number;
}

const SECONDS = (column: string) => `floor(date_part('epoch', ${column}))::bigint`;
const ACTIVE = SECONDS('coalesce(p.last_active_time, least(u.date_joined, p.last_connected_time))');
const CONNECTED = SECONDS('p.last_connected_time');

/**
 * Presence of active human users, changed after `afterUpdateId` and/or connected since `since`.
 *
 * The rows come back aggregated into one JSON array: answers of a thousand rows are common (every
 * active user writes about once a minute), and one value costs far less to transfer and decode
 * than a thousand rows, on the embedded database above all.
 */
export async function presenceRows(
  db: Knex,
  realmId: number,
  filter: { afterUpdateId: number | null; connectedSince: Date | null; withAddresses: boolean },
): Promise<PresenceRow[]> {
  const bindings: Knex.RawBinding[] = [realmId];
  let where = '';
  if (filter.afterUpdateId !== null) {
    where += ' AND p.last_update_id > ?';
    bindings.push(filter.afterUpdateId);
  }
  if (filter.connectedSince !== null) {
    where += ' AND p.last_connected_time >= ?';
    bindings.push(filter.connectedSince);
  }
  const addresses = filter.withAddresses ? ', u.delivery_email, u.email_address_visibility' : '';
  const result = await db.raw(
    `SELECT coalesce(json_agg(json_build_array(p.user_id, p.last_update_id, ${ACTIVE}, ${CONNECTED}${addresses})), '[]')::text AS rows
       FROM user_presence p JOIN users u ON u.id = p.user_id
      WHERE p.realm_id = ? AND u.is_active AND NOT u.is_bot${where}`,
    bindings,
  );
  const tuples: [number, number, number, number, string?, number?][] = JSON.parse(result.rows[0].rows);
  return tuples.map(([user_id, last_update_id, active, connected, delivery_email, email_address_visibility]) => ({
    user_id,
    last_update_id,
    active,
    connected,
    delivery_email,
    email_address_visibility,
  }));
}

export async function presenceRowForUser(db: Knex, userId: number): Promise<PresenceRow | undefined> {
  const result = await db.raw(
    `SELECT p.user_id, p.last_update_id, ${ACTIVE} AS active, ${CONNECTED} AS connected
       FROM user_presence p JOIN users u ON u.id = p.user_id WHERE p.user_id = ?`,
    [userId],
  );
  const row = result.rows[0];
  return row && { user_id: row.user_id, last_update_id: Number(row.last_update_id), active: Number(row.active), connected: Number(row.connected) };
}
