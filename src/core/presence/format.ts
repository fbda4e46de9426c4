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

/** A user's presence in UNIX seconds: last activity and last connection. */
export interface PresenceTimes {
  active: number;
  connected: number;
}

export const toSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * A user who never reported being active counts as active when they joined, though never after
 * their last connection (an invisible user's connection is moved into the past, and a new account
 * must not look present because of its recent joining date). The SQL of store.ts does the same.
 */
export function presenceTimes(lastActive: Date | null, lastConnected: Date, dateJoined: Date): PresenceTimes {
  const active = lastActive ?? (dateJoined < lastConnected ? dateJoined : lastConnected);
  return { active: toSeconds(active), connected: toSeconds(lastConnected) };
}

export function modernPresence(times: PresenceTimes): ModernPresence {
  return { active_timestamp: times.active, idle_timestamp: times.connected };
}

export function legacyClientPresence(times: PresenceTimes): LegacyClientPresence {
  const isActive = times.active + LEGACY_ACTIVE_WINDOW_SECS >= times.connected;
  return { client: 'website', status: isActive ? 'active' : 'idle', timestamp: isActive ? times.active : times.connected, pushable: false };
}

export function legacyFromClient(website: LegacyClientPresence): LegacyPresence {
  return { aggregated: { client: website.client, status: website.status, timestamp: website.timestamp }, website };
}

export function legacyPresence(times: PresenceTimes): LegacyPresence {
  return legacyFromClient(legacyClientPresence(times));
}
