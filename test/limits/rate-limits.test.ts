import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ApiResponse, assertError, assertSuccess, basicAuth, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser, SERVER_HOOK_TIMEOUT } from '../helpers/server';

/**
 * Zulip's rate limits through the real stack, with small limits so the tests stay short: every
 * authenticated request (REST, GraphQL over HTTP, each operation on a GraphQL socket) counts
 * against its user, every other request against its address, and password logins against the
 * username and, when they fail, the address.
 */
const LIMITS = {
  PARLEY_RATE_LIMITING: 'true',
  PARLEY_RATE_LIMIT_API_BY_USER: '60:12',
  PARLEY_RATE_LIMIT_API_BY_IP: '60:8',
  PARLEY_RATE_LIMIT_AUTHENTICATE_BY_IP: '1800:3',
};
const LIMITED = 'API usage exceeded rate limit';
const ADDRESS = '127.0.0.1';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer(LIMITS);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);
// Tests share one address: each starts with its counts cleared.
beforeEach(async () => {
  for (const domain of ['api_by_ip', 'authenticate_by_ip'] as const) await ts.server.deps.rateLimits.clear(domain, ADDRESS);
});

function headersOf(res: ApiResponse) {
  return {
    limit: Number(res.headers.get('x-ratelimit-limit')),
    remaining: Number(res.headers.get('x-ratelimit-remaining')),
    reset: Number(res.headers.get('x-ratelimit-reset')),
  };
}

/** Zulip's 429: the code and message, `retry-after` in the body and the header, the headers at zero. */
function assertLimited(res: ApiResponse, limit: number, windowSeconds: number): void {
  const body = assertError(res, 'RATE_LIMIT_HIT', LIMITED, 429);
  expect(Object.keys(body).sort()).toEqual(['code', 'msg', 'result', 'retry-after']);
  expect(typeof body['retry-after']).toBe('number');
  expect(body['retry-after']).toBeGreaterThan(0);
  expect(body['retry-after']).toBeLessThanOrEqual(windowSeconds);
  expect(Number(res.headers.get('retry-after'))).toBe(body['retry-after']);
  expect(headersOf(res).limit).toBe(limit);
  expect(headersOf(res).remaining).toBe(0);
}

describe('per-user API limit', () => {
  test('every answer carries the headers; past the limit the user gets 429 and others do not', async () => {
    const member = await makeUser(ts);
    const other = await makeUser(ts);
    const now = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= 12; i++) {
      const res = await client(ts, member).get('/users/me');
      assertSuccess(res);
      const headers = headersOf(res);
      expect(headers).toEqual({ limit: 12, remaining: 12 - i, reset: expect.any(Number) });
      expect(headers.reset).toBeGreaterThanOrEqual(now);
      expect(headers.reset).toBeLessThanOrEqual(now + 61);
    }
    const limited = await client(ts, member).get('/users/me');
    assertLimited(limited, 12, 60);
    // Errors and writes count the same; the limit holds for every endpoint.
    assertLimited(await client(ts, member).post('/messages/render', { content: 'hi' }), 12, 60);
    const otherRes = await client(ts, other).get('/users/me');
    assertSuccess(otherRes);
    expect(headersOf(otherRes).remaining).toBe(11);
  });

  test('a refused request changes nothing', async () => {
    const member = await makeUser(ts);
    for (let i = 0; i < 12; i++) assertSuccess(await client(ts, member).get('/users/me'));
    assertLimited(await client(ts, member).patch('/settings', { full_name: 'Renamed While Limited' }), 12, 60);
    const row = await ts.server.deps.knex('users').where({ id: member.id }).first('full_name');
    expect(row.full_name).toBe(member.fullName);
  });

  test('GraphQL requests count against the same limit, and are refused with RATE_LIMIT_HIT', async () => {
    const member = await makeUser(ts);
    for (let i = 0; i < 5; i++) expect((await graphql(ts, member, '{ me { userId } }')).data).toEqual({ me: { userId: member.id } });
    const rest = await client(ts, member).get('/users/me');
    expect(headersOf(rest).remaining).toBe(6);
    for (let i = 0; i < 6; i++) assertSuccess(await client(ts, member).get('/users/me'));
    const res = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(member) },
      body: JSON.stringify({ query: '{ me { userId } }' }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
    const body = (await res.json()) as { errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].message).toBe(LIMITED);
    expect(body.errors[0].extensions).toMatchObject({ code: 'RATE_LIMIT_HIT', 'retry-after': expect.any(Number) });
  });

  test('each operation on a GraphQL socket counts', async () => {
    const member = await makeUser(ts);
    const socket = createClient({
      url: `${ts.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: basicAuth(member) },
      retryAttempts: 0,
    });
    try {
      const run = () =>
        new Promise<{ data?: unknown; errors?: readonly { message: string; extensions?: Record<string, unknown> }[] }>((resolve, reject) => {
          let result: { data?: unknown } = {};
          socket.subscribe(
            { query: '{ me { userId } }' },
            { next: (value) => (result = value as typeof result), error: (errors) => resolve({ errors: errors as never }), complete: () => resolve(result) },
          );
          setTimeout(() => reject(new Error('no answer')), 10_000);
        });
      for (let i = 0; i < 10; i++) expect((await run()).data).toEqual({ me: { userId: member.id } });
      expect(headersOf(await client(ts, member).get('/users/me')).remaining).toBe(1);
      assertSuccess(await client(ts, member).get('/users/me'));
      const refused = await run();
      expect(refused.errors).toHaveLength(1);
      expect(refused.errors![0].message).toBe(LIMITED);
      expect(refused.errors![0].extensions).toMatchObject({ code: 'RATE_LIMIT_HIT' });
    } finally {
      await socket.dispose();
    }
  });
});

describe('per-address limit without credentials', () => {
  test('unauthenticated requests are counted by address, with the headers', async () => {
    for (let i = 1; i <= 8; i++) {
      const res = await client(ts, null).get('/server_settings');
      assertSuccess(res);
      expect(headersOf(res)).toMatchObject({ limit: 8, remaining: 8 - i });
    }
    assertLimited(await client(ts, null).get('/server_settings'), 8, 60);
    // Authenticated requests from the same address are counted by user instead.
    assertSuccess(await client(ts, ts.owner).get('/users/me'));
  });

  test('requests with bad credentials count against the address', async () => {
    const bad = { email: ts.owner.email, apiKey: 'x'.repeat(32) };
    for (let i = 0; i < 8; i++) assertError(await client(ts, bad).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
    assertLimited(await client(ts, bad).get('/users/me'), 8, 60);
    assertLimited(await client(ts, null).get('/server_settings'), 8, 60);
    expect((await graphql(ts, bad, '{ __typename }')).status).toBe(429);
  });

  test('X-Forwarded-For from a peer that is not a trusted proxy changes nothing', async () => {
    for (let i = 0; i < 8; i++) assertSuccess(await client(ts, null).get('/server_settings', {}, { headers: { 'x-forwarded-for': `198.51.100.${i}` } }));
    assertLimited(await client(ts, null).get('/server_settings', {}, { headers: { 'x-forwarded-for': '198.51.100.200' } }), 8, 60);
  });

  test('GraphQL without credentials counts against the address', async () => {
    for (let i = 0; i < 8; i++) expect((await graphql(ts, null, '{ __typename }')).status).toBe(200);
    expect((await graphql(ts, null, '{ __typename }')).status).toBe(429);
  });
});

describe('failed logins', () => {
  const login = (username: string, password: string) => client(ts, null).post('/fetch_api_key', { username, password });
  const FAILED = 'Your username or password is incorrect';

  test('five attempts per username, whatever the address', async () => {
    const member = await makeUser(ts);
    for (let i = 0; i < 5; i++) {
      assertError(await login(member.email, `wrong-${i}`), 'AUTHENTICATION_FAILED', FAILED, 401);
      // Not the address's doing: only the username is limited here.
      await ts.server.deps.rateLimits.clear('authenticate_by_ip', ADDRESS);
    }
    assertLimited(await login(member.email, member.password), 5, 1800);
  });

  test('one address trying many usernames is refused after its failures', async () => {
    const users = await Promise.all([makeUser(ts), makeUser(ts), makeUser(ts), makeUser(ts)]);
    for (const user of users.slice(0, 3)) assertError(await login(user.email, 'not-the-password'), 'AUTHENTICATION_FAILED', FAILED, 401);
    // Even the right password of an untouched account is refused from this address now.
    assertLimited(await login(users[3].email, users[3].password), 3, 1800);
    const viaGraphQL = await graphql(ts, null, 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { userId } }', {
      u: users[3].email,
      p: users[3].password,
    });
    expect(viaGraphQL.errors?.[0].extensions?.code).toBe('RATE_LIMIT_HIT');
  });

  test('successful logins do not count against the address', async () => {
    const member = await makeUser(ts);
    for (let i = 0; i < 5; i++) assertSuccess(await login(member.email, member.password));
  });
});

describe('PARLEY_RATE_LIMITING=false', () => {
  let open: TestServer;
  let member: TestUser;
  beforeAll(async () => {
    open = await startTestServer({ ...LIMITS, PARLEY_RATE_LIMITING: 'false' });
    member = await makeUser(open);
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await open?.close();
  }, SERVER_HOOK_TIMEOUT);

  test('nothing is limited and no limit headers are sent', async () => {
    const answers = await Promise.all(Array.from({ length: 60 }, () => client(open, member).get('/users/me')));
    for (const res of answers) {
      assertSuccess(res);
      expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    }
    for (let i = 0; i < 20; i++) assertSuccess(await client(open, null).get('/server_settings'));
    for (let i = 0; i < 8; i++) await client(open, null).post('/fetch_api_key', { username: member.email, password: 'wrong' });
    assertSuccess(await client(open, null).post('/fetch_api_key', { username: member.email, password: member.password }));
  });
});
