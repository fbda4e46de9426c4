import type { Knex } from 'knex';
import { isAdminRole, isGuestRole } from '../users/roles';
import { METADATA_ACCESS_SETTINGS } from './constants';
import { usersWithGroupSetting } from './group-settings';
import type { Stream } from './model';

/**
 * Recipient lists for channel events. Everyone who can see a channel exists also tracks its
 * subscribers, so one audience serves stream events and peer_add/peer_remove alike:
 * - web-public: every active user;
 * - public: every active non-guest, plus subscribed guests;
 * - private: subscribers, organization administrators, and holders of the channel permissions that
 *   reveal it (can_add_subscribers_group, can_administer_channel_group, can_subscribe_group).
 */
export class RealmUsers {
  private constructor(readonly roles: Map<number, number>) {}

  static async load(db: Knex, realmId: number): Promise<RealmUsers> {
    const rows: { id: number; role: number }[] = await db('users').where({ realm_id: realmId, is_active: true }).select('id', 'role');
    return new RealmUsers(new Map(rows.map((r) => [r.id, r.role])));
  }

  all(): Set<number> {
    return new Set(this.roles.keys());
  }

  nonGuests(): Set<number> {
    return new Set([...this.roles].filter(([, role]) => !isGuestRole(role)).map(([id]) => id));
  }

  admins(): Set<number> {
    return new Set([...this.roles].filter(([, role]) => isAdminRole(role)).map(([id]) => id));
  }

  isActive(id: number): boolean {
    return this.roles.has(id);
  }
}

/**
 * The channel's active subscribers, read in one statement, when `userId` is one of them and the
 * channel is active: a subscriber may access a channel whatever its other settings say. Undefined
 * otherwise, when the caller must check access in full.
 */
export async function subscribersIfSubscribed(db: Knex, realmId: number, userId: number, streamId: number): Promise<number[] | undefined> {
  const result = await db.raw(
    `SELECT ARRAY(SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
                   WHERE s.stream_id = st.id AND s.active AND u.is_active) AS subscribers
       FROM streams st
      WHERE st.id = ? AND st.realm_id = ? AND NOT st.deactivated
        AND EXISTS (SELECT 1 FROM subscriptions own WHERE own.stream_id = st.id AND own.user_id = ? AND own.active)`,
    [streamId, realmId, userId],
  );
  const row = result.rows[0] as { subscribers: number[] } | undefined;
  return row?.subscribers;
}

/** Active users actively subscribed to the channel. */
export async function activeSubscriberIds(db: Knex, streamId: number): Promise<Set<number>> {
  const rows: { user_id: number }[] = await db('subscriptions')
    .join('users', 'users.id', 'subscriptions.user_id')
    .where({ 'subscriptions.stream_id': streamId, 'subscriptions.active': true, 'users.is_active': true })
    .select('subscriptions.user_id');
  return new Set(rows.map((r) => r.user_id));
}

/** Non-guests holding a permission that reveals the channel. */
export async function metadataGroupUserIds(db: Knex, stream: Stream): Promise<Set<number>> {
  const out = new Set<number>();
  for (const setting of METADATA_ACCESS_SETTINGS) {
    for (const id of await usersWithGroupSetting(db, stream.realm_id, stream[setting], { excludeGuests: true })) out.add(id);
  }
  return out;
}

export async function channelAudience(db: Knex, stream: Stream, users: RealmUsers): Promise<Set<number>> {
  if (stream.is_web_public) return users.all();
  const subscribers = await activeSubscriberIds(db, stream.id);
  if (stream.isPublic()) return new Set([...users.nonGuests(), ...subscribers]);
  return new Set([...subscribers, ...users.admins(), ...(await metadataGroupUserIds(db, stream))]);
}

export function without(ids: Iterable<number>, excluded: Iterable<number>): number[] {
  const drop = new Set(excluded);
  return [...ids].filter((id) => !drop.has(id));
}
