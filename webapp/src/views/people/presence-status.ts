import type { PresenceRecord } from '../../state/types';

/** Zulip's OFFLINE_THRESHOLD: a user last active within it is shown as present. */
export const OFFLINE_THRESHOLD_SECS = 140;

export type PresenceStatus = 'active' | 'idle' | 'offline';

export function presenceStatus(p: PresenceRecord | undefined, now = Date.now() / 1000): PresenceStatus {
  if (!p) return 'offline';
  if (now - p.active_timestamp < OFFLINE_THRESHOLD_SECS) return 'active';
  if (now - p.idle_timestamp < OFFLINE_THRESHOLD_SECS) return 'idle';
  return 'offline';
}

export const STATUS_LABEL: Record<PresenceStatus, string> = { active: 'Active', idle: 'Idle', offline: 'Offline' };
