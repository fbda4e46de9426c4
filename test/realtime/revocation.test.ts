import type { User } from '../../src/core/users/model';
import { DeliveryGate } from '../../src/realtime/delivery-gate';
import { eventStream, streamDescriptor } from '../../src/realtime/stream';
import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { openedSocket, RawSocket, resultsFor } from '../helpers/ws';

jest.setTimeout(120_000);

/**
 * A GraphQL WebSocket lives as long as the credentials it was opened with: revoking them closes it
 * (4403), and nothing published after the revocation reaches it.
 */
let ts: TestServer;
let sender: TestUser;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  ts = await startTestServer();
  sender = await makeUser(ts, 400);
});
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await ts.close();
});

/** A socket of `who` subscribed to their messages, ready to receive. */
async function listening(who: TestUser): Promise<RawSocket> {
  const socket = await openedSocket(ts);
  sockets.push(socket);
  expect(await socket.init(who)).toBe(true);
  const listeners = ts.server.deps.bus.listenerCount ?? 0;
  socket.subscribe('m', 'subscription { messages { message { content } } }');
  await waitUntil(() => (ts.server.deps.bus.listenerCount ?? 0) > listeners);
  return socket;
}

const dm = async (to: TestUser, content: string) =>
  assertSuccess(await client(ts, sender).post('/messages', { type: 'private', to: JSON.stringify([to.id]), content }));
const contents = (socket: RawSocket) => resultsFor(socket, 'm').map((p) => p.data.messages.message.content);

/** Sends a message right after `revoke` and checks the socket closed with 4403 without receiving it. */
async function expectRevoked(who: TestUser, revoke: () => Promise<void>): Promise<void> {
  const socket = await listening(who);
  await dm(who, 'before');
  await waitUntil(() => contents(socket).length === 1);
  await revoke();
  // Refused when the account is deactivated; delivered to nobody else's sockets otherwise.
  await client(ts, sender).post('/messages', { type: 'private', to: JSON.stringify([who.id]), content: 'after' });
  expect(await socket.closed()).toBe(4403);
  expect(contents(socket)).toEqual(['<p>before</p>']);
}

test('regenerating the API key closes sockets opened with the old one', async () => {
  const alice = await makeUser(ts, 400);
  await expectRevoked(alice, async () => {
    const { api_key } = assertSuccess(await client(ts, alice).post('/users/me/api_key/regenerate'));
    alice.apiKey = api_key;
  });
  // The new key opens a socket that receives.
  const fresh = await listening(alice);
  await dm(alice, 'new key');
  await waitUntil(() => contents(fresh).length === 1);
});

test('deactivation closes the account’s sockets', async () => {
  const bob = await makeUser(ts, 400);
  await expectRevoked(bob, async () => {
    assertSuccess(await client(ts, ts.owner).delete(`/users/${bob.id}`));
  });
  assertError(await client(ts, bob).get('/users/me'), 'UNAUTHORIZED', 'Account is deactivated', 401);
});

test('a role that sees less closes the sockets; one that sees more keeps them', async () => {
  const carol = await makeUser(ts, 400);
  await expectRevoked(carol, async () => {
    assertSuccess(await client(ts, ts.owner).patch(`/users/${carol.id}`, { role: 600 }));
  });
  const dave = await makeUser(ts, 400);
  const socket = await listening(dave);
  assertSuccess(await client(ts, ts.owner).patch(`/users/${dave.id}`, { role: 200 }));
  await dm(dave, 'still here');
  await waitUntil(() => contents(socket).length === 1);
  expect(socket.closeCode).toBeNull();
});

test('logging in elsewhere (a new key) leaves the open sockets alone', async () => {
  const erin = await makeUser(ts, 400);
  const socket = await listening(erin);
  assertSuccess(await client(ts, null).post('/fetch_api_key', { username: erin.email, password: erin.password }));
  await dm(erin, 'after login');
  // Delivered, so any recheck the login brought passed: a socket it ended receives nothing published after.
  await waitUntil(() => contents(socket).length === 1);
  expect(socket.closeCode).toBeNull();
});

test('a held gate keeps events from a stream until it is released', async () => {
  const { deps } = ts.server;
  const gate = new DeliveryGate();
  const user = (await deps.knex('users').where({ id: sender.id }).first()) as User;
  const stream = eventStream(deps, streamDescriptor(deps, user, { eventTypes: ['custom'], narrow: [], allPublicStreams: false }), gate);
  gate.hold();
  await deps.bus.publish([{ realmId: deps.realmId, userIds: [sender.id], event: { type: 'custom', n: 1 } }]);
  let received: unknown = null;
  void stream.next().then((r) => (received = r.value));
  // The event is pending already: without the gate, the promise chain above would have run by the
  // next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  expect(received).toBeNull();
  gate.release();
  await waitUntil(() => received !== null);
  expect(received).toEqual({ type: 'custom', n: 1, id: 0 });
  await stream.return!();
});
