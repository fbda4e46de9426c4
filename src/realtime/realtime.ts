import type { Knex } from 'knex';
import type { Config } from '../config';
import { BusListener, Delivery, EventBus, InProcessBus } from './bus';
import { MemoryQueueStore } from './memory-store';
import { announceRestart, loadQueues, saveQueues } from './persist';
import { EventQueues } from './queues';
import { RedisConnections } from './redis';
import { RedisBus } from './redis-bus';
import { RedisQueueStore } from './redis-store';
import type { QueueStore } from './store';
import { describeFailure } from '../failure-log';
import { log } from '../log';

/**
 * The real-time side of a server process: the bus actions publish to, and the event queues it
 * feeds. Publishing first puts the events into every matching queue (once, from the publishing
 * process), then broadcasts them to bus listeners (GraphQL subscriptions) in every process.
 *
 * Without REDIS_URL everything lives in this process. With it, the bus runs over Redis pub/sub and
 * the queues live in Redis, so several processes share them.
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
  /** Releases the bus, the store and any Redis connections. */
  close(): Promise<void>;
  /** The process's Redis connections when REDIS_URL is set (other shared state may use them). */
  redis: RedisConnections | null;
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
      log().error(`event queue fan-out failed: ${describeFailure(error)}`);
    }
    await this.inner.publish(deliveries);
  }

  subscribe(listener: BusListener): () => void {
    return this.inner.subscribe(listener);
  }

  get listenerCount(): number | undefined {
    return this.inner.listenerCount;
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

export async function createRealtime(config: Config, knex: Knex, realmId: number): Promise<Realtime> {
  let redis: RedisConnections | null = null;
  let store: QueueStore;
  let inner: EventBus;
  if (config.redisUrl) {
    redis = await RedisConnections.open(config.redisUrl, knex, realmId);
    store = new RedisQueueStore(redis);
    inner = await RedisBus.open(redis);
  } else {
    store = new MemoryQueueStore();
    inner = new InProcessBus();
  }
  const queues = new EventQueues(store, {
    heartbeatSeconds: config.heartbeatSeconds,
    queueTimeoutSeconds: config.queueTimeoutSeconds,
    maxQueuesPerUser: config.maxQueuesPerUser,
  });
  await queues.start();
  return {
    bus: new QueueingBus(inner, queues),
    queues,
    redis,
    restore: async (db, realm) => {
      if (!(store instanceof MemoryQueueStore)) return;
      await announceRestart(queues, await loadQueues(db, realm, store));
    },
    shutdown: () => queues.shutdown(),
    save: async (db) => {
      if (store instanceof MemoryQueueStore) await saveQueues(db, store);
    },
    close: async () => {
      await inner.close();
      await store.close();
      await redis?.close();
    },
  };
}
