import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { createUser } from '../../src/core/users/actions';
import { runCli } from '../../src/operator/run';
import { RunningServer, startServer } from '../../src/server';
import { assertError, assertSuccess, client } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { freshPostgresDatabase } from '../helpers/postgres';
import { TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// The organization is deactivated through the API and reactivated by the operator's CLI, which
// opens the database itself (so the server is stopped in between, as PGlite allows one process).
jest.setTimeout(240_000);

test('owners deactivate the organization; every key is refused until the CLI reactivates it', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-realm-deactivate-'));
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const env: Record<string, string> = { DATA_DIR: dataDir, PARLEY_RATE_LIMITING: 'false', ...(pg ? { DATABASE_URL: pg.url } : {}) };
  const start = (): Promise<RunningServer> =>
    startServer(loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1', PARLEY_OWNER_PASSWORD: 'owner-password-123' }), {
      pgliteDir: pg ? null : path.join(dataDir, 'pgdata'),
      zuliprcDir: null,
    });
  let server = await start();
  try {
    const ts = { url: server.url, server } as unknown as TestServer;
    const owner = { id: server.owner!.userId, email: server.owner!.email, apiKey: server.owner!.apiKey } as TestUser;
    const made = async (role: 200 | 400, email: string) => {
      const { user, apiKey } = await createUser(server.deps, null, { email, fullName: email.split('@')[0], password: 'some-password-1', role });
      return { id: user.id, email, apiKey } as TestUser;
    };
    const admin = await made(200, 'admin@example.com');
    const member = await made(400, 'member@example.com');

    assertError(await client(ts, admin).post('/realm/deactivate'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    assertSuccess(await client(ts, member).get('/users/me'));

    const queue = await registerQueue(ts, member);
    // A long-poll waiting since before the deactivation hears of it.
    const waiting = getEvents(ts, member, queue.queueId, queue.lastEventId);
    await waitUntil(() => ts.server.deps.realtime!.queues.waitingCount > 0);
    assertSuccess(await client(ts, owner).post('/realm/deactivate', { deletion_delay_days: null }));
    expect(await waiting).toEqual([expect.objectContaining({ type: 'realm', op: 'deactivated', realm_id: expect.any(Number) })]);
    for (const who of [owner, admin, member]) {
      const res = await client(ts, who).get('/users/me');
      assertError(res, 'REALM_DEACTIVATED', 'This organization has been deactivated', 401);
    }
    assertError(
      await client(ts, null).post('/fetch_api_key', { username: 'member@example.com', password: 'some-password-1' }),
      'REALM_DEACTIVATED',
      'This organization has been deactivated',
      401,
    );
    await expect(getEvents(ts, member, queue.queueId, queue.lastEventId + 1, { dontBlock: true })).rejects.toThrow(/deactivated/);
    await server.close();

    let stdout = '';
    const code = await runCli(['reactivate-organization'], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => undefined }, env });
    expect(code).toBe(0);
    expect(stdout).toContain('Reactivated the organization.');

    server = await start();
    const again = { url: server.url, server } as unknown as TestServer;
    expect(assertSuccess(await client(again, member).get('/users/me')).user_id).toBe(member.id);
  } finally {
    await server.close();
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
