import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import type { ZulipEvent } from '../../realtime/bus';
import type { ClientCapabilities } from '../../realtime/capabilities';

export interface RegisterOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: 'true' | 'false' | 'partial';
  slimPresence: boolean;
  presenceHistoryLimitDays: number;
  /** Newest presence update the client already has (modern presence API); absent: send all. */
  presenceLastUpdateId?: number;
  narrow: [string, string][];
  allPublicStreams: boolean;
  capabilities: ClientCapabilities;
  /**
   * Present only inside one POST /register call: slices that compute the same thing (e.g. channel
   * subscriber counts) share it here. Absent, each slice computes its own.
   */
  perCall?: Map<string, unknown>;
}

export type RegisterState = Record<string, unknown>;

/**
 * One feature's part of the POST /register response. Each feature owns its slice: how to fetch it
 * and how its events change it (used to bring a fresh snapshot up to date with events that arrived
 * while it was being read, so apply must tolerate an event the snapshot already reflects).
 */
export interface StateSlice {
  /** fetch_event_types values that select this slice. */
  fetchTypes: string[];
  fetch(deps: AppDeps, user: User, options: RegisterOptions): Promise<RegisterState>;
  apply?(state: RegisterState, event: ZulipEvent, user: User, options: RegisterOptions): void;
  /**
   * Runs once on the slice after every queued event has been applied, for presentation that depends
   * on client capabilities (e.g. notification_settings_null); apply always works on the raw form.
   */
  finalize?(deps: AppDeps, state: RegisterState, user: User, options: RegisterOptions): Promise<void>;
}
