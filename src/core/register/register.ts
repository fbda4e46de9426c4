import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { isGuestRole } from '../users/roles';
import { errors } from '../../errors';
import { versionFields } from '../../version';
import type { QueueDescriptor } from '../../realtime/descriptor';
import type { NarrowTerm } from '../../realtime/narrow';
import { type EventQueues, MOBILE_QUEUE_LIFESPAN_SECS } from '../../realtime/queues';
import { stateSlices } from './slices';
import { RegisterOptions, RegisterState, StateSlice } from './slice';
import { CAPABILITY_NAMES, ClientCapabilities, NO_CAPABILITIES } from '../../realtime/capabilities';

/** Register parameters after decoding; absent ones are undefined. */
export interface RegisterRequest {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: boolean | 'partial';
  slimPresence: boolean;
  presenceHistoryLimitDays?: number;
  presenceLastUpdateId?: number;
  eventTypes?: string[];
  fetchEventTypes?: string[];
  allPublicStreams?: boolean;
  narrow: NarrowTerm[];
  capabilities?: Partial<ClientCapabilities>;
  /** The older queue_lifespan_secs (0: the server's default); idleQueueTimeout wins over it. */
  queueLifespanSecs: number;
  /** idle_queue_timeout (Zulip's feature level 481): seconds, or "mobile" for the mobile apps' lifetime. */
  idleQueueTimeout?: IdleQueueTimeout;
}

export type IdleQueueTimeout = number | 'mobile';

/** The idle lifetime a request asks for, in seconds (0: the server's default). */
function requestedLifespan(request: RegisterRequest): number {
  if (request.idleQueueTimeout === 'mobile') return MOBILE_QUEUE_LIFESPAN_SECS;
  return request.idleQueueTimeout ?? request.queueLifespanSecs;
}

export const DEFAULT_PRESENCE_HISTORY_DAYS = 14;

export function realtimeOf(deps: AppDeps): EventQueues {
  if (!deps.realtime) throw new Error('event queues are not running');
  return deps.realtime.queues;
}

/** Creates the queue described by a register request; it receives events from now on. */
export async function createQueue(deps: AppDeps, user: User, request: RegisterRequest): Promise<QueueDescriptor> {
  if (request.allPublicStreams && isGuestRole(user.role)) throw errors.badRequest('User not authorized for this query');
  const queues = realtimeOf(deps);
  const descriptor: QueueDescriptor = {
    id: queues.newQueueId(),
    realmId: deps.realmId,
    userId: user.id,
    userEmail: user.delivery_email,
    eventTypes: request.eventTypes ? [...new Set(request.eventTypes)] : null,
    narrow: request.narrow,
    allPublicStreams: request.allPublicStreams ?? false,
    applyMarkdown: request.applyMarkdown,
    clientGravatar: request.clientGravatar,
    slimPresence: request.slimPresence,
    capabilities: { ...NO_CAPABILITIES, ...pickCapabilities(request.capabilities ?? {}) },
    timeoutSecs: queues.clampLifespan(requestedLifespan(request)),
    createdAt: Date.now(),
  };
  await queues.create(descriptor);
  return descriptor;
}

function pickCapabilities(given: Partial<ClientCapabilities>): Partial<ClientCapabilities> {
  const out: Partial<ClientCapabilities> = {};
  for (const name of CAPABILITY_NAMES) if (given[name] !== undefined) out[name] = given[name];
  return out;
}

/** The slices a fetch-type list selects (all of them when there is no list). */
export function selectedSlices(fetchTypes: string[] | null, slices: StateSlice[] = stateSlices): StateSlice[] {
  if (fetchTypes === null) return slices;
  const wanted = new Set(fetchTypes);
  return slices.filter((slice) => slice.fetchTypes.some((type) => wanted.has(type)));
}

function sliceOptions(request: RegisterRequest, allPublicStreams: boolean, capabilities: ClientCapabilities): RegisterOptions {
  return {
    applyMarkdown: request.applyMarkdown,
    clientGravatar: request.clientGravatar,
    includeSubscribers: request.includeSubscribers === 'partial' ? 'partial' : request.includeSubscribers ? 'true' : 'false',
    slimPresence: request.slimPresence,
    presenceHistoryLimitDays: request.presenceHistoryLimitDays ?? DEFAULT_PRESENCE_HISTORY_DAYS,
    presenceLastUpdateId: request.presenceLastUpdateId,
    narrow: request.narrow,
    allPublicStreams,
    capabilities,
    perCall: new Map(),
  };
}

/**
 * The state POST /register returns, without creating a queue: for clients that follow changes over
 * a GraphQL subscription instead (subscribed before asking, so that nothing falls between).
 */
export async function initialState(deps: AppDeps, user: User, request: RegisterRequest): Promise<Record<string, unknown>> {
  if (request.allPublicStreams && isGuestRole(user.role)) throw errors.badRequest('User not authorized for this query');
  const capabilities = { ...NO_CAPABILITIES, ...pickCapabilities(request.capabilities ?? {}) };
  const options = sliceOptions(request, request.allPublicStreams ?? false, capabilities);
  const slices = selectedSlices(request.fetchEventTypes ?? request.eventTypes ?? null);
  const state: RegisterState = {};
  for (const slice of slices) Object.assign(state, await slice.fetch(deps, user, options));
  for (const slice of slices) await slice.finalize?.(deps, state, user, options);
  const versions = versionFields();
  return { ...versions, zulip_merge_base: versions.zulip_version, ...state };
}

/**
 * POST /register. The queue is created first, so it already collects events while the state is
 * read; events that arrived meanwhile are then applied to the state (each slice's apply tolerates
 * an event the state already reflects) and last_event_id points past them. The client therefore
 * neither misses an event nor applies one twice. Last, slices present capability-dependent forms.
 */
export async function register(deps: AppDeps, user: User, request: RegisterRequest): Promise<Record<string, unknown>> {
  const descriptor = await createQueue(deps, user, request);
  const fetchTypes = request.fetchEventTypes ?? request.eventTypes ?? null;
  const options = sliceOptions(request, descriptor.allPublicStreams, descriptor.capabilities);
  const slices = selectedSlices(fetchTypes);
  const state: RegisterState = {};
  const queues = realtimeOf(deps);
  try {
    for (const slice of slices) Object.assign(state, await slice.fetch(deps, user, options));
  } catch (error) {
    // The client gets an error, not a queue id: the queue would only wait to be collected.
    await queues.store.delete(descriptor.id).catch(() => {});
    throw error;
  }

  const arrived = await queues.store.peek(descriptor.id);
  for (const event of arrived) {
    if (fetchTypes !== null && !fetchTypes.includes(event.type)) continue;
    for (const slice of slices) slice.apply?.(state, event, user, options);
  }
  for (const slice of slices) await slice.finalize?.(deps, state, user, options);
  const versions = versionFields();
  return {
    queue_id: descriptor.id,
    last_event_id: arrived.length > 0 ? arrived[arrived.length - 1].id : -1,
    // How long the queue outlives its client's silence: what was asked, within the server's bounds.
    idle_queue_timeout_secs: descriptor.timeoutSecs,
    ...versions,
    zulip_merge_base: versions.zulip_version,
    ...state,
  };
}
