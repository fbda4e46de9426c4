import { gzipSync } from 'node:zlib';
import { assertError, assertSuccess, basicAuth, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser, SERVER_HOOK_TIMEOUT } from '../helpers/server';
import { captureLog } from '../helpers/log';

let ts: TestServer;
let creator: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  creator = await makeUser(ts, 200, { canCreateUsers: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

let seq = 0;
const fresh = () => `conv${++seq}@example.com`;

describe('parameter errors', () => {
  test('a missing parameter is REQUEST_VARIABLE_MISSING with var_name', async () => {
    const res = await client(ts, creator).post('/users', { email: fresh(), password: 'a-good-password' });
    const body = assertError(res, 'REQUEST_VARIABLE_MISSING', "Missing 'full_name' argument");
    expect(body).toEqual({ result: 'error', msg: "Missing 'full_name' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'full_name' });
  });

  test('a JSON parameter that is not JSON is INVALID_JSON', async () => {
    const res = await client(ts, creator).get('/users', { client_gravatar: 'yes' });
    assertError(res, 'INVALID_JSON', 'Argument "client_gravatar" is not valid JSON.');
  });

  test('wrong JSON types name the parameter', async () => {
    assertError(
      await client(ts, creator).get('/users', { include_custom_profile_fields: '"true"' }),
      'BAD_REQUEST',
      'include_custom_profile_fields is not a boolean',
    );
    assertError(await client(ts, creator).get('/users', { client_gravatar: 1 }), 'BAD_REQUEST', 'client_gravatar is not a boolean');
    assertError(await client(ts, ts.owner).patch(`/users/${creator.id}`, { role: 'true' }), 'BAD_REQUEST', 'role is not an integer');
    assertError(await client(ts, ts.owner).patch(`/users/${creator.id}`, { role: '[200]' }), 'BAD_REQUEST', 'role is not an integer');
  });

  test('booleans are JSON true and false only', async () => {
    for (const raw of ['True', 'on', '1']) {
      const res = await client(ts, creator).get('/users', { client_gravatar: raw });
      expect(res.body.result).toBe('error');
    }
    for (const value of [true, false]) assertSuccess(await client(ts, creator).get('/users', { client_gravatar: value }));
  });
});

describe('routing', () => {
  test('an unknown /api/v1 path is a JSON 404, with or without credentials', async () => {
    for (const who of [null, ts.owner]) {
      const res = await client(ts, who).get('/no/such/endpoint');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      assertError(res, 'NOT_FOUND', 'Not Found', 404);
    }
  });

  test('a path outside the APIs is a JSON 404 too', async () => {
    const res = await fetch(`${ts.url}/no-such-page`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  });

  test('a wrong method is a 405 listing the allowed methods, checked before authentication', async () => {
    for (const who of [null, ts.owner]) {
      const res = await client(ts, who).get('/fetch_api_key');
      expect(res.status).toBe(405);
      expect(res.body).toEqual({ result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST', allowed_methods: ['POST'] });
      expect(res.headers.get('allow')).toBe('POST');
    }
    const res = await client(ts, ts.owner).put(`/users/${creator.id}`);
    expect(res.status).toBe(405);
    // HEAD comes with GET.
    expect(res.body.allowed_methods).toEqual(expect.arrayContaining(['DELETE', 'GET', 'HEAD', 'PATCH']));
    expect(res.body.allowed_methods).not.toContain('PUT');
    expect(res.headers.get('allow')).toBe(res.body.allowed_methods.join(', '));
  });

  test('HEAD is answered like GET, without a body', async () => {
    const res = await fetch(`${ts.url}/api/v1/users/me`, { method: 'HEAD', headers: { authorization: basicAuth(ts.owner) } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('ignored_parameters_unsupported', () => {
  test('lists unknown parameters, sorted, on success', async () => {
    const body = assertSuccess(await client(ts, creator).get('/users/me', { zebra: 'z', apple: 1 }));
    expect(body.ignored_parameters_unsupported).toEqual(['apple', 'zebra']);
  });

  test('is absent when every parameter is known', async () => {
    const body = assertSuccess(await client(ts, creator).get('/users', { client_gravatar: false }));
    expect(body).not.toHaveProperty('ignored_parameters_unsupported');
  });

  test('path parameters are not reported', async () => {
    const body = assertSuccess(await client(ts, creator).get(`/users/${creator.id}`, { bogus: 'x' }));
    expect(body.ignored_parameters_unsupported).toEqual(['bogus']);
  });
});

describe('request encodings', () => {
  test('multipart/form-data bodies decode like urlencoded ones', async () => {
    const res = await client(ts, creator).post(
      '/users',
      { email: fresh(), password: 'a-good-password', full_name: 'Multi Part', extra: 'x' },
      { multipart: true },
    );
    const body = assertSuccess(res);
    expect(body.ignored_parameters_unsupported).toEqual(['extra']);
    expect(assertSuccess(await client(ts, creator).get(`/users/${body.user_id}`)).user.full_name).toBe('Multi Part');
  });

  test('multipart PATCH bodies are decoded', async () => {
    const member = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 300 }, { multipart: true }));
    expect(assertSuccess(await client(ts, member).get('/users/me')).role).toBe(300);
  });

  test('POST parameters in the query string are read', async () => {
    const res = await client(ts, creator).post('/users', { email: fresh(), password: 'a-good-password', full_name: 'Query Post' }, { inQuery: true });
    const id = assertSuccess(res).user_id;
    expect(assertSuccess(await client(ts, creator).get(`/users/${id}`)).user.full_name).toBe('Query Post');
  });

  test('PATCH parameters in the query string are read, as zulip-js sends them', async () => {
    const member = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { full_name: 'From Query', role: 600 }, { inQuery: true }));
    const me = assertSuccess(await client(ts, member).get('/users/me'));
    expect({ full_name: me.full_name, role: me.role }).toEqual({ full_name: 'From Query', role: 600 });
    assertError(
      await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 'x' }, { inQuery: true }),
      'INVALID_JSON',
      'Argument "role" is not valid JSON.',
    );
  });

  test('DELETE parameters in the query string are read', async () => {
    const member = await makeUser(ts);
    const body = assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`, { unused: 'x' }, { inQuery: true }));
    expect(body.ignored_parameters_unsupported).toEqual(['unused']);
  });

  test('DELETE parameters in an urlencoded body are read', async () => {
    const member = await makeUser(ts);
    const body = assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`, { unused: 'x' }));
    expect(body.ignored_parameters_unsupported).toEqual(['unused']);
  });

  test('a body value wins over the same name in the query string', async () => {
    const member = await makeUser(ts);
    const res = await fetch(`${ts.url}/api/v1/users/${member.id}?full_name=${encodeURIComponent('From Query')}`, {
      method: 'PATCH',
      headers: { authorization: basicAuth(ts.owner), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ full_name: 'From Body' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(assertSuccess(await client(ts, member).get('/users/me')).full_name).toBe('From Body');
  });

  test('a malformed multipart body is a 400, not a 500', async () => {
    const res = await fetch(`${ts.url}/api/v1/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'garbage',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Malformed payload', code: 'BAD_REQUEST' });
  });
});

describe('urlencoded bodies', () => {
  const renderForm = (body: string | Buffer, headers: Record<string, string> = {}) =>
    fetch(`${ts.url}/api/v1/messages/render`, {
      method: 'POST',
      headers: { authorization: basicAuth(ts.owner), 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body,
    });
  const rendered = async (res: Response) => {
    expect(res.status).toBe(200);
    return ((await res.json()) as { rendered: string }).rendered;
  };

  test('plus is a space, escapes are decoded, and a value with a malformed escape is kept as written', async () => {
    expect(await rendered(await renderForm('content=a+b%20c'))).toBe('<p>a b c</p>');
    expect(await rendered(await renderForm('content=a+b%20c%ZZ'))).toBe('<p>a b%20c%ZZ</p>');
    expect(await rendered(await renderForm('content=%C3%A9t%C3%A9'))).toBe('<p>été</p>');
  });

  test('a repeated name takes its last value; empty and __proto__ names are ignored', async () => {
    expect(await rendered(await renderForm('content=first&content=second'))).toBe('<p>second</p>');
    const res = await renderForm('=x&__proto__=y&content=z&&');
    expect(await res.json()).toEqual({ result: 'success', msg: '', rendered: '<p>z</p>' });
  });

  test('a name in brackets is the bare name, as in Zulip clients built on qs', async () => {
    expect(await rendered(await renderForm('%5Bcontent%5D=bracketed'))).toBe('<p>bracketed</p>');
  });

  test('a charset parameter and a byte-order mark are accepted', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('content=bom')]);
    expect(await rendered(await renderForm(body, { 'content-type': 'application/x-www-form-urlencoded; charset=UTF-8' }))).toBe('<p>bom</p>');
  });

  test('a compressed body is read too', async () => {
    expect(await rendered(await renderForm(gzipSync('content=zipped'), { 'content-encoding': 'gzip' }))).toBe('<p>zipped</p>');
  });

  test('more than 10,000 parameters is over the limit', async () => {
    const many = Array.from({ length: 10_001 }, (_, i) => `p${i}=1`).join('&');
    const res = await renderForm(many);
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Request has more than the allowed limit of 10000 parameters', code: 'BAD_REQUEST' });
    expect(await rendered(await renderForm(`${Array.from({ length: 9_999 }, (_, i) => `p${i}=1`).join('&')}&content=ok`))).toBe('<p>ok</p>');
  });
});

describe('unexpected failures', () => {
  // A table the role change needs is briefly renamed away, so the action fails inside the database.
  async function withoutGroupsTable<T>(work: () => Promise<T>): Promise<T> {
    const knex = ts.server.deps.knex;
    await knex.raw('ALTER TABLE user_group_members RENAME TO user_group_members_away');
    try {
      return await work();
    } finally {
      await knex.raw('ALTER TABLE user_group_members_away RENAME TO user_group_members');
    }
  }

  test('a 500 is a generic JSON error without internals, logged with a request id', async () => {
    const member = await makeUser(ts);
    const logged = captureLog('error');
    try {
      const res = await withoutGroupsTable(() => client(ts, ts.owner).patch(`/users/${member.id}`, { role: 300 }));
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ result: 'error', msg: 'Internal server error', code: 'INTERNAL_SERVER_ERROR', request_id: expect.any(String) });
      expect(JSON.stringify(res.body)).not.toMatch(/user_group_members|at |\.ts/);
      expect(logged.records()).toContainEqual(expect.objectContaining({ level: 50, requestId: res.body.request_id }));
    } finally {
      logged.restore();
    }
    // The failed change was rolled back, and the server keeps serving.
    expect(assertSuccess(await client(ts, member).get('/users/me')).role).toBe(400);
  });

  test('GraphQL reports an unexpected failure as a generic error too', async () => {
    const member = await makeUser(ts);
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const res = await withoutGroupsTable(() =>
        graphql(ts, ts.owner, 'mutation ($id: Int!) { updateUser(id: $id, input: { role: 300 }) { role } }', { id: member.id }),
      );
      expect(res.errors).toHaveLength(1);
      expect(res.errors![0].message).toBe('Internal server error');
      expect(res.errors![0].extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
      expect(JSON.stringify(res)).not.toMatch(/user_group_members|stacktrace/);
    } finally {
      logged.mockRestore();
    }
  });
});
