import { assertSuccess, basicAuth, client, graphql } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { RawSocket, resultsFor } from '../helpers/ws';
import { BrowserSession, CSRF_FAILED, cookieHeader, errorOf, logIn, NOT_LOGGED_IN, originOf, sessionGraphQL, sessionSocket } from './browser-session';

/**
 * The web app's session over GraphQL (HTTP and WebSocket): the `sessionid` cookie from /login/,
 * with the CSRF token in `X-CSRFToken` on every POST, and for sockets only from the server's own
 * origin. It grants what the user's API key grants, no more.
 */
const EXTERNAL_ORIGIN = 'https://chat.example.test';

let ts: TestServer;
let member: TestUser;
let sender: TestUser;
let session: BrowserSession;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  // The external URL names another host than the one the tests connect to (127.0.0.1:PORT).
  ts = await startTestServer({ PARLEY_EXTERNAL_URL: EXTERNAL_ORIGIN });
  member = await makeUser(ts, 400, { fullName: 'Mona Member' });
  sender = await makeUser(ts, 400, { fullName: 'Sam Sender' });
  session = await logIn(ts, member);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  for (const socket of sockets) socket.ws.terminate();
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const ME = 'query { me { id fullName } }';
const alertWords = async (who: TestUser): Promise<string[]> => assertSuccess(await client(ts, who).get('/users/me/alert_words')).alert_words;

describe('GraphQL over HTTP with the session cookie', () => {
  test('with the CSRF token, a query runs as the session’s user', async () => {
    const res = await sessionGraphQL(ts, session, ME);
    expect(res.status).toBe(200);
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ me: { id: String(member.id), fullName: 'Mona Member' } });
  });

  test('without the token, or with another one, it is refused with 403 CSRF_FAILED, queries too', async () => {
    expect(errorOf(await sessionGraphQL(ts, session, ME, { csrf: null }))).toEqual(CSRF_FAILED);
    expect(errorOf(await sessionGraphQL(ts, session, ME, { csrf: 'x'.repeat(session.csrftoken.length) }))).toEqual(CSRF_FAILED);
    expect(errorOf(await sessionGraphQL(ts, session, ME, { csrf: session.csrftoken.slice(1) }))).toEqual(CSRF_FAILED);
    // The header must match the cookie: a token sent without its cookie proves nothing.
    expect(errorOf(await sessionGraphQL(ts, { sessionid: session.sessionid }, ME, { csrf: session.csrftoken }))).toEqual(CSRF_FAILED);
  });

  test('a mutation without the token changes nothing; with it, it runs', async () => {
    const mutation = 'mutation($words: [String!]!) { addAlertWords(alertWords: $words) }';
    const refused = await sessionGraphQL(ts, session, mutation, { variables: { words: ['forged'] }, csrf: null });
    expect(errorOf(refused)).toEqual(CSRF_FAILED);
    expect(refused.data).toBeNull();
    expect(await alertWords(member)).not.toContain('forged');

    const done = await sessionGraphQL(ts, session, mutation, { variables: { words: ['genuine'] } });
    expect(done.errors).toBeUndefined();
    expect(await alertWords(member)).toContain('genuine');
  });

  test('an Authorization header wins over the cookie and needs no token', async () => {
    const res = await sessionGraphQL(ts, session, ME, { csrf: null, headers: { authorization: basicAuth(sender) } });
    expect(res.errors).toBeUndefined();
    expect(res.data?.me.id).toBe(String(sender.id));
  });

  test('GET never authenticates with the cookie', async () => {
    const url = `${ts.url}/graphql?query=${encodeURIComponent(ME)}`;
    const headers = { cookie: cookieHeader(session), 'x-csrftoken': session.csrftoken, 'apollo-require-preflight': 'true' };
    const res = await fetch(url, { headers });
    const body = (await res.json()) as { data: unknown; errors: { extensions: { code: string } }[] };
    expect(body.data).toBeNull();
    const anonymous = await graphql(ts, null, ME);
    expect(body.errors.map((e) => e.extensions.code)).toEqual(anonymous.errors!.map((e) => e.extensions!.code));
    expect(anonymous.errors![0].extensions!.code).toBe('UNAUTHORIZED');
  });

  test('a cookie naming no session is not logged in', async () => {
    const stale = { sessionid: 'A'.repeat(43), csrftoken: session.csrftoken };
    expect(errorOf(await sessionGraphQL(ts, stale, ME))).toEqual(NOT_LOGGED_IN);
    expect(errorOf(await sessionGraphQL(ts, { ...stale, sessionid: 'junk' }, ME))).toEqual(NOT_LOGGED_IN);
  });

  test('the session grants what the API key grants: a member cannot change the organization', async () => {
    const mutation = 'mutation { updateRealmSettings(settings: {name: "Taken over"}) { changed } }';
    const withKey = await graphql(ts, member, mutation);
    const withSession = await sessionGraphQL(ts, session, mutation);
    expect(withKey.errors).toHaveLength(1);
    expect(withKey.errors![0].message).toBe('Must be an organization administrator');
    expect({ status: withSession.status, data: withSession.data, errors: withSession.errors }).toEqual({
      status: withKey.status,
      data: withKey.data,
      errors: withKey.errors,
    });
    // Nor does the cookie open the REST API, which stays with Basic credentials.
    const rest = await fetch(`${ts.url}/api/v1/users/me`, { headers: { cookie: cookieHeader(session), 'x-csrftoken': session.csrftoken } });
    expect(rest.status).toBe(401);
  });
});

describe('GraphQL over WebSocket with the session cookie', () => {
  const opened = async (origin: string | null, who: Partial<BrowserSession> = session): Promise<RawSocket> => {
    const socket = await sessionSocket(ts, who, origin);
    if (!('ws' in socket)) throw new Error(`upgrade refused with ${socket.status}`);
    sockets.push(socket);
    return socket;
  };

  /** Subscribes to the user's messages and waits until the subscription listens on the bus. */
  const listen = async (socket: RawSocket): Promise<void> => {
    const listeners = ts.server.deps.bus.listenerCount ?? 0;
    socket.subscribe('m', 'subscription { messages { message { content senderId } } }');
    await waitUntil(() => (ts.server.deps.bus.listenerCount ?? 0) > listeners);
  };

  test('from the page’s own origin (the host it reached) it opens and receives events', async () => {
    const socket = await opened(originOf(ts));
    expect(await socket.init()).toBe(true);
    await listen(socket);
    assertSuccess(await client(ts, sender).post('/messages', { type: 'private', to: JSON.stringify([member.id]), content: 'hello socket' }));
    await waitUntil(() => resultsFor(socket, 'm').length === 1);
    expect(resultsFor(socket, 'm')[0].data.messages.message).toEqual({ content: '<p>hello socket</p>', senderId: sender.id });
  });

  test('from the external URL’s origin it opens too', async () => {
    const socket = await opened(EXTERNAL_ORIGIN);
    expect(await socket.init()).toBe(true);
  });

  test('another site’s page, another port, or no Origin at all: closed with 4403', async () => {
    const port = new URL(ts.url).port;
    for (const origin of ['https://evil.example', `http://127.0.0.1:${Number(port) + 1}`, 'http://chat.example.test', 'null', null]) {
      const socket = await opened(origin);
      expect(await socket.init()).toBe(false);
      expect(await socket.closed()).toBe(4403);
    }
  });

  test('own origin without a session, or with one that does not exist: closed with 4403', async () => {
    for (const who of [{}, { sessionid: 'B'.repeat(43) }]) {
      const socket = await opened(originOf(ts), who);
      expect(await socket.init()).toBe(false);
      expect(await socket.closed()).toBe(4403);
    }
  });

  test('credentials in connection_init win over the cookie, whatever the origin', async () => {
    const socket = await opened('https://evil.example');
    expect(await socket.init(sender)).toBe(true);
    socket.send({ id: 'q', type: 'subscribe', payload: { query: ME } });
    await waitUntil(() => resultsFor(socket, 'q').length === 1);
    expect(resultsFor(socket, 'q')[0].data.me.id).toBe(String(sender.id));
  });

  test('a member’s socket cannot run an administrator’s mutation either', async () => {
    const socket = await opened(originOf(ts));
    expect(await socket.init()).toBe(true);
    socket.send({ id: 'a', type: 'subscribe', payload: { query: 'mutation { updateRealmSettings(settings: {name: "Taken over"}) { changed } }' } });
    await waitUntil(() => socket.messages.some((m) => m.id === 'a' && (m.type === 'next' || m.type === 'error')));
    const reply = socket.messages.find((m) => m.id === 'a');
    const withKey = await graphql(ts, member, 'mutation { updateRealmSettings(settings: {name: "Taken over"}) { changed } }');
    expect(reply.payload.errors.map((e: any) => [e.message, e.extensions.code])).toEqual(withKey.errors!.map((e) => [e.message, e.extensions!.code]));
  });
});
