import { ApiResponse, assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let alice: TestUser;
let webPublic: number;
let publicOnly: number;
let webPublicMessage: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  assertSuccess(await client(ts, ts.owner).patch('/realm', { enable_spectator_access: true }));
  webPublic = await channel('showcase', { is_web_public: true });
  publicOnly = await channel('members-only');
  webPublicMessage = await send(webPublic, 'hello world');
  await send(publicOnly, 'for members');
  await send(webPublic, 'second', 'other topic');
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

async function channel(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [alice.id], ...extra }));
  return assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: name })).stream_id;
}
const send = async (to: number, content: string, topic = 'intro') =>
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to, topic, content })).id as number;

const spectator = () => client(ts, null);
const unauthenticated = (res: ApiResponse) => assertError(res, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
const fetchMessages = (narrow: unknown[], extra: Record<string, unknown> = {}) =>
  spectator().get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow, ...extra });

test('a spectator registers without a queue and sees the settings and web-public channels only', async () => {
  const state = assertSuccess(await spectator().post('/register', { client_gravatar: false }));
  expect(state.queue_id).toBeNull();
  expect(state.realm_enable_spectator_access).toBe(true);
  expect(state.realm_name).toBe('Test Org');
  expect(state.streams.map((s: { stream_id: number }) => s.stream_id)).toEqual([webPublic]);
  expect(state).not.toHaveProperty('realm_users');
  expect(state).not.toHaveProperty('subscriptions');
});

test('client_gravatar and include_subscribers are refused to spectators', async () => {
  assertError(await spectator().post('/register', { client_gravatar: true }), 'BAD_REQUEST', "Invalid 'client_gravatar' parameter for anonymous request");
  assertError(
    await spectator().post('/register', { include_subscribers: true }),
    'BAD_REQUEST',
    "Invalid 'include_subscribers' parameter for anonymous request",
  );
});

test('a spectator reads a web-public channel', async () => {
  const body = assertSuccess(await fetchMessages([{ operator: 'channel', operand: webPublic }]));
  expect(body.messages.map((m: { content: string }) => m.content)).toEqual(['<p>hello world</p>', '<p>second</p>']);
  const topic = assertSuccess(
    await fetchMessages([
      { operator: 'channel', operand: 'showcase' },
      { operator: 'topic', operand: 'intro' },
    ]),
  );
  expect(topic.messages.map((m: { id: number }) => m.id)).toEqual([webPublicMessage]);
  const all = assertSuccess(await fetchMessages([{ operator: 'channels', operand: 'web-public' }]));
  expect(all.messages).toHaveLength(2);
  expect(all.messages.every((m: { stream_id: number }) => m.stream_id === webPublic)).toBe(true);
});

test('everything else is refused to a spectator', async () => {
  assertError(
    await fetchMessages([{ operator: 'channel', operand: publicOnly }]),
    'BAD_NARROW',
    `Invalid narrow operator: unknown web-public channel ${publicOnly}`,
  );
  unauthenticated(await fetchMessages([]));
  unauthenticated(await fetchMessages([{ operator: 'channels', operand: 'public' }]));
  unauthenticated(
    await fetchMessages([
      { operator: 'channel', operand: webPublic },
      { operator: 'is', operand: 'starred' },
    ]),
  );
  unauthenticated(await fetchMessages([{ operator: 'dm', operand: [alice.id] }]));
  unauthenticated(await spectator().get('/messages', { message_ids: [webPublicMessage] }));
  unauthenticated(await spectator().get('/users'));
  unauthenticated(await spectator().get('/streams'));
  unauthenticated(await spectator().get(`/messages/${webPublicMessage}`));
  unauthenticated(await spectator().post('/messages', { type: 'stream', to: webPublic, topic: 'x', content: 'spam' }));
  unauthenticated(await spectator().get('/events', { queue_id: 'x', last_event_id: -1 }));
});

test('without spectator access nothing is public', async () => {
  assertSuccess(await client(ts, ts.owner).patch('/realm', { enable_spectator_access: false }));
  try {
    unauthenticated(await spectator().post('/register', {}));
    unauthenticated(await fetchMessages([{ operator: 'channel', operand: webPublic }]));
  } finally {
    assertSuccess(await client(ts, ts.owner).patch('/realm', { enable_spectator_access: true }));
  }
});

test('accounts are unaffected: register still gets a queue and client_gravatar defaults to true', async () => {
  const state = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: ['realm'] }));
  expect(typeof state.queue_id).toBe('string');
  const body = assertSuccess(
    await client(ts, alice).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: publicOnly }] }),
  );
  expect(body.messages).toHaveLength(1);
});
