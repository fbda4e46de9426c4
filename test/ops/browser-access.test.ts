import { client, assertSuccess } from '../helpers/api';
import { SERVER_HOOK_TIMEOUT, startTestServer, TestServer } from '../helpers/server';

const ALLOWED = 'https://chat.example.com';

describe('without PARLEY_CORS_ORIGINS', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer();
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  test('no origin is allowed', async () => {
    const res = await fetch(`${ts.url}/api/v1/users/me`, {
      headers: { origin: ALLOWED, authorization: `Basic ${Buffer.from(`${ts.owner.email}:${ts.owner.apiKey}`).toString('base64')}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${ts.url}/graphql`, { method: 'OPTIONS', headers: { origin: ALLOWED, 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  test('GET /graphql asking for HTML is the GraphiQL page, loading nothing from elsewhere', async () => {
    const res = await fetch(`${ts.url}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    const html = await res.text();
    // 200 once built (npm run build); a page saying how to build it otherwise.
    expect([200, 503]).toContain(res.status);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(html).toContain('email');
    expect(html).not.toMatch(/https?:\/\//);
    if (res.status === 200) {
      const script = await fetch(`${ts.url}/static/graphiql/graphiql.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/javascript/);
    }
  });

  test('API clients on /graphql still reach GraphQL', async () => {
    const res = await fetch(`${ts.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json', 'apollo-require-preflight': 'true' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: { __typename: 'Query' } });
  });
});

describe('with PARLEY_CORS_ORIGINS', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer({ PARLEY_CORS_ORIGINS: `${ALLOWED}, http://localhost:3000` });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts.close();
  }, SERVER_HOOK_TIMEOUT);

  test('a preflight from a listed origin is answered for /api/v1 and /graphql', async () => {
    for (const path of ['/api/v1/messages', '/graphql']) {
      const res = await fetch(`${ts.url}${path}`, {
        method: 'OPTIONS',
        headers: { origin: ALLOWED, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-allow-methods')).toContain('POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  test('requests from a listed origin get the header; others and other paths do not', async () => {
    const res = await client(ts, ts.owner).get('/users/me', {}, { headers: { origin: 'http://localhost:3000' } });
    assertSuccess(res);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://localhost:3000');
    expect(res.headers.get('vary')).toContain('Origin');

    const other = await client(ts, ts.owner).get('/users/me', {}, { headers: { origin: 'https://evil.example' } });
    assertSuccess(other);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const refused = await fetch(`${ts.url}/api/v1/messages`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();

    const health = await fetch(`${ts.url}/health`, { headers: { origin: ALLOWED } });
    expect(health.headers.get('access-control-allow-origin')).toBeNull();

    const gql = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { origin: ALLOWED, 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ __typename }' }),
    });
    expect(gql.status).toBe(200);
    expect(gql.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });
});
