import type { ZulipEvent } from '../../realtime/bus';
import type { QueueDescriptor } from '../../realtime/descriptor';
import { EMPTY_TOPIC_DISPLAY_NAME, registerEventTransform } from '../../realtime/transforms';
import { eventsForClient } from './events';

/** The event types whose per-client shape the messages feature owns (see events.ts). */
const SHAPED_TYPES = ['message', 'update_message', 'delete_message', 'update_message_flags', 'user_topic', 'muted_topics'];

function shapeForQueue(event: ZulipEvent, queue: QueueDescriptor): ZulipEvent[] {
  return eventsForClient(event, {
    queueId: queue.id,
    applyMarkdown: queue.applyMarkdown,
    clientGravatar: queue.clientGravatar,
    capabilities: queue.capabilities,
    eventTypes: queue.eventTypes,
  });
}

/** The empty topic of a channel message being edited, as clients without `empty_topic_name` name it. */
function editTypingTopic(event: ZulipEvent, queue: QueueDescriptor): ZulipEvent[] {
  const recipient = event.recipient as Record<string, unknown> | undefined;
  if (queue.capabilities.empty_topic_name || recipient?.topic !== '') return [event];
  return [{ ...event, recipient: { ...recipient, topic: EMPTY_TOPIC_DISPLAY_NAME } }];
}

/** Makes event queues and subscriptions deliver messaging events as each client asked for them. */
export function connectMessages(): void {
  for (const type of SHAPED_TYPES) registerEventTransform(type, shapeForQueue);
  registerEventTransform('typing_edit_message', editTypingTopic);
}
