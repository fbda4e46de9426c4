import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import { User } from '../users/model';
import { canSeeDeliveryEmail, placeholderDomain, placeholderEmail } from '../users/view';
import { presenceCache } from './cache';
import { cachedRealmSettings } from '../realm/setting-store';
import { OFFLINE_THRESHOLD_SECS, DEFAULT_HISTORY_LIMIT_DAYS } from './constants';
import { legacyPresence, LegacyPresence, modernPresence, ModernPresence, PresenceTimes } from './format';
import { PresenceRow, presenceRowForUser, presenceRows } from './store';

/** Read side of presence: the organization's presence as one viewer receives it. */
export interface PresenceQuery {
  /** Modern format keyed by user id (true), or legacy keyed by API email. */
  slim: boolean;
  /** Only rows written after this update id; null: no incremental fetch. */
  lastUpdateId?: number | null;
  /** Oldest connection to include, in days (default 14); ignored when lastUpdateId > 0. */
  historyLimitDays?: number | null;
}

export interface PresenceSnapshot {
  presences: Record<string, ModernPresence | LegacyPresence>;
  presence_last_update_id: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
// Far enough back to mean "everything", near enough for a valid date.
const MAX_HISTORY_DAYS = 100_000;

const timesOf = (row: PresenceRow): PresenceTimes => ({ active: row.active, connected: row.connected });

/** The API email `viewer` sees for the user of a presence row. */
function apiEmail(deps: AppDeps, viewer: User, row: PresenceRow): string {
  const target = { id: row.user_id, is_bot: false, email_address_visibility: row.email_address_visibility } as User;
  return canSeeDeliveryEmail(viewer, target) ? row.delivery_email! : placeholderEmail(deps.config, row.user_id);
}

export async function realmPresence(deps: AppDeps, viewer: User, query: PresenceQuery, now = new Date()): Promise<PresenceSnapshot> {
  const lastUpdateId = query.lastUpdateId ?? null;
  const days = query.historyLimitDays ?? DEFAULT_HISTORY_LIMIT_DAYS;
  // Zero days means the client wants no presence data at all.
  if (days === 0) return { presences: {}, presence_last_update_id: lastUpdateId ?? -1 };
  // The organization turned presence off (presence_disabled): nobody's is shown.
  if ((await cachedRealmSettings(deps)).presence_disabled === true) return { presences: {}, presence_last_update_id: -1 };
  const since = new Date(now.getTime() - Math.min(days, MAX_HISTORY_DAYS) * DAY_MS);
  // A client that already holds data is limited by its update id alone.
  const connectedSince = lastUpdateId === null || lastUpdateId <= 0 ? since : null;
  // The modern format is keyed by user id alone: the process's cache can answer it.
  if (query.slim) {
    const cache = presenceCache(deps);
    if (await cache.ready()) {
      const presences: PresenceSnapshot['presences'] = {};
      let maxId: number | null = null;
      const sinceMs = connectedSince?.getTime();
      for (const entry of cache.changedAfter(lastUpdateId ?? 0)) {
        if (sinceMs !== undefined && entry.lastConnectedMs < sinceMs) continue;
        presences[String(entry.userId)] = { active_timestamp: entry.active, idle_timestamp: entry.connected };
        // Entries come oldest first.
        maxId = entry.updateId;
      }
      return { presences, presence_last_update_id: maxId ?? lastUpdateId ?? -1 };
    }
  }
  const rows = await presenceRows(deps.knex, deps.realmId, { afterUpdateId: lastUpdateId, connectedSince, withAddresses: !query.slim });
  const presences: PresenceSnapshot['presences'] = {};
  let maxId: number | null = null;
  for (const row of rows) {
    const key = query.slim ? String(row.user_id) : apiEmail(deps, viewer, row);
    presences[key] = query.slim ? modernPresence(timesOf(row)) : legacyPresence(timesOf(row));
    if (maxId === null || row.last_update_id > maxId) maxId = row.last_update_id;
  }
  // Nothing new: the client's own id comes back (never lower); with no id given, -1.
  return { presences, presence_last_update_id: maxId ?? lastUpdateId ?? -1 };
}

/** GET /users/{user_id_or_email}/presence. */
export async function userPresence(
  deps: AppDeps,
  viewer: User,
  userIdOrEmail: string,
  slim: boolean,
  now = new Date(),
): Promise<ModernPresence | Record<string, { status: string; timestamp: number }>> {
  const target = await findActiveUser(deps, viewer, userIdOrEmail);
  if (target.bot_type !== null || target.is_bot) throw errors.badRequest('Presence is not supported for bot users.');
  const row = await presenceRowForUser(deps.knex, target.id);
  if (!row) throw errors.badRequest(`No presence data for ${userIdOrEmail}`);
  if (slim) return modernPresence(timesOf(row));
  const legacy = legacyPresence(timesOf(row));
  const stale = Math.floor(now.getTime() / 1000) - legacy.aggregated.timestamp > OFFLINE_THRESHOLD_SECS;
  return {
    website: { status: legacy.website.status, timestamp: legacy.website.timestamp },
    aggregated: { status: stale ? 'offline' : legacy.aggregated.status, timestamp: legacy.aggregated.timestamp },
  };
}

/** An active account by id, by the real address the viewer may see, or by its placeholder address. */
async function findActiveUser(deps: AppDeps, viewer: User, key: string): Promise<User> {
  const base = () => User.query(deps.knex).where({ realm_id: deps.realmId, is_active: true });
  let target: User | undefined;
  if (/^[0-9]+$/.test(key)) {
    // Ids are 32-bit integers in the database; anything larger names nobody.
    target = Number(key) <= 2_147_483_647 ? await base().findById(Number(key)) : undefined;
  } else {
    const placeholder = new RegExp(`^user([0-9]+)@${placeholderDomain(deps.config).replace(/\./g, '\\.')}$`, 'i').exec(key);
    if (placeholder) target = await base().findById(Number(placeholder[1]));
    if (!target) {
      const byAddress = await base().whereRaw('lower(delivery_email) = lower(?)', [key]).first();
      // An address the viewer may not see must not find the account.
      if (byAddress && canSeeDeliveryEmail(viewer, byAddress)) target = byAddress;
    }
  }
  if (!target) throw errors.noSuchUser();
  return target;
}
