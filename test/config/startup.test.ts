import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { RunningServer, startServer } from '../../src/server';
import { assertSuccess, client } from '../helpers/api';
import { freshPostgresDatabase } from '../helpers/postgres';
import { SERVER_HOOK_TIMEOUT, TestServer } from '../helpers/server';

// Each test starts its own servers.
jest.setTimeout(SERVER_HOOK_TIMEOUT);

/**
 * Starts the real server the way main.ts does, with a zuliprc directory and a fresh database:
 * PostgreSQL, or PGlite (kept in files when it must outlive one server).
 */
async function storage({ persistent = false } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-startup-'));
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  return {
    dir,
    start: (env: Record<string, string> = {}) =>
      startServer(
        loadConfig({ PORT: '0', HOST: '127.0.0.1', PARLEY_EXTERNAL_URL: 'http://chat.example.test', ...(pg ? { DATABASE_URL: pg.url } : {}), ...env }),
        { pgliteDir: pg || !persistent ? null : path.join(dir, 'pgdata'), zuliprcDir: dir },
      ),
    cleanup: async () => {
      await pg?.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The helpers' client only needs the server's URL. */
const asTestServer = (server: RunningServer) => ({ url: server.url }) as TestServer;

function readZuliprc(file: string): Record<string, string> {
  const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
  expect(lines[0]).toBe('[api]');
  return Object.fromEntries(lines.slice(1).map((line) => line.split(/=(.*)/s).slice(0, 2)));
}

describe('first start', () => {
  test('creates the owner and writes a zuliprc whose key works', async () => {
    const store = await storage();
    try {
      const server = await store.start({ PARLEY_OWNER_EMAIL: 'boss@example.org', PARLEY_OWNER_PASSWORD: 'boss-password' });
      try {
        const owner = server.owner!;
        expect(owner).toMatchObject({ email: 'boss@example.org', password: 'boss-password', zuliprcPath: path.join(store.dir, 'zuliprc') });
        expect(fs.statSync(owner.zuliprcPath!).mode & 0o777).toBe(0o600);
        const rc = readZuliprc(owner.zuliprcPath!);
        expect(rc).toEqual({ email: 'boss@example.org', key: owner.apiKey, site: 'http://chat.example.test' });

        const me = assertSuccess(await client(asTestServer(server), { email: rc.email, apiKey: rc.key }).get('/users/me'));
        expect(me).toMatchObject({ user_id: owner.userId, role: 100, is_owner: true, full_name: 'Organization Owner' });
        // The owner may create users straight away.
        const created = await client(asTestServer(server), { email: rc.email, apiKey: rc.key }).post('/users', {
          email: 'first@example.org',
          password: 'first-password',
          full_name: 'First Member',
        });
        assertSuccess(created);
        const login = await client(asTestServer(server), null).post('/fetch_api_key', { username: 'boss@example.org', password: 'boss-password' });
        expect(assertSuccess(login).user_id).toBe(owner.userId);
      } finally {
        await server.close();
      }
    } finally {
      await store.cleanup();
    }
  });

  test('without a configured password one is generated, and it works', async () => {
    const store = await storage();
    try {
      const server = await store.start();
      try {
        const owner = server.owner!;
        expect(owner.email).toBe('owner@example.com');
        expect(owner.password.length).toBeGreaterThanOrEqual(16);
        const login = await client(asTestServer(server), null).post('/fetch_api_key', { username: owner.email, password: owner.password });
        expect(assertSuccess(login).user_id).toBe(owner.userId);
      } finally {
        await server.close();
      }
    } finally {
      await store.cleanup();
    }
  });

  test('a later start keeps the organization and leaves the zuliprc alone', async () => {
    const store = await storage({ persistent: true });
    try {
      const first = await store.start();
      const rcPath = first.owner!.zuliprcPath!;
      const written = fs.readFileSync(rcPath, 'utf8');
      await first.close();

      const again = await store.start({ PARLEY_OWNER_EMAIL: 'someone-else@example.org' });
      try {
        expect(again.owner).toBeNull();
        expect(fs.readFileSync(rcPath, 'utf8')).toBe(written);
        const rc = readZuliprc(rcPath);
        const me = assertSuccess(await client(asTestServer(again), { email: rc.email, apiKey: rc.key }).get('/users/me'));
        expect(me.email).toBe('owner@example.com');
        const users = assertSuccess(await client(asTestServer(again), { email: rc.email, apiKey: rc.key }).get('/users')).members;
        expect(users).toHaveLength(1);
      } finally {
        await again.close();
      }
    } finally {
      await store.cleanup();
    }
  });
});

describe('graceful shutdown', () => {
  test('close() lets a request in flight finish, then refuses new connections', async () => {
    const store = await storage();
    try {
      const server = await store.start({ PARLEY_OWNER_PASSWORD: 'owner-password' });
      const owner = server.owner!;
      // Wait until the server has the request, then shut down while it is being handled (a login
      // spends a while hashing the password).
      const received = new Promise<void>((resolve) => server.http.once('request', () => resolve()));
      const inFlight = client(asTestServer(server), null).post('/fetch_api_key', { username: owner.email, password: 'owner-password' });
      await received;
      const closed = server.close();
      const res = await inFlight;
      expect(assertSuccess(res).user_id).toBe(owner.userId);
      await closed;
      expect(server.http.listening).toBe(false);
      await expect(fetch(`${server.url}/api/v1/server_settings`)).rejects.toThrow();
    } finally {
      await store.cleanup();
    }
  });

  test('close() does not wait for idle keep-alive connections', async () => {
    const store = await storage();
    try {
      const server = await store.start();
      // fetch keeps the connection open for reuse after this response.
      assertSuccess(await client(asTestServer(server), null).get('/server_settings'));
      await server.close();
      expect(server.http.listening).toBe(false);
    } finally {
      await store.cleanup();
    }
  });
});
