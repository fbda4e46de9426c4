import type { AppDeps } from '../deps';
import type { User } from '../core/users/model';
import type { ZulipEvent } from './bus';

/** Capabilities a client declares in POST /register; each changes some payloads. */
export interface ClientCapabilities {
  notification_settings_null: boolean;
  bulk_message_deletion: boolean;
  user_avatar_url_field_optional: boolean;
  stream_typing_notifications: boolean;
  user_settings_object: boolean;
  linkifier_url_template: boolean;
  user_list_incomplete: boolean;
  include_deactivated_groups: boolean;
  archived_channels: boolean;
  empty_topic_name: boolean;
  simplified_presence_events: boolean;
}

export const NO_CAPABILITIES: ClientCapabilities = {
  notification_settings_null: false,
  bulk_message_deletion: false,
  user_avatar_url_field_optional: false,
  stream_typing_notifications: false,
  user_settings_object: false,
  linkifier_url_template: false,
  user_list_incomplete: false,
  include_deactivated_groups: false,
  archived_channels: false,
  empty_topic_name: false,
  simplified_presence_events: false,
};

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

export type CapabilityName = keyof ClientCapabilities;
export const CAPABILITY_NAMES = Object.keys(NO_CAPABILITIES) as CapabilityName[];
