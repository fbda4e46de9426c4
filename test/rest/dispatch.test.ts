import { assertError, assertSuccess, basicAuth, client } from '../helpers/api';
import { startTestServer, TestServer } from '../helpers/server';

/** The /api/v1 request handler: routing, envelopes and headers, as clients see them. */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.close();
});

const raw = (path: string, init: RequestInit = {}) =>
  fetch(`${ts.url}${path}`, { ...init, headers: { authorization: basicAuth(ts.owner), ...(init.headers ?? {}) } });

test('a success is JSON with the envelope and an exact length', async () => {
  const res = await raw('/api/v1/users/me');
  const text = await res.text();
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(text));
  expect(JSON.parse(text)).toMatchObject({ result: 'success', msg: '', user_id: ts.owner.id });
});

test('HEAD answers like GET without a body', async () => {
  const res = await raw('/api/v1/users/me', { method: 'HEAD' });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe('');
});

test('unknown paths are 404 in the JSON envelope, whatever their case', async () => {
  assertError(await client(ts, ts.owner).get('/no/such/endpoint'), 'NOT_FOUND', 'Not Found', 404);
  const upper = await raw('/API/V1/users/me');
  expect(upper.status).toBe(404);
  expect(await upper.json()).toEqual({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  expect((await raw('/api/v1')).status).toBe(404);
  expect((await raw('/api/v1users/me')).status).toBe(404);
});

test('a known path with another method is 405 with Allow', async () => {
  const res = await raw('/api/v1/users/me', { method: 'PUT' });
  expect(res.status).toBe(405);
  // DELETE is leaving the organization.
  expect(res.headers.get('allow')).toBe('GET, DELETE, HEAD');
  expect(await res.json()).toEqual({ result: 'error', msg: 'Method Not Allowed', code: 'BAD_REQUEST', allowed_methods: ['GET', 'DELETE', 'HEAD'] });
});

test('parameters come from the query string and the body alike; unknown ones are reported', async () => {
  const fromQuery = assertSuccess(await client(ts, ts.owner).get(`/users/${ts.owner.id}`, { client_gravatar: false, bogus: 1 }));
  expect(fromQuery.user.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
  expect(fromQuery.ignored_parameters_unsupported).toEqual(['bogus']);
  const withBody = assertSuccess(await client(ts, ts.owner).patch(`/users/${ts.owner.id}`, { full_name: 'Owner Renamed' }, { multipart: true }));
  expect(withBody).toEqual({ result: 'success', msg: '' });
  expect(assertSuccess(await client(ts, ts.owner).get('/users/me')).full_name).toBe('Owner Renamed');
});

test('credentials are required, and a request without them gets the Basic challenge', async () => {
  const res = await fetch(`${ts.url}/api/v1/users/me`);
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toBe('Basic realm="zulip"');
  expect(((await res.json()) as { code: string }).code).toBe('UNAUTHORIZED');
});

test("a malformed body is refused with Zulip's message", async () => {
  const res = await raw('/api/v1/users/me/api_key/regenerate', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded; charset=klingon' },
    body: 'a=b',
  });
  expect(res.status).toBe(400);
  expect(await res.json()).toEqual({ result: 'error', msg: 'Malformed payload', code: 'BAD_REQUEST' });
});
