import { User } from '../../src/core/users/model';
import type { ZulipEvent } from '../../src/realtime/bus';
import type { RegisterOptions, RegisterState } from '../../src/core/register/slice';
import { streamsSlice, subscriptionsSlice } from '../../src/core/channels/state';
import { deliverableWithArchivedChannels, stripDeliveryFlags } from '../../src/core/channels/events';
import { assertSuccess, client } from '../helpers/api';
import { captureEvents, registerOptions } from '../helpers/events';
import type { TestServer, TestUser } from '../helpers/server';

export { captureEvents, registerOptions };

export const ids = (...users: { id: number }[]) => users.map((u) => u.id).sort((a, b) => a - b);

export async function createChannel(ts: TestServer, who: TestUser, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, who).post('/users/me/subscriptions', { subscriptions: [{ name, description: `About ${name}` }], ...extra }));
  const res = assertSuccess(await client(ts, who).get('/get_stream_id', { stream: name }));
  return res.stream_id;
}

export async function fetchChannelState(ts: TestServer, who: { id: number }, options: RegisterOptions): Promise<RegisterState> {
  const user = await User.query(ts.server.deps.knex).findById(who.id).throwIfNotFound();
  return {
    ...(await subscriptionsSlice.fetch(ts.server.deps, user, options)),
    ...(await streamsSlice.fetch(ts.server.deps, user, options)),
  };
}

/** Applies events as an event queue would deliver them to this client. */
export async function applyChannelEvents(ts: TestServer, who: { id: number }, state: RegisterState, events: ZulipEvent[], options: RegisterOptions) {
  const user = await User.query(ts.server.deps.knex).findById(who.id).throwIfNotFound();
  for (const raw of events) {
    if (!deliverableWithArchivedChannels(raw, options.capabilities.archived_channels)) continue;
    const event = stripDeliveryFlags(raw);
    subscriptionsSlice.apply!(state, event, user, options);
    streamsSlice.apply!(state, event, user, options);
  }
  return state;
}

/** Drops fields a snapshot cannot keep exact without subscriber lists. */
export function withoutCounts(state: RegisterState): unknown {
  return JSON.parse(JSON.stringify(state, (key, value) => (key === 'subscriber_count' ? undefined : value)));
}

/**
 * Zulip's verify_action: the state fetched before an action, with the action's events applied,
 * must equal the state fetched afterwards.
 */
export async function verifyAction(
  ts: TestServer,
  who: { id: number },
  action: () => Promise<unknown>,
  options: RegisterOptions = registerOptions(),
): Promise<ZulipEvent[]> {
  const before = await fetchChannelState(ts, who, options);
  const capture = captureEvents(ts);
  try {
    await action();
  } finally {
    capture.stop();
  }
  const events = capture.for(who.id);
  const applied = await applyChannelEvents(ts, who, before, events, options);
  expectSameState(applied, await fetchChannelState(ts, who, options), options);
  return events;
}

/** Without subscriber lists, subscriber counts are as of the snapshot (see core/channels/state.ts). */
export function expectSameState(applied: RegisterState, fresh: RegisterState, options: RegisterOptions): void {
  if (options.includeSubscribers === 'false') expect(withoutCounts(applied)).toEqual(withoutCounts(fresh));
  else expect(applied).toEqual(fresh);
}
