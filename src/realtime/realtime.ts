import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Delivery, EventBus, BusListener } from './bus';
import { InProcessBus } from './bus';
import { MemoryQueueStore } from './memory-store';
import { announceRestart, loadQueues, saveQueues } from './persist';
import { EventQueues } from './queues';
import type { QueueStore } from './store';

/**
 * The real-time side of a server process: the bus actions publish to, and the event queues it
 * feeds. Publishing first puts the events into every matching queue (once, from the publishing
 * process), then broadcasts them to bus listeners (GraphQL subscriptions) in every process.
 */
export interface Realtime {
  bus: EventBus;
  queues: EventQueues;
  /** Puts back the queues saved by the previous process, each told of the restart. */
  restore(knex: Knex, realmId: number): Promise<void>;
  /** Ends waiting requests and stops timers; queues stay in their store. */
  shutdown(): Promise<void>;
  /** Saves in-process queues for the next start (queues in a shared store need no saving). */
  save(knex: Knex): Promise<void>;
  /** Releases the bus and the store. */
  close(): Promise<void>;
}

class QueueingBus implements EventBus {
  constructor(
    private readonly inner: EventBus,
    private readonly queues: EventQueues,
  ) {}

  async publish(deliveries: Delivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    try {
      await this.queues.fanOut(deliveries);
    } catch (error) {
      // The transaction has committed; a queue failure must not turn the request into an error.
      console.error('event queue fan-out failed', error);
    }
    await this.inner.publish(deliveries);
  }

  subscribe(listener: BusListener): () => void {
    return this.inner.subscribe(listener);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export interface RealtimeParts {
  bus?: EventBus;
  store?: QueueStore;
}

export function createRealtime(config: Config, parts: RealtimeParts = {}): Realtime {
  const store = parts.store ?? new MemoryQueueStore();
  const inner = parts.bus ?? new InProcessBus();
  const queues = new EventQueues(store, { heartbeatSeconds: config.heartbeatSeconds, queueTimeoutSeconds: config.queueTimeoutSeconds });
  queues.start();
  return {
    bus: new QueueingBus(inner, queues),
    queues,
    restore: async (knex, realmId) => {
      if (!(store instanceof MemoryQueueStore)) return;
      await announceRestart(queues, await loadQueues(knex, realmId, store));
    },
    shutdown: () => queues.shutdown(),
    save: async (knex) => {
      if (store instanceof MemoryQueueStore) await saveQueues(knex, store);
    },
    close: async () => {
      await inner.close();
      await store.close();
    },
  };
}
