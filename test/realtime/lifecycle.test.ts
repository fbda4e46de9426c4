import { assertError, assertSuccess, client } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(120_000);

// A heartbeat every 2 s and queues collected after 1 s idle: longer waits than the timeout.
let ts: TestServer;
let alice: TestUser;
beforeAll(async () => {
  ts = await startTestServer({ PARLEY_HEARTBEAT_SECONDS: '2', PARLEY_QUEUE_TIMEOUT_SECONDS: '1' });
  alice = await makeUser(ts, 400);
});
afterAll(async () => {
  await ts.close();
});

const store = () => ts.server.deps.realtime!.queues.store;

test('a waiting request ends with a heartbeat when nothing happens, and its queue survives the wait', async () => {
  const reg = await registerQueue(ts, alice, { fetchEventTypes: [] });
  // The wait (2 s) outlasts the idle timeout (1 s); the queue is held, not collected.
  expect(await getEvents(ts, alice, reg.queueId, -1)).toEqual([{ type: 'heartbeat', id: 0 }]);
  expect(await getEvents(ts, alice, reg.queueId, 0)).toEqual([{ type: 'heartbeat', id: 1 }]);
});

test('heartbeats reach queues whatever their event_types', async () => {
  const reg = await registerQueue(ts, alice, { fetchEventTypes: [], eventTypes: ['message'] });
  expect(await getEvents(ts, alice, reg.queueId, -1)).toEqual([{ type: 'heartbeat', id: 0 }]);
});

test('an idle queue is collected, after which it is a bad queue id', async () => {
  const reg = await registerQueue(ts, alice, { fetchEventTypes: [] });
  await waitUntil(async () => (await store().descriptor(reg.queueId)) === null);
  const body = assertError(
    await client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 }),
    'BAD_EVENT_QUEUE_ID',
    `Bad event queue ID: ${reg.queueId}`,
  );
  expect(body.queue_id).toBe(reg.queueId);
});

test('a queue asking for a longer lifespan outlives the default timeout', async () => {
  const long = await registerQueue(ts, alice, { fetchEventTypes: [], extra: { queue_lifespan_secs: 3600 } });
  const short = await registerQueue(ts, alice, { fetchEventTypes: [] });
  await waitUntil(async () => (await store().descriptor(short.queueId)) === null);
  expect(await getEvents(ts, alice, long.queueId, -1, { dontBlock: true })).toEqual([]);
});

test('closing the server answers waiting requests', async () => {
  const reg = await registerQueue(ts, alice, { fetchEventTypes: [] });
  const pending = client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 });
  await waitUntil(() => ts.server.deps.realtime!.queues.waitingCount > 0);
  await ts.server.close();
  const body = assertSuccess(await pending);
  expect(body.events).toEqual([{ type: 'heartbeat', id: 0 }]);
});
