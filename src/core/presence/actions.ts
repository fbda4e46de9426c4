import type { Knex } from 'knex';
import type { AppDeps } from '../../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import type { Delivery } from '../../realtime/bus';
import type { User } from '../users/model';
import { activeViewers } from '../settings/email-visibility';
import {
  INVISIBLE_OFFSET_SECS,
  NEWLY_ONLINE_AFTER_SECS,
  PRESENCE_UPDATE_MIN_FREQ_SECS,
  USER_LIMIT_FOR_PRESENCE_EVENTS,
} from './constants';
import { presenceEvents } from './events';
import { presenceTimes } from './format';
import { readOwnPresence, writePresence } from './store';

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
 * transaction: one read of the user's own row, and a single-statement write only when the stored
 * times are more than PRESENCE_UPDATE_MIN_FREQ_SECS old. Others are told at once only when the
 * user first appears or comes back online; otherwise they learn of it at their next poll.
 * `new_user_input` feeds usage statistics in Zulip; there are none to feed here.
 */
export async function reportPresence(deps: AppDeps, user: User, status: PresenceStatus, now = new Date()): Promise<void> {
  requireHuman(user);
  const own = await readOwnPresence(deps.knex, user.id);
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
  await writePresence(deps.knex, deps.realmId, user.id, lastActive, lastConnected!);
  if (!creating && !cameOnline) return;
  const deliveries = await presenceDeliveries(deps, deps.knex, user, lastActive, lastConnected!, false);
  await deps.bus.publish(deliveries);
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
  await writePresence(uow.trx, deps.realmId, user.id, lastActive, lastConnected);
  for (const d of await presenceDeliveries(deps, uow.trx, user, lastActive, lastConnected, true)) uow.emit(d.event, d.userIds);
}

async function presenceDeliveries(
  deps: AppDeps,
  db: Knex,
  user: User,
  lastActive: Date | null,
  lastConnected: Date,
  force: boolean,
): Promise<Delivery[]> {
  // Past the limit nobody is told, so a large organization's member list is not even read.
  const viewers = await activeViewers(db, deps.realmId, force ? undefined : USER_LIMIT_FOR_PRESENCE_EVENTS + 1);
  if (!force && viewers.length > USER_LIMIT_FOR_PRESENCE_EVENTS) return [];
  const times = presenceTimes(lastActive, lastConnected, new Date(user.date_joined));
  return presenceEvents(deps.config, user, times, viewers).map(({ event, userIds }) => ({ realmId: deps.realmId, userIds, event }));
}
