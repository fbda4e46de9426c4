import type { CapabilityName } from './capabilities';
import { describeFailure } from '../failure-log';
import { log } from '../log';

/**
 * The event bus. Actions queue Zulip-shaped events with an explicit recipient list while their
 * transaction runs; the unit of work publishes them here only after the commit. Everything that
 * delivers events to clients (REST event queues, GraphQL subscriptions) listens on this bus.
 */
export interface ZulipEvent {
  type: string;
  [key: string]: unknown;
}

/** Optional routing details an emitter may attach to one event (see `uow.emit`). */
export interface DeliveryOptions {
  /** Fields merged into the event for one recipient only, e.g. a message's per-user `flags`. */
  perUser?: Record<number, Record<string, unknown>>;
  /**
   * A message in a public channel: queues registered with `all_public_streams` receive it too,
   * even when their user is not a recipient.
   */
  publicChannel?: boolean;
  /**
   * What a client that declared a capability receives instead of `event` (an empty list: nothing).
   * Used where the two shapes cannot be derived from each other, e.g. events about archived
   * channels or deactivated groups.
   */
  ifCapable?: Partial<Record<CapabilityName, ZulipEvent[]>>;
  /** Likewise, for clients that did not declare the capability. */
  ifNotCapable?: Partial<Record<CapabilityName, ZulipEvent[]>>;
}

export interface Delivery extends DeliveryOptions {
  realmId: number;
  /** Users who may see this event. Nobody else ever receives it. */
  userIds: number[];
  event: ZulipEvent;
}

export type BusListener = (deliveries: Delivery[]) => void;

const recipientSets = new WeakMap<Delivery, Set<number>>();

/** Whether the user is a recipient; the set is built once per delivery, shared by every listener. */
export function isRecipient(delivery: Delivery, userId: number): boolean {
  let recipients = recipientSets.get(delivery);
  if (!recipients) {
    recipients = new Set(delivery.userIds);
    recipientSets.set(delivery, recipients);
  }
  return recipients.has(userId);
}

export interface EventBus {
  publish(deliveries: Delivery[]): Promise<void>;
  subscribe(listener: BusListener): () => void;
  /** Listeners subscribed in this process, where the bus can tell. */
  readonly listenerCount?: number;
  close(): Promise<void>;
}

/** Calls each listener, so that one broken consumer does not stop delivery to the others. */
export function notifyListeners(listeners: Iterable<BusListener>, deliveries: Delivery[]): void {
  for (const listener of listeners) {
    try {
      listener(deliveries);
    } catch (error) {
      log().error(`event bus listener failed: ${describeFailure(error)}`);
    }
  }
}

/** The embedded default: one process, listeners called synchronously in publish order. */
export class InProcessBus implements EventBus {
  private listeners = new Set<BusListener>();

  async publish(deliveries: Delivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    notifyListeners(this.listeners, deliveries);
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
    this.listeners.clear();
  }
}
