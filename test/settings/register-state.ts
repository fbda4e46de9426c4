import { User } from '../../src/core/users/model';
import type { ZulipEvent } from '../../src/realtime/bus';
import { stateSlices } from '../../src/core/register/slices';
import type { RegisterOptions, RegisterState } from '../../src/core/register/slice';
import { registerOptions as sliceOptions } from '../helpers/events';
import type { TestServer } from '../helpers/server';

/** Slice options as these tests register them: without gravatars or subscriber lists. */
export function registerOptions(overrides: Partial<RegisterOptions> = {}, capabilities: Partial<RegisterOptions['capabilities']> = {}): RegisterOptions {
  return sliceOptions({ clientGravatar: false, includeSubscribers: 'false', ...overrides }, capabilities);
}

async function account(ts: TestServer, userId: number): Promise<User> {
  return User.query(ts.server.deps.knex).findById(userId).throwIfNotFound();
}

/** POST /register's state, assembled from the slices as the register endpoint does. */
export async function registerState(ts: TestServer, userId: number, fetchTypes: string[], options: RegisterOptions): Promise<RegisterState> {
  const me = await account(ts, userId);
  const state: RegisterState = {};
  for (const slice of stateSlices) {
    if (slice.fetchTypes.some((t) => fetchTypes.includes(t))) Object.assign(state, await slice.fetch(ts.server.deps, me, options));
  }
  return state;
}

/**
 * Applies events to a snapshot with the reducers of the slices that built it, twice: applying must
 * be idempotent.
 */
export async function applyEvents(
  ts: TestServer,
  userId: number,
  fetchTypes: string[],
  state: RegisterState,
  events: ZulipEvent[],
  options: RegisterOptions,
): Promise<void> {
  const me = await account(ts, userId);
  const slices = stateSlices.filter((slice) => slice.fetchTypes.some((t) => fetchTypes.includes(t)));
  for (let round = 0; round < 2; round++) {
    for (const event of events) {
      for (const slice of slices) slice.apply?.(state, structuredClone(event), me, options);
    }
  }
}
