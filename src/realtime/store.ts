import type { ZulipEvent } from './bus';
import type { QueueDescriptor } from './descriptor';

/**
 * Where event queues live: in this process (MemoryQueueStore) or in Redis (RedisQueueStore), so that
 * several server processes share them. The store knows nothing of HTTP: it holds descriptors and
 * events, assigns ids, prunes what clients acknowledge and forgets idle queues.
 */
export interface StoredEvent extends ZulipEvent {
  id: number;
}

export type ReadResult =
  /** `held`: a request (perhaps on another process) was waiting on the queue. */
  | { kind: 'ok'; events: StoredEvent[]; held?: boolean }
  /** Unknown or collected queue. */
  | { kind: 'missing' }
  /** The client acknowledges less than it did before: events it may not have seen are gone. */
  | { kind: 'pruned'; lastEventId: number }
  /** The client acknowledges an event the queue never held. */
  | { kind: 'unknown-event'; lastEventId: number };

export interface QueueBatch {
  queueId: string;
  events: ZulipEvent[];
}

/** A queue as saved across a restart. */
export interface SavedQueue {
  descriptor: QueueDescriptor;
  nextEventId: number;
  newestPrunedId: number;
  events: StoredEvent[];
}

export interface QueueStore {
  /**
   * Adds a queue. When its user then holds more than `maxPerUser` queues, the longest idle ones
   * (queues with a waiting request last) are removed; returns their ids.
   */
  create(descriptor: QueueDescriptor, maxPerUser?: number): Promise<string[]>;
  descriptor(queueId: string): Promise<QueueDescriptor | null>;
  /** The ids of each user's queues, in the order of `userIds`. */
  queueIdsForUsers(realmId: number, userIds: number[]): Promise<string[][]>;
  /** Queues registered with all_public_streams. */
  allPublicStreamsQueueIds(realmId: number): Promise<string[]>;
  /**
   * Appends each batch's events in order with consecutive ids. A queue that would exceed its bound
   * is dropped instead (its client re-registers). Returns the ids of queues that received events.
   */
  append(batches: QueueBatch[]): Promise<string[]>;
  /** Drops events with id <= lastEventId (the client has them) and returns the rest. */
  read(queueId: string, lastEventId: number): Promise<ReadResult>;
  /** Every event the queue holds. */
  peek(queueId: string): Promise<StoredEvent[]>;
  /**
   * A request is waiting on the queue until `until` (ms since the epoch): the queue is not
   * collected meanwhile. null: the request ended, the queue counts as used now.
   */
  hold(queueId: string, until: number | null): Promise<void>;
  delete(queueId: string): Promise<boolean>;
  /** Removes queues idle past their timeout and not held; returns their ids. */
  collectExpired(now: number): Promise<string[]>;
  count(): Promise<number>;
  // For stores shared between processes; each resolves once listening and returns a stop function.
  /** Calls `listener` when another process appended to queues. */
  onAppended?(listener: (queueIds: string[]) => void): Promise<() => void>;
  /** Tells other processes a newer request took over the queue. */
  announceTakeover?(queueId: string): Promise<void>;
  /** Calls `listener` when a request on another process took over a queue. */
  onTakeover?(listener: (queueId: string) => void): Promise<() => void>;
  close(): Promise<void>;
}

/** Default bound on the events one queue holds before it is dropped. */
export const DEFAULT_MAX_QUEUE_EVENTS = 10_000;
