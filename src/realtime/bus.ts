/**
 * The event bus. Actions queue Zulip-shaped events with an explicit recipient list while their
 * transaction runs; the unit of work publishes them here only after the commit. Everything that
 * delivers events to clients (REST event queues, GraphQL subscriptions) listens on this bus.
 */
export interface ZulipEvent {
  type: string;
  [key: string]: unknown;
}

export interface Delivery {
  realmId: number;
  /** Users who may see this event. Nobody else ever receives it. */
  userIds: number[];
  event: ZulipEvent;
}

export type BusListener = (deliveries: Delivery[]) => void;

export interface EventBus {
  publish(deliveries: Delivery[]): Promise<void>;
  subscribe(listener: BusListener): () => void;
  close(): Promise<void>;
}

/** The embedded default: one process, listeners called synchronously in publish order. */
export class InProcessBus implements EventBus {
  private listeners = new Set<BusListener>();

  async publish(deliveries: Delivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    for (const listener of this.listeners) {
      try {
        listener(deliveries);
      } catch (error) {
        // One broken consumer must not stop delivery to the others.
        console.error('event bus listener failed', error);
      }
    }
  }

  subscribe(listener: BusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }
}
