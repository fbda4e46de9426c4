import type { Config } from '../config';
import type { Delivery, EventBus, BusListener } from './bus';
import { InProcessBus } from './bus';
import { MemoryQueueStore } from './memory-store';
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
  /** Ends waiting requests and stops timers; queues stay in their store. */
  shutdown(): Promise<void>;
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
    shutdown: () => queues.shutdown(),
    close: async () => {
      await inner.close();
      await store.close();
    },
  };
}
