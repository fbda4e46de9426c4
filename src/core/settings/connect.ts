import type { ZulipEvent } from '../../realtime/bus';
import type { QueueDescriptor } from '../../realtime/descriptor';
import { registerEventTransform } from '../../realtime/transforms';
import { legacySettingsEvents } from './events';

/** Clients without `user_settings_object` also get the legacy event right after the modern one. */
function withLegacyEvents(event: ZulipEvent, queue: QueueDescriptor): ZulipEvent[] {
  if (queue.capabilities.user_settings_object) return [event];
  return [event, ...legacySettingsEvents(event, queue.userEmail)];
}

export function connectSettings(): void {
  registerEventTransform('user_settings', withLegacyEvents);
}
