import type { ZulipEvent } from '../../realtime/bus';
import type { QueueDescriptor } from '../../realtime/descriptor';
import { registerEventTransform } from '../../realtime/transforms';

/**
 * The presence event as one queue receives it. It is published with both layouts (`presence` per
 * client and `presences` keyed by user id, see events.ts): a client that declared
 * simplified_presence_events gets the modern one, `{type, presences}`; others get the legacy one,
 * without the address when they registered with slim_presence (they key presence by user id).
 */
export function presenceEventForQueue(event: ZulipEvent, queue: Pick<QueueDescriptor, 'capabilities' | 'slimPresence'>): ZulipEvent[] {
  if (queue.capabilities.simplified_presence_events) {
    return event.presences === undefined ? [event] : [{ type: 'presence', presences: event.presences }];
  }
  if (event.presence === undefined) return [event];
  const legacy: ZulipEvent = {
    type: 'presence',
    user_id: event.user_id,
    email: event.email,
    server_timestamp: event.server_timestamp,
    presence: event.presence,
  };
  if (queue.slimPresence) delete legacy.email;
  return [legacy];
}

/** Registers the presence feature's event shaping (see `connectFeatures`). */
export function connectPresence(): void {
  registerEventTransform('presence', presenceEventForQueue);
}
