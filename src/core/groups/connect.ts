import type { ZulipEvent } from '../../realtime/bus';
import type { QueueDescriptor } from '../../realtime/descriptor';
import { registerEventTransform } from '../../realtime/transforms';
import { userGroupEventForClient } from './events';

function shapeForQueue(event: ZulipEvent, queue: QueueDescriptor): ZulipEvent[] {
  const shaped = userGroupEventForClient(event, queue.capabilities.include_deactivated_groups);
  return shaped ? [shaped] : [];
}

/** Group events reach clients in the form their `include_deactivated_groups` capability asks for. */
export function connectGroups(): void {
  registerEventTransform('user_group', shapeForQueue);
}
