import { BusListener, Delivery, EventBus, notifyListeners } from './bus';
import type { RedisConnections } from './redis';

const CHANNEL = 'bus';

/**
 * The bus across server processes: a publish goes out on one Redis channel, and every process
 * (the publishing one included) hands what it receives to its local listeners, in publish order.
 */
export class RedisBus implements EventBus {
  private listeners = new Set<BusListener>();
  private stopListening: (() => void) | null = null;

  private constructor(private readonly redis: RedisConnections) {}

  static async open(redis: RedisConnections): Promise<RedisBus> {
    const bus = new RedisBus(redis);
    bus.stopListening = await redis.listen(CHANNEL, (message) => {
      notifyListeners(bus.listeners, JSON.parse(message) as Delivery[]);
    });
    return bus;
  }

  async publish(deliveries: Delivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.redis.publish(CHANNEL, JSON.stringify(deliveries));
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Live subscriptions of this process. */
  get listenerCount(): number {
    return this.listeners.size;
  }

  async close(): Promise<void> {
    this.stopListening?.();
    this.listeners.clear();
  }
}
