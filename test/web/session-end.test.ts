import { setPassword } from '../../src/core/users/actions';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { RawSocket, resultsFor } from '../helpers/ws';
import { BrowserSession, errorOf, logIn, logOut, NOT_LOGGED_IN, sessionGraphQL, sessionSocket } from './browser-session';

/**
 * Sessions end everywhere: logging out, deactivation and a password change delete them, and the
 * WebSockets they opened close with 4403 without receiving anything published after. Changing
 * one's own password keeps the session that changed it.
 */
let ts: TestServer;
let sender: TestUser;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  ts = await startTestServer();
  sender = await makeUser(ts, 400, { fullName: 'Sam Sender' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const ME = 'query { me { id } }';

/** A cookie socket of the session subscribed to its user's messages, listening. */
async function listening(session: BrowserSession): Promise<RawSocket> {
  const socket = await sessionSocket(ts, session);
  if (!('ws' in socket)) throw new Error(`upgrade refused with ${socket.status}`);
  sockets.push(socket);
  expect(await socket.init()).toBe(true);
  const listeners = ts.server.deps.bus.listenerCount ?? 0;
  socket.subscribe('m', 'subscription { messages { message { content } } }');
  await waitUntil(() => (ts.server.deps.bus.listenerCount ?? 0) > listeners);
  return socket;
}

const dm = (to: TestUser, content: string) => client(ts, sender).post('/messages', { type: 'private', to: JSON.stringify([to.id]), content });
const contents = (socket: RawSocket) => resultsFor(socket, 'm').map((p) => p.data.messages.message.content);
const works = async (session: BrowserSession, who: TestUser) => {
  const res = await sessionGraphQL(ts, session, ME);
  expect(res.errors).toBeUndefined();
  expect(res.data?.me.id).toBe(String(who.id));
};
const sessionsOf = async (who: TestUser) => (await ts.server.deps.knex('web_sessions').where({ user_id: who.id })).length;

/** The socket is closed with 4403, received nothing sent after `end`, and the cookie opens nothing over HTTP. */
async function expectEnded(who: TestUser, session: BrowserSession, socket: RawSocket, delivered: string[]): Promise<void> {
  await dm(who, 'after');
  expect(await socket.closed()).toBe(4403);
  expect(contents(socket)).toEqual(delivered);
  expect(errorOf(await sessionGraphQL(ts, session, ME))).toEqual(NOT_LOGGED_IN);
  const again = await sessionSocket(ts, session);
  if (!('ws' in again)) throw new Error('upgrade refused');
  sockets.push(again);
  expect(await again.init()).toBe(false);
  expect(await again.closed()).toBe(4403);
}

test('logging out closes the session’s sockets and ends the cookie; other sessions go on', async () => {
  const alice = await makeUser(ts, 400);
  const leaving = await logIn(ts, alice);
  const staying = await logIn(ts, alice);
  const socket = await listening(leaving);
  const other = await listening(staying);
  assertSuccess(await dm(alice, 'before'));
  await waitUntil(() => contents(socket).length === 1 && contents(other).length === 1);

  await logOut(ts, leaving);
  await expectEnded(alice, leaving, socket, ['<p>before</p>']);
  // The other session, and its socket, received what was sent after.
  await waitUntil(() => contents(other).length === 2);
  expect(other.closeCode).toBeNull();
  await works(staying, alice);
  expect(await sessionsOf(alice)).toBe(1);
});

test('deactivation ends every session of the account', async () => {
  const bob = await makeUser(ts, 400);
  const session = await logIn(ts, bob);
  const socket = await listening(session);
  await works(session, bob);
  assertSuccess(await client(ts, ts.owner).delete(`/users/${bob.id}`));
  expect(await sessionsOf(bob)).toBe(0);
  // Messages to a deactivated account are refused; nothing reaches the socket either way.
  await expectEnded(bob, session, socket, []);
});

test('changing one’s password through a session ends the others but keeps that one', async () => {
  const carol = await makeUser(ts, 400);
  const changer = await logIn(ts, carol);
  const elsewhere = await logIn(ts, carol);
  const changerSocket = await listening(changer);
  const elsewhereSocket = await listening(elsewhere);

  const res = await sessionGraphQL(
    ts,
    changer,
    'mutation($old: String!, $new: String!) { updateSettings(input: {oldPassword: $old, newPassword: $new}) { timezone } }',
    {
      variables: { old: carol.password, new: 'a much longer passphrase 4 carol' },
    },
  );
  expect(res.errors).toBeUndefined();
  carol.password = 'a much longer passphrase 4 carol';

  await expectEnded(carol, elsewhere, elsewhereSocket, []);
  // The changer's session and socket carry on: the message sent after reached it.
  await waitUntil(() => contents(changerSocket).length === 1);
  expect(contents(changerSocket)).toEqual(['<p>after</p>']);
  expect(changerSocket.closeCode).toBeNull();
  await works(changer, carol);
  expect(await sessionsOf(carol)).toBe(1);
  // The API key stays, as in Zulip.
  assertSuccess(await client(ts, carol).get('/users/me'));
});

test('changing the password with the API key (PATCH /settings) ends every session', async () => {
  const dave = await makeUser(ts, 400);
  const session = await logIn(ts, dave);
  const socket = await listening(session);
  assertSuccess(await client(ts, dave).patch('/settings', { old_password: dave.password, new_password: 'another long passphrase 4 dave' }));
  expect(await sessionsOf(dave)).toBe(0);
  await expectEnded(dave, session, socket, []);
});

test('a password set by the operator ends every session', async () => {
  const erin = await makeUser(ts, 400);
  const session = await logIn(ts, erin);
  const socket = await listening(session);
  await setPassword(ts.server.deps, erin.id, 'operator chosen passphrase 4 erin');
  await expectEnded(erin, session, socket, []);
});

test('a session’s socket stays open through changes that leave the session valid', async () => {
  const frank = await makeUser(ts, 400);
  const session = await logIn(ts, frank);
  const socket = await listening(session);
  // A new API key (a login elsewhere) publishes auth_changed: the socket is checked again and passes.
  assertSuccess(await client(ts, frank).post('/users/me/api_key/regenerate'));
  assertSuccess(await dm(frank, 'still here'));
  await waitUntil(() => contents(socket).length === 1);
  expect(socket.closeCode).toBeNull();
});
