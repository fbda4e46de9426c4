import { assertError, client } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

jest.setTimeout(120_000);

/** A user holds at most 3 queues here; a fourth evicts the longest idle. */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ PARLEY_MAX_QUEUES_PER_USER: '3' });
});
afterAll(async () => {
  await ts.close();
});

/** Waits for the clock to move past the current millisecond, so that the next access is stamped later than the last. */
async function nextMillisecond(): Promise<void> {
  const now = Date.now();
  while (Date.now() <= now) await new Promise((resolve) => setImmediate(resolve));
}

const quiet = async (who: TestUser) => (await registerQueue(ts, who, { fetchEventTypes: [] })).queueId;
const expectGone = async (who: TestUser, queueId: string) =>
  assertError(
    await client(ts, who).get('/events', { queue_id: queueId, last_event_id: -1, dont_block: true }),
    'BAD_EVENT_QUEUE_ID',
    `Bad event queue ID: ${queueId}`,
  );
const ownQueues = async (who: TestUser) => (await ts.server.deps.realtime!.queues.store.queueIdsForUsers(ts.server.deps.realmId, [who.id]))[0];

test('registering past the bound evicts the longest-idle queue, which then answers BAD_EVENT_QUEUE_ID', async () => {
  const alice = await makeUser(ts, 400);
  const bob = await makeUser(ts, 400);
  const [a, b, c] = [await quiet(alice), await quiet(alice), await quiet(alice)];
  const bobs = await quiet(bob);
  await nextMillisecond();
  // Using `a` makes `b` the longest idle.
  expect(await getEvents(ts, alice, a, -1, { dontBlock: true })).toEqual([]);
  await nextMillisecond();
  const d = await quiet(alice);
  await expectGone(alice, b);
  expect((await ownQueues(alice)).sort()).toEqual([a, c, d].sort());
  for (const id of [a, c, d]) expect(await getEvents(ts, alice, id, -1, { dontBlock: true })).toEqual([]);
  // Other users' queues do not count.
  expect(await getEvents(ts, bob, bobs, -1, { dontBlock: true })).toEqual([]);
});

test('queues with a waiting request go last; when all wait, the longest idle one is answered BAD_EVENT_QUEUE_ID', async () => {
  const carol = await makeUser(ts, 400);
  const ids = [await quiet(carol), await quiet(carol), await quiet(carol)];
  const waiting = [];
  for (const id of ids) {
    const before = ts.server.deps.realtime!.queues.waitingCount;
    waiting.push(client(ts, carol).get('/events', { queue_id: id, last_event_id: -1 }));
    await waitUntil(() => ts.server.deps.realtime!.queues.waitingCount > before);
    await nextMillisecond();
  }
  await quiet(carol);
  const first = await waiting[0];
  expect(first.status).toBe(400);
  expect(first.body).toEqual({ result: 'error', msg: `Bad event queue ID: ${ids[0]}`, code: 'BAD_EVENT_QUEUE_ID', queue_id: ids[0] });
  expect((await ownQueues(carol)).includes(ids[1])).toBe(true);
  // The others still wait; deleting their queues answers them.
  for (const id of ids.slice(1)) await client(ts, carol).delete('/events', { queue_id: id });
  await Promise.all(waiting.slice(1));
});
