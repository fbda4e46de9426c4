import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertSuccess, client, graphql, TEST_USER_AGENT } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { ConfigError, loadConfig } from '../../src/config';
import { isLoopback } from '../../src/ops/routes';
import { answerWhileStarting } from '../../src/ops/health';
import { parsePrometheus, Sample } from './prometheus';

const TOKEN = 'metrics-token-0123456789';

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const res = await fetch(url);
  return { status: res.status, body: await res.json() };
}

async function scrape(ts: TestServer, headers: Record<string, string> = {}): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(`${ts.url}/metrics`, { headers });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

const requestCount = (samples: Sample[], route: string, method: string, status: string) =>
  samples.find(
    (s) => s.name === 'parley_http_request_duration_seconds_count' && s.labels.route === route && s.labels.method === method && s.labels.status === status,
  )?.value ?? 0;

describe('health and metrics without a token', () => {
  let ts: TestServer;
  let alice: TestUser;
  beforeAll(async () => {
    ts = await startTestServer();
    alice = await makeUser(ts, 400);
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  test('GET /health answers ok without credentials', async () => {
    expect(await getJson(`${ts.url}/health`)).toEqual({ status: 200, body: { status: 'ok' } });
  });

  test('GET /health/ready checks the database', async () => {
    expect(await getJson(`${ts.url}/health/ready`)).toEqual({ status: 200, body: { status: 'ok', ready: true, starting: false, checks: { database: 'ok' } } });
  });

  test('metrics count requests by route template, never by raw path', async () => {
    const before = parsePrometheus((await scrape(ts)).text);
    assertSuccess(await client(ts, alice).get('/users/me'));
    const other = assertSuccess(await client(ts, alice).get(`/users/${ts.owner.id}`));
    expect(other.user.user_id).toBe(ts.owner.id);
    const missing = await client(ts, alice).get('/users/me/no-such-thing-4242');
    expect(missing.status).toBe(404);
    const res = await scrape(ts);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(res.text);
    for (const [route, status] of [
      ['/api/v1/users/me', '200'],
      ['/api/v1/users/:user_id', '200'],
      ['(unmatched)', '404'],
    ]) {
      expect(requestCount(samples, route, 'GET', status) - requestCount(before, route, 'GET', status)).toBe(1);
    }
    // Neither the ids nor the unknown path of the requests just made appear anywhere.
    const routes = new Set(samples.filter((s) => s.labels.route).map((s) => s.labels.route));
    for (const route of routes) expect(route).not.toMatch(/\/\d+(\/|$)|no-such-thing/);
    // Histogram buckets come with the counter.
    expect(samples.some((s) => s.name === 'parley_http_request_duration_seconds_bucket' && s.labels.route === '/api/v1/users/me')).toBe(true);
  });

  test('express-served requests are labelled with their route too', async () => {
    await getJson(`${ts.url}/health`);
    const samples = parsePrometheus((await scrape(ts)).text);
    expect(requestCount(samples, '/health', 'GET', '200')).toBeGreaterThanOrEqual(1);
  });

  test('event queues, GraphQL operations and process metrics are reported', async () => {
    assertSuccess(await client(ts, alice).post('/register', { event_types: ['message'] }));
    const gql = await graphql(ts, alice, '{ __typename }');
    expect(gql.data).toEqual({ __typename: 'Query' });
    const samples = parsePrometheus((await scrape(ts)).text);
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value('parley_event_queues')).toBeGreaterThanOrEqual(1);
    expect(value('parley_event_queue_waiting_polls')).toBe(0);
    expect(value('parley_graphql_operations_total', { type: 'query', transport: 'http' })).toBeGreaterThanOrEqual(1);
    expect(value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  test('without PARLEY_METRICS_TOKEN metrics go to loopback clients only', async () => {
    // This test's requests come from 127.0.0.1: served, whatever Authorization they carry.
    expect((await scrape(ts, { authorization: 'Bearer whatever-token-value' })).status).toBe(200);
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('127.10.0.3')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopback('10.0.0.1')).toBe(false);
    expect(isLoopback('::ffff:192.168.1.2')).toBe(false);
    expect(isLoopback('fe80::1')).toBe(false);
    expect(isLoopback('1270::1')).toBe(false);
    expect(isLoopback(undefined)).toBe(false);
  });

  test('the probes change nothing for the REST API', async () => {
    const res = await fetch(`${ts.url}/api/v1/health`, { headers: { 'user-agent': TEST_USER_AGENT } });
    expect(res.status).toBe(404);
  });
});

describe('metrics with PARLEY_METRICS_TOKEN', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({ PARLEY_METRICS_TOKEN: TOKEN });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  test('the token is required, even from loopback', async () => {
    const attempts: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: `Basic ${TOKEN}` }];
    for (const headers of attempts) {
      const res = await scrape(ts, headers);
      expect(res.status).toBe(401);
      expect(res.text).not.toMatch(/parley_http/);
    }
    const ok = await scrape(ts, { authorization: `Bearer ${TOKEN}` });
    expect(ok.status).toBe(200);
    expect(parsePrometheus(ok.text).some((s) => s.name === 'parley_http_request_duration_seconds_count')).toBe(true);
  });

  test('the probes stay open', async () => {
    expect((await getJson(`${ts.url}/health`)).status).toBe(200);
    expect((await getJson(`${ts.url}/health/ready`)).status).toBe(200);
  });
});

describe('metrics behind a trusted reverse proxy, without a token', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({ PARLEY_TRUSTED_PROXIES: '127.0.0.1' });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  test('a client forwarded from elsewhere is refused; one on this machine is served', async () => {
    const remote = await scrape(ts, { 'x-forwarded-for': '203.0.113.9' });
    expect(remote.status).toBe(403);
    expect(remote.text).not.toMatch(/parley_http/);
    expect((await scrape(ts, { 'x-forwarded-for': '127.0.0.1' })).status).toBe(200);
    expect((await scrape(ts)).status).toBe(200);
  });
});

describe('readiness', () => {
  test(
    '503 naming the database when it is unreachable; liveness still ok',
    async () => {
      const ts = await startTestServer();
      // Closing the server then fails to save the event queues, and says so.
      const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        await ts.server.db.knex.destroy();
        const ready = await getJson(`${ts.url}/health/ready`);
        expect(ready).toEqual({ status: 503, body: { status: 'unavailable', ready: false, starting: false, checks: { database: 'failed' } } });
        expect(await getJson(`${ts.url}/health`)).toEqual({ status: 200, body: { status: 'ok' } });
      } finally {
        await ts.close();
        logged.mockRestore();
      }
    },
    SERVER_HOOK_TIMEOUT,
  );

  test(
    'with REDIS_URL Redis is checked too',
    async () => {
      const ts = await startTestServer({ REDIS_URL: 'redis://127.0.0.1:6379' });
      try {
        expect(await getJson(`${ts.url}/health/ready`)).toEqual({
          status: 200,
          body: { status: 'ok', ready: true, starting: false, checks: { database: 'ok', redis: 'ok' } },
        });
        await ts.server.deps.realtime!.close();
        expect(await getJson(`${ts.url}/health/ready`)).toEqual({
          status: 503,
          body: { status: 'unavailable', ready: false, starting: false, checks: { database: 'ok', redis: 'failed' } },
        });
      } finally {
        await ts.close();
      }
    },
    SERVER_HOOK_TIMEOUT,
  );
});

describe('before start-up has finished', () => {
  // What the server answers between binding its port and finishing its start-up (the entry point's
  // race is in test/process/readiness.test.ts): the same listener, on a socket of its own.
  let url: string;
  let server: http.Server;
  beforeAll(async () => {
    server = http.createServer(answerWhileStarting);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  test('liveness is ok, readiness says starting', async () => {
    expect(await getJson(`${url}/health`)).toEqual({ status: 200, body: { status: 'ok' } });
    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).toBe('5');
    expect(await ready.json()).toEqual({ status: 'unavailable', ready: false, starting: true, checks: {} });
  });

  test('REST, GraphQL and everything else: 503 SERVER_NOT_READY with Retry-After', async () => {
    const requests: [string, RequestInit][] = [
      ['/api/v1/server_settings', {}],
      ['/api/v1/fetch_api_key', { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password: 'x' }) }],
      ['/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' }],
      ['/login/', {}],
      ['/metrics', {}],
    ];
    for (const [path, init] of requests) {
      const res = await fetch(`${url}${path}`, init);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('5');
      expect(await res.json()).toEqual({ result: 'error', msg: 'The server is starting; try again shortly.', code: 'SERVER_NOT_READY' });
    }
  });
});

describe('PARLEY_METRICS_TOKEN', () => {
  test('is optional, trimmed, and refused when short or containing spaces', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ PARLEY_METRICS_TOKEN: `  ${TOKEN} ` }).metricsToken).toBe(TOKEN);
    expect(() => loadConfig({ PARLEY_METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ PARLEY_METRICS_TOKEN: 'has a space in the middle' })).toThrow(/PARLEY_METRICS_TOKEN/);
  });
});
