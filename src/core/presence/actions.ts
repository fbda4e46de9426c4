import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import type { Delivery } from '../../realtime/bus';
import type { User } from '../users/model';
import { activeViewers } from '../settings/email-visibility';
import { INVISIBLE_OFFSET_SECS, NEWLY_ONLINE_AFTER_SECS, PRESENCE_UPDATE_MIN_FREQ_SECS, USER_LIMIT_FOR_PRESENCE_EVENTS } from './constants';
import { announceWrite, presenceCache } from './cache';
import { presenceEvents } from './events';
import { presenceTimes } from './format';
import { OwnPresence, readOwnPresence, writePresence } from './store';
import { queuePresenceWrite } from './writer';
import { cachedRealmSettings } from '../realm/setting-store';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';

export type PresenceStatus = 'active' | 'idle';

export function parseStatus(status: string): PresenceStatus {
  if (status !== 'active' && status !== 'idle') throw errors.badRequest(`Invalid status: ${status}`);
  return status;
}

/** Presence, like personal settings, is for people: bots are turned away as Zulip does. */
export function requireHuman(user: User): void {
  if (user.is_bot) throw errors.badRequest('This endpoint does not accept bot requests.');
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A client's report that the user is active or idle (POST /users/me/presence).
 *
 * This is the most frequent request of all (every client, every minute), so it runs without a
 * transaction and, most of the time, without the database: the user's stored presence comes from
 * the process's presence cache (the database only when the cache cannot be used), and a write
 * happens only when the stored times are more than PRESENCE_UPDATE_MIN_FREQ_SECS old (grouped
 * with other users' writes under load, see writer.ts). Others are told at once only when the user first appears or
 * comes back online; otherwise they learn of it at their next poll.
 * `new_user_input` feeds usage statistics in Zulip; there are none to feed here.
 */
export async function reportPresence(deps: AppDeps, user: User, status: PresenceStatus, now = new Date()): Promise<void> {
  requireHuman(user);
  const cache = presenceCache(deps);
  const own = (await ownPresence(deps, user.id)) ?? (await readOwnPresence(deps.knex, user.id));
  // Invisible mode: the stored presence stays as it was left when the user turned sharing off.
  if (!own.presenceEnabled) return;
  const active = status === 'active';
  const creating = own.lastConnected === null;
  const sinceActive = own.lastActive ? now.getTime() - own.lastActive.getTime() : DAY_MS;
  const sinceConnected = own.lastConnected ? now.getTime() - own.lastConnected.getTime() : DAY_MS;
  const cameOnline = active && sinceActive > NEWLY_ONLINE_AFTER_SECS * 1000;

  let lastActive = own.lastActive;
  let lastConnected = own.lastConnected;
  let changed = creating;
  if (creating) {
    lastConnected = now;
    lastActive = active ? now : null;
  } else {
    if (sinceConnected > PRESENCE_UPDATE_MIN_FREQ_SECS * 1000) {
      lastConnected = now;
      changed = true;
    }
    if (active && sinceActive > PRESENCE_UPDATE_MIN_FREQ_SECS * 1000) {
      lastActive = now;
      // An active report is also a connection.
      if (lastConnected === null || now > lastConnected) lastConnected = now;
      changed = true;
    }
  }
  if (!changed) return;
  const updateId = await queuePresenceWrite(deps.knex, deps.realmId, user.id, lastActive, lastConnected!);
  cache.applyWrite(user.id, lastActive, lastConnected!, new Date(user.date_joined), true, updateId);
  await announceWrite(deps, updateId);
  if (!creating && !cameOnline) return;
  // With presence off for the organization (presence_disabled) reports are kept, never announced.
  if ((await cachedRealmSettings(deps)).presence_disabled === true) return;
  const deliveries = await presenceDeliveries(deps, deps.knex, user, lastActive, lastConnected!, false);
  await deps.bus.publish(deliveries);
}

/** The user's stored presence from the cache; undefined when it cannot say (read the database). */
async function ownPresence(deps: AppDeps, userId: number): Promise<OwnPresence | undefined> {
  const cache = presenceCache(deps);
  if (!(await cache.ready())) return undefined;
  const entry = cache.own(userId);
  // No row yet (or one the cache has not seen): the database says whether presence is shared.
  if (!entry) return undefined;
  return {
    presenceEnabled: entry.presenceEnabled,
    lastActive: entry.lastActiveMs === null ? null : new Date(entry.lastActiveMs),
    lastConnected: new Date(entry.lastConnectedMs),
  };
}

/**
 * presence_enabled was toggled (inside the settings transaction). Turning it on reports the user
 * active now; turning it off leaves a single entry old enough to read as offline, and freezes it.
 * Either way everyone is told at once, whatever the organization's size.
 */
export async function applyPresenceEnabled(deps: AppDeps, uow: UnitOfWork, user: User, enabled: boolean): Promise<void> {
  const now = new Date();
  let lastActive: Date | null;
  let lastConnected: Date;
  if (enabled) {
    lastActive = now;
    lastConnected = now;
  } else {
    lastActive = null;
    lastConnected = new Date(now.getTime() - INVISIBLE_OFFSET_SECS * 1000);
  }
  const updateId = await writePresence(uow.trx, deps.realmId, user.id, lastActive, lastConnected);
  // Other processes' caches learn of it once it has committed (this one's reloads: see cache.ts).
  uow.afterCommit(() => void announceWrite(deps, updateId).catch((error) => log().error(`could not announce a presence write: ${describeFailure(error)}`)));
  for (const d of await presenceDeliveries(deps, uow.trx, user, lastActive, lastConnected, true)) uow.emit(d.event, d.userIds);
}

async function presenceDeliveries(deps: AppDeps, db: Knex, user: User, lastActive: Date | null, lastConnected: Date, force: boolean): Promise<Delivery[]> {
  // Past the limit nobody is told, so a large organization's member list is not even read.
  const viewers = await activeViewers(db, deps.realmId, force ? undefined : USER_LIMIT_FOR_PRESENCE_EVENTS + 1);
  if (!force && viewers.length > USER_LIMIT_FOR_PRESENCE_EVENTS) return [];
  const times = presenceTimes(lastActive, lastConnected, new Date(user.date_joined));
  return presenceEvents(deps.config, user, times, viewers).map(({ event, userIds }) => ({ realmId: deps.realmId, userIds, event }));
}
