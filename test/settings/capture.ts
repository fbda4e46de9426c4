import type { Delivery, ZulipEvent } from '../../src/realtime/bus';
import type { TestServer } from '../helpers/server';

/** Records what the bus publishes (only after commits) while a test runs. */
export interface Capture {
  deliveries: Delivery[];
  /** Events of a type, with their recipients. */
  of(type: string): { event: ZulipEvent; userIds: number[] }[];
  /** Events a given user received. */
  forUser(userId: number): ZulipEvent[];
  clear(): void;
  stop(): void;
}

export function capture(ts: TestServer): Capture {
  const deliveries: Delivery[] = [];
  const stop = ts.server.deps.bus.subscribe((batch) => deliveries.push(...batch));
  return {
    deliveries,
    of: (type) => deliveries.filter((d) => d.event.type === type).map((d) => ({ event: d.event, userIds: [...d.userIds].sort((a, b) => a - b) })),
    forUser: (userId) => deliveries.filter((d) => d.userIds.includes(userId)).map((d) => d.event),
    clear: () => {
      deliveries.length = 0;
    },
    stop,
  };
}
