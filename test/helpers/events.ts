import type { Delivery, ZulipEvent } from '../../src/realtime/bus';
import { RegisterOptions as SliceOptions } from '../../src/core/register/slice';
import { NO_CAPABILITIES } from '../../src/realtime/capabilities';
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

export async function getEvents(ts: TestServer, user: TestUser, queueId: string, lastEventId: number, options: { dontBlock?: boolean } = {}): Promise<Event[]> {
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
  const [events] = await verifyActionFor(ts, [user], action, options);
  if (events.length === 0) throw new Error('the action produced no event for this user');
  return events;
}

/**
 * verifyAction for several users watching one action at once (each with the same register
 * options). Returns each user's events, in the order of `users`; a user may receive none.
 */
export async function verifyActionFor(
  ts: TestServer,
  users: TestUser[],
  action: () => Promise<ApiResponse | unknown>,
  options: RegisterOptions = {},
): Promise<Event[][]> {
  const before = [];
  for (const user of users) before.push(await registerQueue(ts, user, options));
  const result = await action();
  if (isApiResponse(result)) assertSuccess(result);
  const includeSubscribers = [true, 'true', 'partial', '"partial"'].includes(options.extra?.include_subscribers as never);
  const out: Event[][] = [];
  for (const [i, user] of users.entries()) {
    // Events are in the queue once the action's transaction has been published, i.e. before its response.
    const events = (await getEvents(ts, user, before[i].queueId, before[i].lastEventId, { dontBlock: true })).filter((e) => e.type !== 'heartbeat');
    const pastSubscriptions = await pastSubscriptionSettings(ts, user, options.capabilities?.notification_settings_null ?? false);
    const applied = applyEvents(before[i].state, events, {
      userId: user.id,
      includeSubscribers,
      pastSubscriptions,
      clientGravatar: options.clientGravatar ?? true,
    });
    const fresh = await registerQueue(ts, user, options);
    try {
      expect(comparableState(applied)).toEqual(comparableState(fresh.state));
    } catch (error) {
      (error as Error).message = `state of user ${user.id} after ${JSON.stringify(events)}\n${(error as Error).message}`;
      throw error;
    }
    await deleteQueue(ts, user, before[i].queueId);
    await deleteQueue(ts, user, fresh.queueId);
    out.push(events);
  }
  return out;
}

/** Events without their queue-specific ids, for comparing what different clients received. */
export const withoutIds = (events: Event[]) => events.map(({ id: _id, ...event }) => event);

/**
 * verifyAction for a change several users all hear about alike (organization-wide features): each
 * gets the same events, and (unless `silent`) at least one. Returns them without ids.
 */
export async function verifySharedAction(
  ts: TestServer,
  users: TestUser[],
  action: () => Promise<ApiResponse | unknown>,
  options: RegisterOptions = {},
  { silent = false } = {},
): Promise<Event[]> {
  const all = await verifyActionFor(ts, users, action, options);
  if (!silent) expect(all[0].length).toBeGreaterThan(0);
  for (const events of all) expect(withoutIds(events)).toEqual(withoutIds(all[0]));
  return withoutIds(all[0]);
}

/**
 * verifyAction for a personal feature: two clients of `owner` hear the same events (at least one),
 * and `other` hears nothing. Returns the events without ids.
 */
export async function verifyPersonalAction(ts: TestServer, owner: TestUser, other: TestUser, action: () => Promise<ApiResponse | unknown>): Promise<Event[]> {
  const [first, second, others] = await verifyActionFor(ts, [owner, owner, other], action);
  expect(first.length).toBeGreaterThan(0);
  expect(second).toEqual(first);
  expect(others).toEqual([]);
  return withoutIds(first);
}

const NOTIFICATION_DEFAULTS: Record<string, string> = {
  desktop_notifications: 'enable_stream_desktop_notifications',
  audible_notifications: 'enable_stream_audible_notifications',
  push_notifications: 'enable_stream_push_notifications',
  email_notifications: 'enable_stream_email_notifications',
  wildcard_mentions_notify: 'wildcard_mentions_notify',
};

/** The user's settings for channels they left (see ReducerContext.pastSubscriptions). */
async function pastSubscriptionSettings(ts: TestServer, user: TestUser, notificationSettingsNull: boolean): Promise<Map<number, State>> {
  const knex = ts.server.deps.knex;
  const rows = await knex('subscriptions').where({ user_id: user.id, active: false });
  const defaults = (await knex('user_settings').where({ user_id: user.id }).first()) ?? {};
  const out = new Map<number, State>();
  for (const row of rows) {
    const settings: State = { color: row.color, is_muted: row.is_muted, in_home_view: !row.is_muted, pin_to_top: row.pin_to_top };
    for (const [setting, fallback] of Object.entries(NOTIFICATION_DEFAULTS)) {
      settings[setting] = row[setting] === null && !notificationSettingsNull ? defaults[fallback] : row[setting];
    }
    out.set(row.stream_id, settings);
  }
  return out;
}

function isApiResponse(value: unknown): value is ApiResponse {
  return typeof value === 'object' && value !== null && 'status' in value && 'body' in value && 'headers' in value;
}

/**
 * Records every delivery for clients published on the server's bus until stopped (events reach the
 * bus only after their transaction commits). Deliveries are copied, so later changes to the
 * published objects do not alter what was recorded.
 */
export function captureEvents(ts: TestServer) {
  const deliveries: Delivery[] = [];
  // Deliveries meant for clients: those for no one (auth_changed, presence_written) are the server's own.
  const forClients = (d: Delivery) => d.userIds.length > 0 || d.publicChannel === true;
  const stop = ts.server.deps.bus.subscribe((batch) => deliveries.push(...structuredClone(batch.filter(forClients))));
  /** Deliveries of one event type (and op), in publish order. */
  const of = (type: string, op?: string): Delivery[] => deliveries.filter((d) => d.event.type === type && (op === undefined || d.event.op === op));
  return {
    deliveries,
    stop,
    clear: () => {
      deliveries.length = 0;
    },
    of,
    /** The events of one type (and op), in publish order. */
    events: (type: string, op?: string): ZulipEvent[] => of(type, op).map((d) => d.event),
    /** Events of a type, with the users they went to. */
    ofType: (type: string) => of(type).map(({ event, userIds }) => ({ event, userIds })),
    /** Events delivered to one user (with that user's own fields, such as a message's flags), in order. */
    for: (userId: number): ZulipEvent[] =>
      deliveries.filter((d) => d.userIds.includes(userId)).map((d) => (d.perUser?.[userId] ? { ...d.event, ...d.perUser[userId] } : d.event)),
    /** Users who received events matching the predicate. */
    recipientsOf: (match: (e: ZulipEvent) => boolean): number[] =>
      [...new Set(deliveries.filter((d) => match(d.event)).flatMap((d) => d.userIds))].sort((a, b) => a - b),
  };
}

/**
 * The options a state slice receives from POST /register (src/core/register/slice.ts RegisterOptions,
 * not the request parameters above), with the given overrides and capabilities declared.
 */
export function registerOptions(overrides: Partial<SliceOptions> = {}, capabilities: Partial<SliceOptions['capabilities']> = {}): SliceOptions {
  return {
    applyMarkdown: false,
    clientGravatar: true,
    includeSubscribers: 'true',
    slimPresence: false,
    presenceHistoryLimitDays: 14,
    narrow: [],
    allPublicStreams: false,
    ...overrides,
    capabilities: { ...NO_CAPABILITIES, ...capabilities },
  };
}
