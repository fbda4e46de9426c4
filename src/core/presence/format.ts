import { LEGACY_ACTIVE_WINDOW_SECS } from './constants';

/**
 * The two wire formats of a user's presence. Modern: two timestamps, keyed by user id. Legacy: a
 * status per client (always the single client "website") plus an "aggregated" copy, keyed by email.
 */
export interface ModernPresence {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface LegacyClientPresence {
  client: 'website';
  status: 'active' | 'idle';
  timestamp: number;
  pushable: false;
}

export interface LegacyPresence {
  aggregated: { client: 'website'; status: 'active' | 'idle'; timestamp: number };
  website: LegacyClientPresence;
}

/**
 * What is stored for one user. A user who never reported being active counts as active when they
 * joined, though never after their last connection (an invisible user's connection is moved into
 * the past, and a new account must not look present because of its recent joining date).
 */
export interface PresenceTimes {
  lastActive: Date | null;
  lastConnected: Date;
  dateJoined: Date;
}

export const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

function lastActiveOf(times: PresenceTimes): Date {
  if (times.lastActive) return times.lastActive;
  return times.dateJoined < times.lastConnected ? times.dateJoined : times.lastConnected;
}

export function modernPresence(times: PresenceTimes): ModernPresence {
  return {
    active_timestamp: toSeconds(lastActiveOf(times)),
    idle_timestamp: toSeconds(times.lastConnected),
  };
}

export function legacyClientPresence(times: PresenceTimes): LegacyClientPresence {
  const active = lastActiveOf(times);
  const isActive = active.getTime() + LEGACY_ACTIVE_WINDOW_SECS * 1000 >= times.lastConnected.getTime();
  return {
    client: 'website',
    status: isActive ? 'active' : 'idle',
    timestamp: toSeconds(isActive ? active : times.lastConnected),
    pushable: false,
  };
}

export function legacyFromClient(website: LegacyClientPresence): LegacyPresence {
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

export function legacyPresence(times: PresenceTimes): LegacyPresence {
  return legacyFromClient(legacyClientPresence(times));
}
