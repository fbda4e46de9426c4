import type { Delivery } from '../../src/realtime/bus';
import { ApiResponse, assertSuccess, client } from './api';
import { applyEvents, comparableState, Event, State } from './reducer';
import type { TestServer, TestUser } from './server';

/**
 * Event-queue helpers: register a queue, read it, and verifyAction, which checks an action's events
 * the way Zulip's test_events does: register, act, apply the events to the registered state with
 * the client-side reducer, and compare with a fresh register.
 */
export interface RegisterOptions {
  eventTypes?: string[];
  fetchEventTypes?: string[];
  capabilities?: Record<string, boolean>;
  clientGravatar?: boolean;
  narrow?: [string, string][];
  allPublicStreams?: boolean;
  /** Other raw parameters. */
  extra?: Record<string, unknown>;
}

export interface Registered {
  queueId: string;
  lastEventId: number;
  state: State;
}

export function registerParams(options: RegisterOptions = {}): Record<string, unknown> {
  return {
    event_types: options.eventTypes,
    fetch_event_types: options.fetchEventTypes,
    client_capabilities: options.capabilities ? { notification_settings_null: false, ...options.capabilities } : undefined,
    client_gravatar: options.clientGravatar,
    narrow: options.narrow,
    all_public_streams: options.allPublicStreams,
    ...(options.extra ?? {}),
  };
}

export async function registerQueue(ts: TestServer, user: TestUser, options: RegisterOptions = {}): Promise<Registered> {
  const body = assertSuccess(await client(ts, user).post('/register', registerParams(options)));
  return { queueId: body.queue_id, lastEventId: body.last_event_id, state: body };
}

export async function getEvents(
  ts: TestServer,
  user: TestUser,
  queueId: string,
  lastEventId: number,
  options: { dontBlock?: boolean } = {},
): Promise<Event[]> {
  const res = await client(ts, user).get('/events', { queue_id: queueId, last_event_id: lastEventId, dont_block: options.dontBlock ?? false });
  return assertSuccess(res).events;
}

export async function deleteQueue(ts: TestServer, user: TestUser, queueId: string): Promise<void> {
  assertSuccess(await client(ts, user).delete('/events', { queue_id: queueId }));
}

/**
 * Registers `user`, performs `action`, applies the events the queue received to the registered
 * state and expects the result to equal a fresh register. Fails if no event arrived. Returns the
 * events (heartbeats excluded).
 */
export async function verifyAction(
  ts: TestServer,
  user: TestUser,
  action: () => Promise<ApiResponse | unknown>,
  options: RegisterOptions = {},
): Promise<Event[]> {
  const before = await registerQueue(ts, user, options);
  const result = await action();
  if (isApiResponse(result)) assertSuccess(result);
  // Events are in the queue once the action's transaction has been published, i.e. before its response.
  const events = (await getEvents(ts, user, before.queueId, before.lastEventId, { dontBlock: true })).filter((e) => e.type !== 'heartbeat');
  if (events.length === 0) throw new Error('the action produced no event for this user');
  const applied = applyEvents(before.state, events, { userId: user.id });
  const fresh = await registerQueue(ts, user, options);
  expect(comparableState(applied)).toEqual(comparableState(fresh.state));
  await deleteQueue(ts, user, before.queueId);
  await deleteQueue(ts, user, fresh.queueId);
  return events;
}

function isApiResponse(value: unknown): value is ApiResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value && 'headers' in value;
}

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
