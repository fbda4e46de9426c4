import type { Delivery, ZulipEvent } from '../../src/realtime/bus';
import { NO_CAPABILITIES, RegisterOptions } from '../../src/realtime/state';
import type { TestServer } from './server';

/** Records every delivery published on the server's bus (published only after commit). */
export function collectEvents(ts: TestServer) {
  const deliveries: Delivery[] = [];
  const stop = ts.server.deps.bus.subscribe((batch) => deliveries.push(...batch));
  return {
    deliveries,
    stop,
    clear: () => {
      deliveries.length = 0;
    },
    /** Deliveries of one event type (and op), in publish order. */
    of: (type: string, op?: string): Delivery[] => deliveries.filter((d) => d.event.type === type && (op === undefined || d.event.op === op)),
    events: (type: string, op?: string): ZulipEvent[] =>
      deliveries.filter((d) => d.event.type === type && (op === undefined || d.event.op === op)).map((d) => d.event),
  };
}

/** POST /register options with the given capabilities declared. */
export function registerOptions(capabilities: Partial<typeof NO_CAPABILITIES> = {}): RegisterOptions {
  return {
    applyMarkdown: false,
    clientGravatar: true,
    includeSubscribers: 'false',
    slimPresence: false,
    presenceHistoryLimitDays: 14,
    narrow: [],
    allPublicStreams: false,
    capabilities: { ...NO_CAPABILITIES, ...capabilities },
  };
}
