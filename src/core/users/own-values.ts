import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isEmbeddedDatabase, SnapshotCache, UserValueCache, watchTableWrites, writesTables } from '../../db/user-value-cache';
import type { Delivery } from '../../realtime/bus';
import { highestReceivedMessageId } from '../messages/state';
import { ProfileData, profileDataFor } from '../profile-fields/queries';
import { EMBEDDED_LIFETIME_MS } from './auth-cache';
import { User } from './model';

/**
 * What GET /users/me adds to the account row (which authentication already holds): the highest
 * message id the user received and their custom profile data. Clients ask for it on every start,
 * so each process keeps both in memory, exact as of the events it has seen:
 *
 * - max_message_id: a `message` event raises it for each recipient (a message's recipients are
 *   exactly the users given a user_messages row). Rows appear otherwise (a historical row when a
 *   user reacts to or flags a message they did not receive, a move into a channel) or disappear
 *   (deletion, a move out of one) only with events that make the affected users' values be read
 *   again: `reaction`, `update_message_flags`, `delete_message`, `update_message` with a new
 *   channel. Deletions of rows by this process also hold the cache while they run.
 * - profile_data: `realm_user` events (a value changed) forget the user's, `custom_profile_fields`
 *   (definitions changed) everyone's; any write by this process to the two tables holds it.
 *
 * The organization's account rows and everyone's profile data (POST /register's realm_users) are
 * kept whole the same way: any `realm_user` event or write to `users` drops the account rows, what
 * drops anyone's profile data drops everyone's.
 *
 * Events reach every process through the bus (Redis), so other processes' caches stay exact too;
 * entries still expire (TTL below) to bound changes that announce nothing (e.g. the operator CLI,
 * whose events stay in its own process), except on the embedded database, which only this process
 * can write.
 */
const SHARED_DATABASE_TTL_MS = 5_000;

interface OwnValueCaches {
  maxMessageId: UserValueCache<number>;
  profileData: UserValueCache<ProfileData>;
  /** Every account row of the organization (register's realm_users), in id order. */
  accounts: SnapshotCache<User[]>;
  /** Everyone's profile data (register's realm_users), dropped whenever anyone's would be. */
  allProfileData: SnapshotCache<Map<number, ProfileData>>;
}

const DELETES_USER_MESSAGES = writesTables(['user_messages'], 'delete\\s+from|truncate(?:\\s+table)?');
const WRITES_PROFILE_VALUES = writesTables(['custom_profile_field_values', 'custom_profile_fields']);
const WRITES_ACCOUNTS = writesTables(['users']);

const caches = new WeakMap<Knex, OwnValueCaches>();

function ownValueCaches(deps: AppDeps): OwnValueCaches {
  let found = caches.get(deps.knex);
  if (!found) {
    const ttl = isEmbeddedDatabase(deps.knex) ? EMBEDDED_LIFETIME_MS : SHARED_DATABASE_TTL_MS;
    const made: OwnValueCaches = {
      maxMessageId: new UserValueCache(ttl),
      profileData: new UserValueCache(ttl),
      accounts: new SnapshotCache(ttl),
      allProfileData: new SnapshotCache(ttl),
    };
    watchTableWrites(deps.knex, DELETES_USER_MESSAGES, made.maxMessageId);
    watchTableWrites(deps.knex, WRITES_PROFILE_VALUES, made.profileData);
    watchTableWrites(deps.knex, WRITES_PROFILE_VALUES, made.allProfileData);
    watchTableWrites(deps.knex, WRITES_ACCOUNTS, made.accounts);
    deps.bus.subscribe((deliveries) => applyDeliveries(made, deliveries));
    caches.set(deps.knex, made);
    found = made;
  }
  return found;
}

function applyDeliveries({ maxMessageId, profileData, accounts, allProfileData }: OwnValueCaches, deliveries: Delivery[]): void {
  for (const { event, userIds } of deliveries) {
    switch (event.type) {
      case 'message': {
        const id = (event.message as { id?: unknown } | undefined)?.id;
        if (typeof id !== 'number') break;
        for (const userId of userIds) maxMessageId.update(userId, (current) => Math.max(current, id));
        break;
      }
      case 'update_message_flags':
        for (const userId of userIds) maxMessageId.forget(userId);
        break;
      case 'reaction':
        if (typeof event.user_id === 'number') maxMessageId.forget(event.user_id);
        else maxMessageId.forgetAll();
        break;
      case 'delete_message':
        // Every row of the message goes, deactivated recipients' too: read everyone's again.
        maxMessageId.forgetAll();
        break;
      case 'update_message':
        if (event.new_stream_id !== undefined) maxMessageId.forgetAll();
        break;
      case 'realm_user': {
        const userId = (event.person as { user_id?: unknown } | undefined)?.user_id;
        if (typeof userId === 'number') profileData.forget(userId);
        else profileData.forgetAll();
        accounts.forget();
        allProfileData.forget();
        break;
      }
      case 'custom_profile_fields':
        profileData.forgetAll();
        allProfileData.forget();
        break;
      case 'realm':
        if (event.op === 'deactivated') accounts.forget();
        break;
    }
  }
}

async function cached<T>(cache: UserValueCache<T>, userId: number, read: () => Promise<T>): Promise<T> {
  const hit = cache.get(userId);
  if (hit !== undefined) return hit;
  const ticket = cache.ticket(userId);
  const value = await read();
  cache.store(userId, value, ticket);
  return value;
}

/** The user's max_message_id (-1 while they have received nothing). */
export function ownMaxMessageId(deps: AppDeps, userId: number): Promise<number> {
  return cached(ownValueCaches(deps).maxMessageId, userId, () => highestReceivedMessageId(deps.knex, userId));
}

/** The user's custom profile data, keyed by field id. Callers must not change it. */
export function ownProfileData(deps: AppDeps, userId: number): Promise<ProfileData> {
  return cached(ownValueCaches(deps).profileData, userId, async () => (await profileDataFor(deps.knex, deps.realmId, [userId])).get(userId) ?? {});
}

/** Every account of the organization, in id order, as stored. Callers must not change them. */
export function realmAccounts(deps: AppDeps): Promise<User[]> {
  return ownValueCaches(deps).accounts.get(async () => User.query(deps.knex).where('realm_id', deps.realmId).orderBy('id'));
}

/** Everyone's custom profile data, by user id. Callers must not change it. */
export function realmProfileData(deps: AppDeps): Promise<Map<number, ProfileData>> {
  return ownValueCaches(deps).allProfileData.get(() => profileDataFor(deps.knex, deps.realmId));
}
