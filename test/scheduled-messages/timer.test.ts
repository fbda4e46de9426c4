import { assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { subscribe } from '../messages/helpers';

// With a polling interval of an hour, only the timer set from the scheduling events can deliver in time.
jest.setTimeout(60_000);

let ts: TestServer;
let alice: TestUser;
let channelId: number;

beforeAll(async () => {
  ts = await startTestServer({ PARLEY_SCHEDULER_POLL_MS: '3600000' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  channelId = await subscribe(ts, ts.owner, 'timely', [alice]);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const pending = async () => assertSuccess(await client(ts, alice).get('/scheduled_messages')).scheduled_messages as unknown[];
const inSeconds = (s: number) => Math.floor(Date.now() / 1000) + s;

test('a new message wakes the scheduler at its time', async () => {
  const started = Date.now();
  assertSuccess(
    await client(ts, alice).post('/scheduled_messages', {
      type: 'stream',
      to: String(channelId),
      topic: 't',
      content: 'On time',
      scheduled_delivery_timestamp: inSeconds(2),
    }),
  );
  await waitUntil(async () => (await pending()).length === 0, 15_000);
  expect(Date.now() - started).toBeLessThan(15_000);
});

test('a message moved earlier is delivered at its new time', async () => {
  const id = assertSuccess(
    await client(ts, alice).post('/scheduled_messages', {
      type: 'stream',
      to: String(channelId),
      topic: 't',
      content: 'Sooner',
      scheduled_delivery_timestamp: inSeconds(3000),
    }),
  ).scheduled_message_id;
  assertSuccess(await client(ts, alice).patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: inSeconds(2) }));
  await waitUntil(async () => (await pending()).length === 0, 15_000);
  const row = await ts.server.deps.knex('scheduled_messages').where({ id }).first();
  expect(row).toMatchObject({ delivered: true, failed: false });
});
