import type { Delivery, ZulipEvent } from './bus';
import { acceptsEvent, QueueDescriptor } from './descriptor';
import { CAPABILITY_NAMES } from './capabilities';

/**
 * Shaping one published event for one queue. An event is published once, in its most complete
 * form; what each client receives depends on the options and capabilities it registered with.
 * Each event type may have transforms (registered by the feature that owns the type) that turn
 * the published event into the events this queue gets: the same event, a reshaped copy, several
 * events, or none. Transforms must not mutate their input: one event object feeds many queues.
 */
export type EventTransform = (event: ZulipEvent, queue: QueueDescriptor) => ZulipEvent[];

const transforms = new Map<string, Set<EventTransform>>();

/**
 * Adds a transform for one event type; transforms of a type run in registration order. Registering
 * the same function again changes nothing (features connect at every start).
 */
export function registerEventTransform(type: string, transform: EventTransform): void {
  let registered = transforms.get(type);
  if (!registered) transforms.set(type, (registered = new Set()));
  registered.add(transform);
}

/** The name clients without `empty_topic_name` see instead of the empty topic. */
export const EMPTY_TOPIC_DISPLAY_NAME = 'general chat';

/** Everything `queue` receives for one delivery, in order, before ids are assigned. */
export function eventsForQueue(delivery: Delivery, queue: QueueDescriptor): ZulipEvent[] {
  const extra = delivery.perUser?.[queue.userId];
  let events: ZulipEvent[] = [extra ? { ...delivery.event, ...extra } : delivery.event];
  for (const name of CAPABILITY_NAMES) {
    const declared = queue.capabilities[name];
    const variant = declared ? delivery.ifCapable?.[name] : delivery.ifNotCapable?.[name];
    if (variant) {
      events = variant;
      break;
    }
  }
  const out: ZulipEvent[] = [];
  for (const event of events) {
    for (const shaped of applyTransforms(event, queue)) {
      const final = queue.capabilities.empty_topic_name ? shaped : withEmptyTopicRenamed(shaped);
      if (acceptsEvent(queue, final)) out.push(final);
    }
  }
  return out;
}

function applyTransforms(event: ZulipEvent, queue: QueueDescriptor): ZulipEvent[] {
  let current = [event];
  for (const transform of transforms.get(event.type) ?? []) current = current.flatMap((e) => transform(e, queue));
  return current;
}

const TOPIC_KEYS = ['topic', 'topic_name', 'subject', 'orig_subject'];

/** Replaces the empty topic with its display name wherever an event names a topic. */
export function withEmptyTopicRenamed(event: ZulipEvent): ZulipEvent {
  let copy: ZulipEvent | null = null;
  for (const key of TOPIC_KEYS) {
    if (event[key] === '') {
      copy ??= { ...event };
      copy[key] = EMPTY_TOPIC_DISPLAY_NAME;
    }
  }
  const message = event.message as Record<string, unknown> | undefined;
  if (message && typeof message === 'object' && (message.subject === '' || message.topic === '')) {
    copy ??= { ...event };
    const renamed = { ...message };
    if (renamed.subject === '') renamed.subject = EMPTY_TOPIC_DISPLAY_NAME;
    if (renamed.topic === '') renamed.topic = EMPTY_TOPIC_DISPLAY_NAME;
    copy.message = renamed;
  }
  return copy ?? event;
}

// ---- Built-in transforms for event shapes defined by the interface itself. ----

const GRAVATAR_PREFIX = 'https://secure.gravatar.com/avatar/';

/**
 * realm_user: with client_gravatar the client computes gravatar URLs itself from addresses it can
 * see, so such URLs are left out (null), exactly as in the register response.
 */
registerEventTransform('realm_user', (event, queue) => {
  const person = event.person as Record<string, unknown> | undefined;
  if (!queue.clientGravatar || !person || typeof person.avatar_url !== 'string') return [event];
  const emailVisible = typeof person.delivery_email === 'string';
  if (!emailVisible || !person.avatar_url.startsWith(GRAVATAR_PREFIX)) return [event];
  return [{ ...event, person: { ...person, avatar_url: null } }];
});

/** realm_linkifiers: the template format is unusable for clients without linkifier_url_template. */
registerEventTransform('realm_linkifiers', (event, queue) => (queue.capabilities.linkifier_url_template ? [event] : []));
