import crypto from 'node:crypto';
import { ApiError } from '../errors';
import { Delivery, isRecipient, ZulipEvent } from './bus';
import type { QueueDescriptor } from './descriptor';
import type { QueueBatch, QueueStore, StoredEvent } from './store';
import { eventsForQueue } from './transforms';
import { describeFailure } from '../failure-log';
import { log } from '../log';

export const badEventQueueId = (queueId: string) => new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, 400, { queue_id: queueId });

/** Answers a GET /events that waited: with the events, or the error that ended it. */
export type EventsAnswer = (error: unknown, events?: StoredEvent[]) => void;

/**
 * A GET /events request waiting for its queue to receive something. It holds the answer callback
 * rather than a promise, so the request's call chain has returned while it waits and only this
 * object, its timer and the response stay in memory.
 */
class Waiter {
  done = false;
  timer: NodeJS.Timeout | null = null;
  /** Settles once the waiter has been answered and its hold on the queue lifted. */
  released: Promise<void> = Promise.resolve();

  constructor(
    readonly queueId: string,
    readonly lastEventId: number,
    private readonly answer: EventsAnswer,
    private readonly onSettled: (waiter: Waiter) => void,
  ) {}

  resolve(events: StoredEvent[]): boolean {
    return this.settle(null, events);
  }

  reject(error: unknown): boolean {
    return this.settle(error);
  }

  private settle(error: unknown, events?: StoredEvent[]): boolean {
    if (this.done) return false;
    this.done = true;
    if (this.timer) clearTimeout(this.timer);
    this.onSettled(this);
    this.answer(error, events);
    return true;
  }
}

export interface EventQueuesOptions {
  heartbeatSeconds: number;
  /** Default idle timeout; register may ask for another (see clampLifespan). */
  queueTimeoutSeconds: number;
  /** Queues one user may hold; registering one more removes the longest idle. */
  maxQueuesPerUser?: number;
}

/** Longest idle lifetime a client may ask for. */
export const MAX_QUEUE_LIFESPAN_SECS = 7 * 24 * 3600;

/** The idle lifetime of a queue registered with idle_queue_timeout "mobile", as on Zulip's server. */
export const MOBILE_QUEUE_LIFESPAN_SECS = 12 * 3600;

/**
 * The event queues of this process's clients: fan-out of bus deliveries into queues, long-polling
 * GET /events (one in-memory waiter per queue, woken when its queue receives events), heartbeats and
 * garbage collection. The queues themselves live in the store.
 */
export class EventQueues {
  private waiters = new Map<string, Waiter>();
  private gcTimer: NodeJS.Timeout | null = null;
  private closing = false;
  private stopListeners: (() => void)[] = [];

  constructor(
    readonly store: QueueStore,
    private readonly options: EventQueuesOptions,
  ) {}

  /** Listens to the store (for queues shared with other processes) and starts collecting garbage. */
  async start(): Promise<void> {
    const stopAppended = await this.store.onAppended?.((queueIds) => this.wake(queueIds));
    // A request on another process took over: the one waiting here returns, empty-handed.
    const stopTakeover = await this.store.onTakeover?.((queueId) => this.waiters.get(queueId)?.resolve([]));
    for (const stop of [stopAppended, stopTakeover]) if (stop) this.stopListeners.push(stop);
    // Collect often enough that a short timeout (as in tests) is honoured within a quarter of it.
    const interval = Math.min(60_000, Math.max(250, (this.options.queueTimeoutSeconds * 1000) / 4));
    this.gcTimer = setInterval(() => void this.collectGarbage(), interval);
    this.gcTimer.unref();
  }

  clampLifespan(requested: number): number {
    if (requested <= 0) return this.options.queueTimeoutSeconds;
    return Math.min(requested, MAX_QUEUE_LIFESPAN_SECS);
  }

  newQueueId(): string {
    return crypto.randomUUID();
  }

  async create(descriptor: QueueDescriptor): Promise<void> {
    const evicted = await this.store.create(descriptor, this.options.maxQueuesPerUser);
    // A request waiting here on a removed queue learns it is gone (other processes' through the store).
    for (const id of evicted) this.waiters.get(id)?.reject(badEventQueueId(id));
  }

  /** The queue's descriptor, if it exists and belongs to this user (anything else looks unknown). */
  async ownQueue(realmId: number, userId: number, queueId: string): Promise<QueueDescriptor> {
    const descriptor = await this.store.descriptor(queueId);
    if (!descriptor || descriptor.userId !== userId || descriptor.realmId !== realmId) throw badEventQueueId(queueId);
    return descriptor;
  }

  /** Puts each delivery's events into every queue that should see them, then wakes waiters. */
  async fanOut(deliveries: Delivery[]): Promise<void> {
    const batches: QueueBatch[] = [];
    for (const delivery of deliveries) {
      const perUser = await this.store.queueIdsForUsers(delivery.realmId, delivery.userIds);
      const queueIds = new Set(perUser.flat());
      if (delivery.publicChannel) {
        for (const id of await this.store.allPublicStreamsQueueIds(delivery.realmId)) queueIds.add(id);
      }
      const descriptors = await Promise.all([...queueIds].map((id) => this.store.descriptor(id)));
      // A public-channel message reaches a non-recipient's all_public_streams queue without per-user fields.
      const forOthers = delivery.perUser ? { ...delivery, perUser: undefined } : delivery;
      for (const descriptor of descriptors) {
        if (!descriptor) continue;
        const events = eventsForQueue(isRecipient(delivery, descriptor.userId) ? delivery : forOthers, descriptor);
        if (events.length > 0) batches.push({ queueId: descriptor.id, events });
      }
    }
    if (batches.length === 0) return;
    this.wake(await this.store.append(batches));
  }

  /** Appends to one queue directly (heartbeats, restart notices). */
  async appendTo(queueId: string, events: ZulipEvent[]): Promise<void> {
    this.wake(await this.store.append([{ queueId, events }]));
  }

  /**
   * GET /events: acknowledges events up to lastEventId and returns the rest at once when there are
   * any (or with dontBlock). Otherwise it calls `defer` with a function that cancels the wait (for
   * an abandoned request), waits with the answer `defer` returns, and returns null: the answer then
   * comes through it, errors included.
   */
  async poll(
    realmId: number,
    userId: number,
    queueId: string,
    lastEventId: number,
    dontBlock: boolean,
    defer: (cancel: () => void) => EventsAnswer,
  ): Promise<StoredEvent[] | null> {
    await this.ownQueue(realmId, userId, queueId);
    const { events, held } = await this.readOrThrow(queueId, lastEventId);
    // A newer request replaces one still waiting on the same queue; the older one returns now.
    const local = this.waiters.get(queueId);
    if (local) local.resolve(events);
    else if (held && this.store.announceTakeover) void this.store.announceTakeover(queueId).catch(logFailure);
    if (events.length > 0 || dontBlock || this.closing) return events;

    let waiter: Waiter | null = null;
    const answer = defer(() => waiter?.resolve([]));
    waiter = new Waiter(queueId, lastEventId, answer, this.settled);
    this.waiters.set(queueId, waiter);
    const heartbeatMs = this.options.heartbeatSeconds * 1000;
    try {
      await this.store.hold(queueId, Date.now() + heartbeatMs + 30_000);
    } catch (error) {
      waiter.reject(error);
      return null;
    }
    if (waiter.done) return null;
    waiter.timer = setTimeout(this.heartbeat, heartbeatMs, waiter);
    // Events may have arrived between the read and the waiter's registration.
    void this.check(waiter);
    return null;
  }

  /** Lifts the queue's hold once a waiter has its answer. */
  private readonly settled = (waiter: Waiter): void => {
    waiter.released = this.release(waiter);
  };

  /** A waiter that heard nothing for a while gets a heartbeat. */
  private readonly heartbeat = (waiter: Waiter): void => {
    // Checked directly too: if the queue vanished meanwhile, nothing else would answer this request.
    void this.appendTo(waiter.queueId, [{ type: 'heartbeat' }])
      .catch(logFailure)
      .then(() => this.check(waiter));
  };

  private async release(waiter: Waiter): Promise<void> {
    if (this.waiters.get(waiter.queueId) === waiter) {
      this.waiters.delete(waiter.queueId);
      await this.store.hold(waiter.queueId, null).catch(logFailure);
    }
  }

  private async readOrThrow(queueId: string, lastEventId: number): Promise<{ events: StoredEvent[]; held: boolean }> {
    const result = await this.store.read(queueId, lastEventId);
    switch (result.kind) {
      case 'ok':
        return { events: result.events, held: result.held ?? false };
      case 'missing':
        throw badEventQueueId(queueId);
      case 'pruned':
        throw new ApiError('BAD_REQUEST', `An event newer than ${lastEventId} has already been pruned!`, 400);
      case 'unknown-event':
        throw new ApiError('BAD_REQUEST', `Event ${lastEventId} was not in this queue`, 400);
    }
  }

  /** Answers a waiter if its queue now holds events (or is gone). */
  private async check(waiter: Waiter): Promise<void> {
    if (waiter.done) return;
    try {
      const { events } = await this.readOrThrow(waiter.queueId, waiter.lastEventId);
      if (events.length > 0) waiter.resolve(events);
    } catch (error) {
      waiter.reject(error);
    }
  }

  /** Called when queues received events, from this process or (through the store) another. */
  wake(queueIds: Iterable<string>): void {
    for (const id of queueIds) {
      const waiter = this.waiters.get(id);
      if (waiter) void this.check(waiter);
    }
  }

  async deleteQueue(realmId: number, userId: number, queueId: string): Promise<void> {
    await this.ownQueue(realmId, userId, queueId);
    await this.store.delete(queueId);
    this.waiters.get(queueId)?.reject(badEventQueueId(queueId));
  }

  /** Deletes the queues idle past their lifespan at `now` (ms since the epoch) and not held by a waiting request. */
  async collectGarbage(now = Date.now()): Promise<string[]> {
    try {
      return await this.store.collectExpired(now);
    } catch (error) {
      logFailure(error);
      return [];
    }
  }

  get waitingCount(): number {
    return this.waiters.size;
  }

  /**
   * Ends every waiting request with a heartbeat (so clients simply poll again) and stops timers.
   * Requests arriving afterwards are answered at once.
   */
  async shutdown(): Promise<void> {
    this.closing = true;
    if (this.gcTimer) clearInterval(this.gcTimer);
    for (const stop of this.stopListeners) stop();
    const waiting = [...this.waiters.values()];
    await Promise.all(
      waiting.map(async (waiter) => {
        try {
          await this.store.append([{ queueId: waiter.queueId, events: [{ type: 'heartbeat' }] }]);
          await this.check(waiter);
        } finally {
          waiter.resolve([]);
        }
        await waiter.released;
      }),
    );
  }
}

function logFailure(error: unknown): void {
  log().error(`event queue operation failed: ${describeFailure(error)}`);
}
