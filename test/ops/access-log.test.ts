import { assertSuccess, basicAuth, client, graphql } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { openedSocket } from '../helpers/ws';
import { waitUntil } from '../helpers/wait';
import { configureLog } from '../../src/log';

/**
 * The log as an operator's collector sees it: every line written while a server runs through
 * logins, message sends, searches, GraphQL and a WebSocket, captured and parsed.
 */
const lines: string[] = [];
const records = () => lines.map((line) => JSON.parse(line) as Record<string, any>);

let ts: TestServer;
let alice: TestUser;
const secretContent = 'the launch code is swordfish-7781';
const searchWord = 'needle-9911';

beforeAll(async () => {
  configureLog('info', { write: (line: string) => void lines.push(line) });
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  configureLog('silent');
}, SERVER_HOOK_TIMEOUT);

describe('the log', () => {
  test('one access-log line per REST request with route template, status, duration, user and request id', async () => {
    const res = await client(ts, alice).get('/users/me');
    assertSuccess(res);
    const sent = assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: JSON.stringify([ts.owner.id]), content: secretContent }));
    await client(ts, alice).get(`/messages/${sent.id}`);
    await client(ts, null).get('/no/such/route');

    const access = records().filter((r) => r.msg === 'request');
    const me = access.find((r) => r.route === '/api/v1/users/me');
    expect(me).toEqual({
      level: 30,
      time: expect.any(String),
      pid: process.pid,
      msg: 'request',
      requestId: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-z]+$/),
      method: 'GET',
      route: '/api/v1/users/me',
      status: 200,
      durationMs: expect.any(Number),
      userId: alice.id,
    });
    expect(Number.isNaN(Date.parse(me!.time))).toBe(false);
    // The template, never the path with its ids.
    expect(access.find((r) => r.route === '/api/v1/messages/:message_id')).toMatchObject({ method: 'GET', status: 200, userId: alice.id });
    expect(access.some((r) => r.route === `/api/v1/messages/${sent.id}`)).toBe(false);
    expect(access.find((r) => r.route === '(unmatched)')).toMatchObject({ status: 404, userId: null });
    const ids = access.map((r) => r.requestId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('a request with bad credentials is logged with its status and no user', async () => {
    const res = await fetch(`${ts.url}/api/v1/users/me`, { headers: { authorization: basicAuth({ email: alice.email, apiKey: 'x'.repeat(32) }) } });
    expect(res.status).toBe(401);
    const line = records()
      .filter((r) => r.msg === 'request' && r.status === 401)
      .at(-1);
    expect(line).toMatchObject({ route: '/api/v1/users/me', userId: null });
  });

  test('GraphQL operations are logged by name and type, without variables; websocket connects and disconnects', async () => {
    const res = await graphql(
      ts,
      alice,
      'mutation SendSecret($content: String!) { sendMessage(input: { userIds: [' + ts.owner.id + '], content: $content }) { id } }',
      {
        content: secretContent,
      },
    );
    expect(res.errors).toBeUndefined();
    const operation = records().find((r) => r.msg === 'graphql operation' && r.transport === 'http');
    expect(operation).toMatchObject({ type: 'mutation', operation: 'SendSecret', userId: alice.id, requestId: expect.any(String) });
    const access = records().find((r) => r.msg === 'request' && r.route === '/graphql' && r.requestId === operation!.requestId);
    expect(access).toMatchObject({ method: 'POST', status: 200, userId: alice.id });

    const socket = await openedSocket(ts);
    expect(await socket.init(alice)).toBe(true);
    socket.subscribe('1', 'query Me { me { userId } }');
    await waitUntil(() => socket.messages.some((m) => m.id === '1' && m.type === 'complete'));
    socket.ws.close(1000);
    await waitUntil(() => records().some((r) => r.msg === 'websocket disconnected'));
    const connected = records().find((r) => r.msg === 'websocket connected');
    expect(connected).toMatchObject({ userId: alice.id, connectionId: expect.any(String) });
    expect(records().find((r) => r.msg === 'graphql operation' && r.transport === 'ws')).toMatchObject({
      type: 'query',
      operation: 'Me',
      connectionId: connected!.connectionId,
    });
    expect(records().find((r) => r.msg === 'websocket disconnected')).toMatchObject({ connectionId: connected!.connectionId, code: 1000 });
  });

  test('no line holds a credential, a query string or message content', async () => {
    // A login with a password, a search and a narrow in the query string, an edit.
    const login = await fetch(`${ts.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: alice.email, password: alice.password }).toString(),
    });
    expect(login.status).toBe(200);
    await fetch(`${ts.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: alice.email, password: 'wrong-password-5521' }).toString(),
    });
    const narrow = JSON.stringify([{ operator: 'search', operand: searchWord }]);
    assertSuccess(await client(ts, alice).get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow }));
    const sent = assertSuccess(
      await client(ts, alice).post('/messages', { type: 'direct', to: JSON.stringify([ts.owner.id]), content: `${searchWord} again` }),
    );
    assertSuccess(await client(ts, alice).patch(`/messages/${sent.id}`, { content: `${secretContent} edited` }));

    expect(lines.length).toBeGreaterThan(10);
    const forbidden = [
      alice.apiKey,
      alice.password,
      ts.owner.apiKey,
      ts.owner.password,
      'wrong-password-5521',
      basicAuth(alice).slice('Basic '.length),
      secretContent,
      'swordfish',
      searchWord,
      'anchor=',
      '?',
    ];
    for (const line of lines) {
      for (const secret of forbidden) expect({ line, contains: line.includes(secret) ? secret : null }).toEqual({ line, contains: null });
    }
  });
});
