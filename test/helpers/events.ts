import type { Delivery } from '../../src/realtime/bus';
import type { TestServer } from './server';

/** Records every delivery published on the server's bus until stopped. */
export function captureEvents(ts: TestServer) {
  const deliveries: Delivery[] = [];
  const stop = ts.server.deps.bus.subscribe((batch) => deliveries.push(...batch));
  return {
    deliveries,
    stop,
    /** Deliveries of one event type (and op), in publish order. */
    of: (type: string, op?: string) => deliveries.filter((d) => d.event.type === type && (op === undefined || d.event.op === op)),
    clear: () => {
      deliveries.length = 0;
    },
  };
}
