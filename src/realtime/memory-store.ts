import type { QueueDescriptor } from './descriptor';
import { DEFAULT_MAX_QUEUE_EVENTS, QueueBatch, QueueStore, ReadResult, SavedQueue, StoredEvent } from './store';

interface MemoryQueue {
  descriptor: QueueDescriptor;
  events: StoredEvent[];
  nextEventId: number;
  newestPrunedId: number;
  lastAccess: number;
  holdUntil: number;
}

/** Event queues kept in this process: the embedded default. Saved to the database across restarts. */
export class MemoryQueueStore implements QueueStore {
  private queues = new Map<string, MemoryQueue>();
  private byUser = new Map<string, Set<string>>();
  private allPublic = new Map<number, Set<string>>();

  constructor(public maxEvents = DEFAULT_MAX_QUEUE_EVENTS) {}

  async create(descriptor: QueueDescriptor, maxPerUser = Infinity): Promise<string[]> {
    const now = Date.now();
    this.insert({ descriptor, events: [], nextEventId: 0, newestPrunedId: -1, lastAccess: now, holdUntil: 0 });
    const own = this.byUser.get(userKey(descriptor.realmId, descriptor.userId))!;
    if (own.size <= maxPerUser) return [];
    // Longest idle first, queues with a waiting request after all others; never the new one.
    const others = [...own].filter((id) => id !== descriptor.id).map((id) => this.queues.get(id)!);
    const idleness = (q: MemoryQueue) => (q.holdUntil > now ? now : 0) * 2 + q.lastAccess;
    others.sort((a, b) => idleness(a) - idleness(b));
    const evicted = others.slice(0, own.size - maxPerUser).map((q) => q.descriptor.id);
    for (const id of evicted) this.remove(id);
    return evicted;
  }

  private insert(queue: MemoryQueue): void {
    const { descriptor } = queue;
    this.queues.set(descriptor.id, queue);
    const key = userKey(descriptor.realmId, descriptor.userId);
    if (!this.byUser.has(key)) this.byUser.set(key, new Set());
    this.byUser.get(key)!.add(descriptor.id);
    if (descriptor.allPublicStreams) {
      if (!this.allPublic.has(descriptor.realmId)) this.allPublic.set(descriptor.realmId, new Set());
      this.allPublic.get(descriptor.realmId)!.add(descriptor.id);
    }
  }

  async descriptor(queueId: string): Promise<QueueDescriptor | null> {
    return this.queues.get(queueId)?.descriptor ?? null;
  }

  async queueIdsForUsers(realmId: number, userIds: number[]): Promise<string[][]> {
    return userIds.map((id) => [...(this.byUser.get(userKey(realmId, id)) ?? [])]);
  }

  async allPublicStreamsQueueIds(realmId: number): Promise<string[]> {
    return [...(this.allPublic.get(realmId) ?? [])];
  }

  async append(batches: QueueBatch[]): Promise<string[]> {
    const touched = new Set<string>();
    for (const { queueId, events } of batches) {
      const queue = this.queues.get(queueId);
      if (!queue || events.length === 0) continue;
      if (queue.events.length + events.length > this.maxEvents) {
        // A client this far behind is gone or too slow; it re-registers rather than costing memory.
        this.remove(queueId);
        touched.add(queueId);
        continue;
      }
      for (const event of events) queue.events.push({ ...event, id: queue.nextEventId++ });
      touched.add(queueId);
    }
    return [...touched];
  }

  async read(queueId: string, lastEventId: number): Promise<ReadResult> {
    const queue = this.queues.get(queueId);
    if (!queue) return { kind: 'missing' };
    queue.lastAccess = Date.now();
    if (lastEventId < queue.newestPrunedId) return { kind: 'pruned', lastEventId };
    let drop = 0;
    while (drop < queue.events.length && queue.events[drop].id <= lastEventId) drop++;
    if (drop > 0) {
      queue.newestPrunedId = queue.events[drop - 1].id;
      queue.events.splice(0, drop);
    }
    if (lastEventId !== queue.newestPrunedId) return { kind: 'unknown-event', lastEventId };
    return { kind: 'ok', events: queue.events.slice(), held: queue.holdUntil > Date.now() };
  }

  async peek(queueId: string): Promise<StoredEvent[]> {
    return this.queues.get(queueId)?.events.slice() ?? [];
  }

  async hold(queueId: string, until: number | null): Promise<void> {
    const queue = this.queues.get(queueId);
    if (!queue) return;
    queue.holdUntil = until ?? 0;
    queue.lastAccess = Date.now();
  }

  async delete(queueId: string): Promise<boolean> {
    return this.remove(queueId);
  }

  private remove(queueId: string): boolean {
    const queue = this.queues.get(queueId);
    if (!queue) return false;
    const { descriptor } = queue;
    this.queues.delete(queueId);
    const key = userKey(descriptor.realmId, descriptor.userId);
    const own = this.byUser.get(key);
    own?.delete(queueId);
    if (own?.size === 0) this.byUser.delete(key);
    this.allPublic.get(descriptor.realmId)?.delete(queueId);
    return true;
  }

  async collectExpired(now: number): Promise<string[]> {
    const expired: string[] = [];
    for (const [id, queue] of this.queues) {
      if (queue.holdUntil > now) continue;
      if (now - queue.lastAccess >= queue.descriptor.timeoutSecs * 1000) expired.push(id);
    }
    for (const id of expired) this.remove(id);
    return expired;
  }

  async count(): Promise<number> {
    return this.queues.size;
  }

  async close(): Promise<void> {}

  /** Every queue with its events, for saving across a restart. */
  snapshot(): SavedQueue[] {
    return [...this.queues.values()].map((q) => ({
      descriptor: q.descriptor,
      nextEventId: q.nextEventId,
      newestPrunedId: q.newestPrunedId,
      events: q.events,
    }));
  }

  /** Puts saved queues back; their idle time starts again now (the server was down, not the client). */
  restore(saved: SavedQueue[]): void {
    const now = Date.now();
    for (const q of saved) {
      this.insert({ descriptor: q.descriptor, events: q.events, nextEventId: q.nextEventId, newestPrunedId: q.newestPrunedId, lastAccess: now, holdUntil: 0 });
    }
  }
}

function userKey(realmId: number, userId: number): string {
  return `${realmId}:${userId}`;
}
