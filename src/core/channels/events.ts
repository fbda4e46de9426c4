import type { ZulipEvent } from '../../realtime/bus';
import type { ChannelDict, SubscriptionDict } from './view';

/**
 * The channel feature's events, shaped as Zulip's.
 *
 * Archived channels (the `archived_channels` client capability): archiving emits both
 * `stream/update` with property `is_archived` and `stream/delete` with `for_archiving: true`;
 * unarchiving emits `stream/update` (`is_archived` false), `stream/create` with
 * `for_unarchiving: true` and, for each subscriber, `subscription/add` with `for_unarchiving: true`.
 * An event queue delivers the `is_archived` updates only to clients that declared
 * `archived_channels`, the flagged create/delete/add events only to clients that did not, and
 * removes the `for_archiving` / `for_unarchiving` keys before delivery.
 */
export const subscriptionAdd = (subscriptions: SubscriptionDict[], forUnarchiving = false): ZulipEvent => ({
  type: 'subscription',
  op: 'add',
  subscriptions,
  ...(forUnarchiving ? { for_unarchiving: true } : {}),
});

export const subscriptionRemove = (streams: { stream_id: number; name: string }[]): ZulipEvent => ({
  type: 'subscription',
  op: 'remove',
  subscriptions: streams.map((s) => ({ name: s.name, stream_id: s.stream_id })),
});

export const subscriptionUpdate = (streamId: number, property: string, value: unknown): ZulipEvent => ({
  type: 'subscription',
  op: 'update',
  property,
  value,
  stream_id: streamId,
});

export const peerAdd = (streamIds: number[], userIds: number[]): ZulipEvent => ({
  type: 'subscription',
  op: 'peer_add',
  stream_ids: [...streamIds].sort((a, b) => a - b),
  user_ids: [...userIds].sort((a, b) => a - b),
});

export const peerRemove = (streamIds: number[], userIds: number[]): ZulipEvent => ({
  type: 'subscription',
  op: 'peer_remove',
  stream_ids: [...streamIds].sort((a, b) => a - b),
  user_ids: [...userIds].sort((a, b) => a - b),
});

export const streamCreate = (streams: ChannelDict[], forUnarchiving = false): ZulipEvent => ({
  type: 'stream',
  op: 'create',
  streams,
  ...(forUnarchiving ? { for_unarchiving: true } : {}),
});

export const streamDelete = (streamIds: number[], forArchiving = false): ZulipEvent => ({
  type: 'stream',
  op: 'delete',
  streams: streamIds.map((stream_id) => ({ stream_id })),
  stream_ids: streamIds,
  ...(forArchiving ? { for_archiving: true } : {}),
});

export const streamUpdate = (stream: { id: number; name: string }, property: string, value: unknown, extra: Record<string, unknown> = {}): ZulipEvent => ({
  type: 'stream',
  op: 'update',
  property,
  value,
  stream_id: stream.id,
  name: stream.name,
  ...extra,
});

/** Whether an event may reach a client, given its archived_channels capability (see above). */
export function deliverableWithArchivedChannels(event: ZulipEvent, archivedChannels: boolean): boolean {
  if (event.type === 'stream' && event.op === 'update' && event.property === 'is_archived') return archivedChannels;
  if (event.for_archiving === true || event.for_unarchiving === true) return !archivedChannels;
  return true;
}

/** The event as a client receives it, without the delivery flags. */
export function stripDeliveryFlags(event: ZulipEvent): ZulipEvent {
  if (!('for_archiving' in event) && !('for_unarchiving' in event)) return event;
  const { for_archiving: _a, for_unarchiving: _u, ...rest } = event;
  return rest as ZulipEvent;
}
