import { ApiError, errors } from '../errors';
import { Delivery, EventBus, isRecipient, ZulipEvent } from './bus';
import type { QueueDescriptor } from './descriptor';
import type { DeliveryGate } from './delivery-gate';
import { checkNarrowForEvents, NarrowTerm } from './narrow';
import { CAPABILITY_NAMES, ClientCapabilities } from './capabilities';
import { eventsForQueue } from './transforms';

/**
 * Live events for one GraphQL subscription: the bus deliveries this process sees, filtered and
 * shaped exactly as for an event queue registered with the same options, numbered from 0. The
 * subscriber is a modern client (every capability declared) that wants rendered content.
 */
export interface StreamOptions {
  eventTypes: string[] | null;
  narrow: NarrowTerm[];
  allPublicStreams: boolean;
}

/** Undelivered events one subscription may hold before it is ended as too slow. */
export const MAX_PENDING_SUBSCRIPTION_EVENTS = 1000;

/**
 * Subscriptions woken per turn of the event loop. Waking every waiting subscription of a large
 * delivery at once runs all their GraphQL executions in one microtask storm, step by step side by
 * side: the first frame goes out only when nearly all are done, and every intermediate result is
 * alive at the same time (at 2,000 subscribers the collector took over a quarter). Slices keep each
 * execution's garbage short-lived and let frames leave as they are made.
 */
const WAKE_SLICE = 200;
const toWake: (() => void)[] = [];
let wakeScheduled = false;

function wakeLater(flush: () => void): void {
  toWake.push(flush);
  if (wakeScheduled) return;
  wakeScheduled = true;
  setImmediate(wakeSlice);
}

function wakeSlice(): void {
  const slice = toWake.splice(0, WAKE_SLICE);
  for (const flush of slice) flush();
  if (toWake.length > 0) setImmediate(wakeSlice);
  else wakeScheduled = false;
}

const ALL_CAPABILITIES = Object.fromEntries(CAPABILITY_NAMES.map((name) => [name, true])) as unknown as ClientCapabilities;

/** The subscriber as far as delivery needs it; whether it may use allPublicStreams is its caller's check. */
export interface StreamSubscriber {
  id: number;
  delivery_email: string;
}

export function streamDescriptor(deps: { realmId: number }, user: StreamSubscriber, options: StreamOptions): QueueDescriptor {
  options.narrow.forEach((term, i) => {
    if (term.length !== 2) throw errors.badRequest(`narrow[${i}] should have exactly 2 items`);
  });
  checkNarrowForEvents(options.narrow);
  return {
    id: 'subscription',
    realmId: deps.realmId,
    userId: user.id,
    userEmail: user.delivery_email,
    eventTypes: options.eventTypes,
    narrow: options.narrow,
    allPublicStreams: options.allPublicStreams,
    applyMarkdown: true,
    clientGravatar: false,
    slimPresence: true,
    capabilities: ALL_CAPABILITIES,
    timeoutSecs: 0,
    createdAt: Date.now(),
  };
}

/** With a gate, events wait while it is held (see DeliveryGate); a slow reader still ends past the bound. */
export function eventStream(deps: { bus: EventBus }, descriptor: QueueDescriptor, gate?: DeliveryGate): AsyncIterableIterator<ZulipEvent> {
  const pending: ZulipEvent[] = [];
  let waiting: { resolve: (result: IteratorResult<ZulipEvent>) => void; reject: (error: unknown) => void } | null = null;
  let failure: ApiError | null = null;
  let finished = false;
  let nextId = 0;
  /** A wake-up is queued (see wakeLater); events arriving meanwhile join it. */
  let wakeQueued = false;
  const wake = () => {
    wakeQueued = false;
    flush();
  };

  const listener = (deliveries: Delivery[]) => {
    if (finished) return;
    for (const delivery of deliveries) {
      if (delivery.realmId !== descriptor.realmId) continue;
      const recipient = isRecipient(delivery, descriptor.userId);
      if (!recipient && !(delivery.publicChannel && descriptor.allPublicStreams)) continue;
      for (const event of eventsForQueue(recipient ? delivery : { ...delivery, perUser: undefined }, descriptor)) {
        pending.push({ ...event, id: nextId++ });
      }
    }
    if (pending.length > MAX_PENDING_SUBSCRIPTION_EVENTS) {
      failure = new ApiError('BAD_REQUEST', 'Subscription ended: events were not read fast enough', 400);
      pending.length = 0;
      stop();
    }
    if (waiting && !wakeQueued) {
      wakeQueued = true;
      wakeLater(wake);
    }
  };
  const unsubscribe = deps.bus.subscribe(listener);
  const stopWaitingForGate = gate?.onRelease(() => flush());

  function stop() {
    if (finished) return;
    finished = true;
    unsubscribe();
    stopWaitingForGate?.();
  }

  function flush() {
    if (!waiting || gate?.held) return;
    const { resolve, reject } = waiting;
    if (pending.length > 0) {
      waiting = null;
      resolve({ value: pending.shift()!, done: false });
    } else if (failure) {
      waiting = null;
      const error = failure;
      failure = null;
      reject(error);
    } else if (finished) {
      waiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  const iterator: AsyncIterableIterator<ZulipEvent> = {
    next() {
      if (gate?.held && !finished) return new Promise((resolve, reject) => (waiting = { resolve, reject }));
      if (pending.length > 0) return Promise.resolve({ value: pending.shift()!, done: false });
      if (failure) {
        const error = failure;
        failure = null;
        return Promise.reject(error);
      }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    return() {
      stop();
      const current = waiting;
      waiting = null;
      current?.resolve({ value: undefined, done: true });
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
