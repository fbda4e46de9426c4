import type { ZulipEvent } from './bus';
import { matchesNarrow, NarrowTerm } from './narrow';
import type { ClientCapabilities } from './capabilities';

/**
 * Everything an event queue remembers about the client that registered it: whose it is, which
 * events it wants, and the options and capabilities that shape their payloads. Immutable once the
 * queue exists, so processes may cache it.
 */
export interface QueueDescriptor {
  id: string;
  realmId: number;
  userId: number;
  /** The user's own address, for the legacy events that carry it. */
  userEmail: string;
  /** null: every type. */
  eventTypes: string[] | null;
  narrow: NarrowTerm[];
  allPublicStreams: boolean;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  capabilities: ClientCapabilities;
  /** Idle time after which the queue is collected. */
  timeoutSecs: number;
  createdAt: number;
}

/**
 * Whether a queue gets the legacy `muted_topics` event: not when its event_types name `user_topic`
 * (a client asking for both gets the modern form only).
 */
export function wantsLegacyMutedTopics(eventTypes: string[] | null): boolean {
  return eventTypes === null || !eventTypes.includes('user_topic');
}

/** The per-queue filter, applied to each event after its payload was shaped for the queue. */
export function acceptsEvent(queue: QueueDescriptor, event: ZulipEvent): boolean {
  if (queue.eventTypes !== null) {
    if (!queue.eventTypes.includes(event.type)) return false;
    if (event.type === 'muted_topics' && !wantsLegacyMutedTopics(queue.eventTypes)) return false;
  }
  if (event.type === 'message') return matchesNarrow(queue.narrow, event.message, event.flags);
  // Channel typing notifications only go to clients that said they can show them.
  if (event.type === 'typing' && 'stream_id' in event) return queue.capabilities.stream_typing_notifications;
  return true;
}
