import type { ZulipEvent } from '../../realtime/bus';
import type { ClientCapabilities } from '../../realtime/capabilities';
import { wantsLegacyMutedTopics } from '../../realtime/descriptor';
import { displayTopic } from './topics';
import { finalizeMessage, WideMessage } from './view';

/**
 * The messaging events, shaped as Zulip's, and how an event queue turns the one event published
 * on the bus into what each client receives.
 *
 * Queue contract (`eventsForClient`):
 * - `message`: the bus event carries the wide message (raw and rendered content); the queue
 *   finalizes it for the client's apply_markdown / client_gravatar / empty_topic_name. The
 *   sender's per-user fields also carry `local_id` and `sender_queue_id`; the queue whose id equals
 *   `sender_queue_id` gets `local_message_id` set to `local_id`, and both keys are removed.
 * - `delete_message`: published in the bulk shape (`message_ids`); clients without the
 *   `bulk_message_deletion` capability get one event per message with `message_id`.
 * - `muted_topics` (legacy): only for queues that want it (`wantsLegacyMutedTopics`: event_types
 *   that do not name `user_topic`).
 * - Topic names ("" is the empty topic) become `realm_empty_topic_display_name` for clients
 *   without the `empty_topic_name` capability.
 *
 * `connectMessages` registers this as the queues' transform for each of these types.
 */
export function messageEvent(wide: WideMessage, flags: string[]): ZulipEvent {
  return { type: 'message', message: wide, flags };
}

export function deleteMessageEvent(messageIds: number[], target: { streamId: number; topic: string } | null): ZulipEvent {
  return target
    ? { type: 'delete_message', message_ids: messageIds, message_type: 'stream', stream_id: target.streamId, topic: target.topic }
    : { type: 'delete_message', message_ids: messageIds, message_type: 'private' };
}

export function flagsEvent(op: 'add' | 'remove', flag: string, messages: number[], extra: Record<string, unknown> = {}): ZulipEvent {
  return { type: 'update_message_flags', op, operation: op, flag, messages, all: false, ...extra };
}

export interface ClientView {
  queueId: string;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  capabilities: Pick<ClientCapabilities, 'bulk_message_deletion' | 'empty_topic_name'>;
  /** The queue's event_types, or null for all types. */
  eventTypes: string[] | null;
}

/**
 * A published message as clients of one shape see it. A message to a big channel reaches a queue per
 * recipient, nearly all asking for the same shape: the copy is made once per shape and shared (events
 * are never mutated after publication, so sharing is safe).
 */
const finalizedCopies = new WeakMap<WideMessage, Map<number, Record<string, unknown>>>();

function finalizedFor(wide: WideMessage, applyMarkdown: boolean, clientGravatar: boolean, allowEmptyTopicName: boolean): Record<string, unknown> {
  let copies = finalizedCopies.get(wide);
  if (!copies) finalizedCopies.set(wide, (copies = new Map()));
  const shape = (applyMarkdown ? 1 : 0) | (clientGravatar ? 2 : 0) | (allowEmptyTopicName ? 4 : 0);
  let copy = copies.get(shape);
  if (!copy) copies.set(shape, (copy = finalizeMessage(wide, { applyMarkdown, clientGravatar, allowEmptyTopicName })));
  return copy;
}

/** What a client receives for a published event (possibly several events, possibly none). */
export function eventsForClient(event: ZulipEvent, client: ClientView): ZulipEvent[] {
  const allowEmpty = client.capabilities.empty_topic_name;
  const topic = (name: unknown) => displayTopic(name as string, allowEmpty);
  switch (event.type) {
    case 'message': {
      const { local_id, sender_queue_id, ...rest } = event;
      const out: ZulipEvent = { ...rest, message: finalizedFor(event.message as WideMessage, client.applyMarkdown, client.clientGravatar, allowEmpty) };
      if (local_id !== undefined && sender_queue_id === client.queueId) out.local_message_id = local_id;
      return [out];
    }
    case 'update_message': {
      const out = { ...event };
      if ('orig_subject' in out) out.orig_subject = topic(out.orig_subject);
      if ('subject' in out) out.subject = topic(out.subject);
      return [out];
    }
    case 'delete_message': {
      const base: ZulipEvent = { type: 'delete_message', message_type: event.message_type };
      if (event.message_type === 'stream') {
        base.stream_id = event.stream_id;
        base.topic = topic(event.topic);
      }
      if (client.capabilities.bulk_message_deletion) return [{ ...base, message_ids: event.message_ids }];
      return (event.message_ids as number[]).map((id) => ({ ...base, message_id: id }));
    }
    case 'update_message_flags': {
      if (!event.message_details) return [event];
      const details: Record<string, Record<string, unknown>> = {};
      for (const [id, entry] of Object.entries(event.message_details as Record<string, Record<string, unknown>>)) {
        details[id] = 'topic' in entry ? { ...entry, topic: topic(entry.topic) } : entry;
      }
      return [{ ...event, message_details: details }];
    }
    case 'user_topic':
      return [{ ...event, topic_name: topic(event.topic_name) }];
    case 'muted_topics':
      if (!wantsLegacyMutedTopics(client.eventTypes)) return [];
      return [{ ...event, muted_topics: (event.muted_topics as [string, string, number][]).map(([s, t, ts]) => [s, topic(t), ts]) }];
    default:
      return [event];
  }
}
