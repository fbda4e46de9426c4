import { Knex } from 'knex';
import { assertSuccess, client } from '../helpers/api';
import { RegisterOptions, verifyAction, verifyActionFor } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

/**
 * Presence events checked against the register state: each client applies what it receives to what
 * it registered with and must reach what a fresh register returns, in each combination of the
 * modern/legacy event (simplified_presence_events) and state (slim_presence).
 */
let ts: TestServer;
let knex: Knex;

beforeAll(async () => {
  ts = await startTestServer();
  knex = ts.server.deps.knex;
}, 120_000);
afterAll(async () => {
  await ts.close();
});

const MODERN: RegisterOptions = { capabilities: { simplified_presence_events: true }, extra: { slim_presence: true } };
const LEGACY: RegisterOptions = {};
const SLIM_LEGACY_EVENTS: RegisterOptions = { extra: { slim_presence: true } };

const clients: [string, RegisterOptions][] = [
  ['modern events, modern state', MODERN],
  ['legacy events, legacy state', LEGACY],
  ['legacy events without address, modern state (slim_presence)', SLIM_LEGACY_EVENTS],
];

const report = (user: TestUser, params: Record<string, unknown> = {}) =>
  client(ts, user).post('/users/me/presence', { status: 'active', ping_only: true, ...params });

/** Moves a user's stored presence into the past, as if time had passed. */
const age = (user: TestUser, seconds: number) =>
  knex('user_presence')
    .where({ user_id: user.id })
    .update({
      last_active_time: knex.raw(`last_active_time - interval '${seconds} seconds'`),
      last_connected_time: knex.raw(`last_connected_time - interval '${seconds} seconds'`),
    });

describe.each(clients)('%s', (_label, options) => {
  test("a user's first report reaches everyone", async () => {
    const watcher = await makeUser(ts);
    const newcomer = await makeUser(ts);
    const events = await verifyAction(ts, watcher, () => report(newcomer), options);
    expect(events.map((e) => e.type)).toEqual(['presence']);
  });

  test('coming back online after a while reaches everyone', async () => {
    const watcher = await makeUser(ts);
    const returning = await makeUser(ts);
    assertSuccess(await report(returning));
    await age(returning, 3600);
    const events = await verifyAction(ts, watcher, () => report(returning), options);
    expect(events).toHaveLength(1);
    if (options === MODERN) expect(Object.keys(events[0])).toEqual(['type', 'presences', 'id']);
    else if (options === LEGACY) expect(events[0].email).toBe(returning.email);
    else expect(events[0]).not.toHaveProperty('email');
  });

  test('going invisible shows the user offline; coming back shows them active', async () => {
    const watcher = await makeUser(ts);
    const shy = await makeUser(ts);
    assertSuccess(await report(shy));
    await verifyAction(ts, watcher, () => client(ts, shy).patch('/settings', { presence_enabled: false }), options);
    // Reports while invisible change nothing anyone sees.
    assertSuccess(await report(shy));
    await verifyAction(ts, watcher, () => client(ts, shy).patch('/settings', { presence_enabled: true }), options);
  });

  test('the invisible user and everyone else, watching together', async () => {
    const shy = await makeUser(ts);
    const others = [await makeUser(ts), await makeUser(ts, 200)];
    assertSuccess(await report(shy));
    // Their settings are read from the user_settings object (the setting's own event is not under test).
    const withSettingsObject = { ...options, capabilities: { ...options.capabilities, user_settings_object: true } };
    const seen = await verifyActionFor(ts, [shy, ...others], () => client(ts, shy).patch('/settings', { presence_enabled: false }), withSettingsObject);
    for (const events of seen) expect(events.filter((e) => e.type === 'presence')).toHaveLength(1);
  });
});

test.each([
  ['modern', MODERN],
  ['legacy', LEGACY],
])('%s clients: an account older than the offline window going invisible', async (_label, options) => {
  const watcher = await makeUser(ts);
  const shy = await makeUser(ts);
  await knex('users')
    .where({ id: shy.id })
    .update({ date_joined: new Date(Date.now() - 30 * 24 * 3600 * 1000) });
  assertSuccess(await report(shy));
  await verifyAction(ts, watcher, () => client(ts, shy).patch('/settings', { presence_enabled: false }), options);
  await verifyAction(ts, watcher, () => client(ts, shy).patch('/settings', { presence_enabled: true }), options);
});

test('a report inside the same minute sends nothing and changes no register state', async () => {
  const watcher = await makeUser(ts);
  const busy = await makeUser(ts);
  assertSuccess(await report(busy));
  const before = assertSuccess(await client(ts, watcher).post('/register', { slim_presence: true, fetch_event_types: ['presence'] }));
  assertSuccess(await report(busy));
  assertSuccess(await report(busy, { status: 'idle' }));
  const after = assertSuccess(await client(ts, watcher).post('/register', { slim_presence: true, fetch_event_types: ['presence'] }));
  expect(after.presences).toEqual(before.presences);
  expect(after.presence_last_update_id).toBe(before.presence_last_update_id);
});
