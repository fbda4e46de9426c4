import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, SERVER_HOOK_TIMEOUT } from '../helpers/server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

/** A raw request to /api/v1 with exactly the Authorization header given (or none). */
async function rawGet(path: string, authorization?: string) {
  const headers: Record<string, string> = {};
  if (authorization !== undefined) headers.authorization = authorization;
  const res = await fetch(`${ts.url}/api/v1${path}`, { headers });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('requests without credentials', () => {
  test('get 401 UNAUTHORIZED naming the Basic scheme', async () => {
    const res = await rawGet('/users/me');
    assertError(res, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  test.each([
    ['GET', '/users'],
    ['GET', '/users/1'],
    ['POST', '/users'],
    ['PATCH', '/users/1'],
    ['DELETE', '/users/1'],
    ['POST', '/users/1/reactivate'],
    ['POST', '/users/me/api_key/regenerate'],
  ])('are refused on %s %s', async (method, path) => {
    const res = await fetch(`${ts.url}/api/v1${path}`, { method });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('UNAUTHORIZED');
  });

  test('are accepted on GET /server_settings', async () => {
    const body = assertSuccess(await rawGet('/server_settings'));
    expect(body.realm_name).toBe('Test Org');
    expect(body.authentication_methods.password).toBe(true);
  });

  test('are accepted on POST /fetch_api_key', async () => {
    const res = await client(ts, null).post('/fetch_api_key', { username: ts.owner.email, password: ts.owner.password });
    expect(assertSuccess(res).user_id).toBe(ts.owner.id);
  });
});

describe('malformed Authorization headers', () => {
  test('a scheme other than Basic is a 400', async () => {
    const res = await rawGet('/users/me', 'Bearer abcdef');
    assertError(res, 'BAD_REQUEST', 'This endpoint requires HTTP basic authentication.', 400);
  });

  test('Basic credentials without a colon are a 401', async () => {
    const res = await rawGet('/users/me', basic('no-colon-here'));
    assertError(res, 'UNAUTHORIZED', 'Invalid authorization header for basic auth', 401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  });

  test('the scheme name is case-insensitive', async () => {
    const res = await rawGet('/users/me', `basic ${Buffer.from(`${ts.owner.email}:${ts.owner.apiKey}`).toString('base64')}`);
    expect(assertSuccess(res).user_id).toBe(ts.owner.id);
  });
});

describe('API keys', () => {
  test('a key of the wrong shape is "Malformed API key"', async () => {
    for (const key of ['short', 'x'.repeat(33), `${'a'.repeat(31)}!`]) {
      const res = await rawGet('/users/me', basic(`${ts.owner.email}:${key}`));
      assertError(res, 'UNAUTHORIZED', 'Malformed API key', 401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    }
  });

  test('an unknown key is "Invalid API key"', async () => {
    const res = await rawGet('/users/me', basic(`${ts.owner.email}:${'A'.repeat(32)}`));
    assertError(res, 'UNAUTHORIZED', 'Invalid API key', 401);
  });

  test("another user's key with my email is refused", async () => {
    const other = await makeUser(ts);
    const res = await client(ts, { email: ts.owner.email, apiKey: other.apiKey }).get('/users/me');
    assertError(res, 'UNAUTHORIZED', 'Invalid API key', 401);
  });

  test('the email is compared case-insensitively and surrounding spaces are ignored', async () => {
    const res = await client(ts, { email: ` ${ts.owner.email.toUpperCase()} `, apiKey: ` ${ts.owner.apiKey} ` }).get('/users/me');
    expect(assertSuccess(res).user_id).toBe(ts.owner.id);
  });

  test('the placeholder address authenticates as well', async () => {
    const member = await makeUser(ts);
    // Nobody may see this address, so others are shown the placeholder.
    await ts.server.deps.knex('users').where({ id: member.id }).update({ email_address_visibility: 4 });
    const shown = assertSuccess(await client(ts, ts.owner).get(`/users/${member.id}`)).user;
    expect(shown.email).toMatch(new RegExp(`^user${member.id}@`));
    const res = await client(ts, { email: shown.email, apiKey: member.apiKey }).get('/users/me');
    expect(assertSuccess(res).user_id).toBe(member.id);
  });

  test('keys arriving together (looked up in one statement) each authenticate their own account', async () => {
    const users = await Promise.all([makeUser(ts), makeUser(ts), makeUser(ts), makeUser(ts)]);
    const [ownTwice, mixed, unknown] = await Promise.all([
      Promise.all(users.flatMap((u) => [client(ts, u).get('/users/me'), client(ts, u).get('/users/me')])),
      client(ts, { email: users[0].email, apiKey: users[1].apiKey }).get('/users/me'),
      rawGet('/users/me', basic(`${users[2].email}:${'B'.repeat(32)}`)),
    ]);
    expect(ownTwice.map((res) => assertSuccess(res).user_id)).toEqual(users.flatMap((u) => [u.id, u.id]));
    assertError(mixed, 'UNAUTHORIZED', 'Invalid API key', 401);
    assertError(unknown, 'UNAUTHORIZED', 'Invalid API key', 401);
  });

  test('the placeholder address of another user is refused', async () => {
    const member = await makeUser(ts);
    const res = await client(ts, { email: `user${ts.owner.id}@parley.invalid`, apiKey: member.apiKey }).get('/users/me');
    assertError(res, 'UNAUTHORIZED', 'Invalid API key', 401);
  });
});

describe('deactivation', () => {
  test("a deactivated user's key is refused (Account is deactivated), and works again after reactivation", async () => {
    const member = await makeUser(ts);
    assertSuccess(await client(ts, member).get('/users/me'));
    assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`));
    const res = await client(ts, member).get('/users/me');
    assertError(res, 'UNAUTHORIZED', 'Account is deactivated', 401);
    expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
    assertSuccess(await client(ts, ts.owner).post(`/users/${member.id}/reactivate`));
    expect(assertSuccess(await client(ts, member).get('/users/me')).user_id).toBe(member.id);
  });

  test('every key is refused (This organization has been deactivated) while the organization is deactivated', async () => {
    const member = await makeUser(ts);
    await ts.server.deps.knex('realms').update({ deactivated: true });
    try {
      for (const who of [ts.owner, member]) {
        const res = await client(ts, who).get('/users/me');
        assertError(res, 'REALM_DEACTIVATED', 'This organization has been deactivated', 401);
      }
    } finally {
      await ts.server.deps.knex('realms').update({ deactivated: false });
    }
    assertSuccess(await client(ts, member).get('/users/me'));
  });
});
