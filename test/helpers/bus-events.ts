import type { Delivery } from '../../src/realtime/bus';
import type { TestServer } from './server';

/**
 * Records what the event bus publishes (events reach the bus only after their transaction
 * commits), so a test can check an action's events and their recipients.
 */
export function recordEvents(ts: TestServer) {
  const deliveries: Delivery[] = [];
  const stop = ts.server.deps.bus.subscribe((batch) => deliveries.push(...batch));
  return {
    deliveries,
    stop,
    clear: () => deliveries.splice(0, deliveries.length),
    /** Events of a type, with the users they went to. */
    ofType: (type: string) => deliveries.filter((d) => d.event.type === type).map((d) => ({ event: d.event, userIds: d.userIds })),
  };
}
