import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { runCli } from '../../src/operator/run';
import { RunningServer, startServer } from '../../src/server';
import { assertSuccess, client } from '../helpers/api';
import { freshPostgresDatabase } from '../helpers/postgres';
import { SERVER_HOOK_TIMEOUT, TestServer } from '../helpers/server';

/**
 * The CLI while the server runs: commands reach it over DATA_DIR/parley.sock (on the embedded
 * database nothing else may open the files), on PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 * Then a backup taken while it runs is restored into a fresh DATA_DIR (and database).
 */
jest.setTimeout(240_000);

interface Place {
  dataDir: string;
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function place(): Promise<Place> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-op-'));
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  return {
    dataDir,
    env: { DATA_DIR: dataDir, PARLEY_OWNER_PASSWORD: 'first-owner-password', ...(pg ? { DATABASE_URL: pg.url } : {}) },
    drop: async () => {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function start(where: Place): Promise<RunningServer> {
  return startServer(loadConfig({ ...where.env, PORT: '0', HOST: '127.0.0.1' }), {
    pgliteDir: where.env.DATABASE_URL ? null : path.join(where.dataDir, 'pgdata'),
    zuliprcDir: null,
    operatorSocket: path.join(where.dataDir, 'parley.sock'),
  });
}

async function cli(where: Place, args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env: where.env });
  return { code, stdout, stderr };
}

async function login(server: RunningServer, email: string, password: string): Promise<number> {
  const res = await fetch(`${server.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  });
  return res.status;
}

const asTestServer = (server: RunningServer) => ({ url: server.url }) as TestServer;

let source: Place;
let target: Place;
let server: RunningServer | null = null;
let restored: RunningServer | null = null;
beforeAll(async () => {
  source = await place();
  target = await place();
  server = await start(source);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await server?.close();
  await restored?.close();
  await source.drop();
  await target.drop();
}, SERVER_HOOK_TIMEOUT);

test('the server listens for operator commands on a socket only its user may open', () => {
  const stat = fs.statSync(path.join(source.dataDir, 'parley.sock'));
  expect(stat.isSocket()).toBe(true);
  expect(stat.mode & 0o777).toBe(0o600);
});

test('list-users, create-user and reset-password run in the running server', async () => {
  const owner = server!.owner!;
  const created = await cli(source, ['create-user', '--email', 'kim@example.com', '--name', 'Kim Lee']);
  expect(created).toMatchObject({ code: 0, stderr: '' });
  const listed = await cli(source, ['list-users']);
  expect(listed.code).toBe(0);
  const rows = listed.stdout
    .trim()
    .split('\n')
    .map((row) => row.split('\t'));
  expect(rows[0]).toEqual(['id', 'role', 'active', 'email', 'name']);
  expect(rows).toContainEqual([String(owner.userId), 'owner', 'yes', owner.email, expect.any(String)]);
  expect(rows).toContainEqual([expect.stringMatching(/^\d+$/), 'member', 'yes', 'kim@example.com', 'Kim Lee']);

  // A generated password, printed once; then one the operator chooses.
  const reset = await cli(source, ['reset-password', owner.email]);
  expect(reset.code).toBe(0);
  const password = /^Password: (\S+)$/m.exec(reset.stdout)?.[1];
  expect(password).toBeDefined();
  expect(await login(server!, owner.email, 'first-owner-password')).toBe(401);
  expect(await login(server!, owner.email, password!)).toBe(200);
  const chosen = await cli(source, ['reset-password', 'kim@example.com', '--password', 'kims-new-password']);
  expect(chosen).toMatchObject({ code: 0, stderr: '' });
  expect(chosen.stdout).not.toContain('Password:');
  expect(await login(server!, 'kim@example.com', 'kims-new-password')).toBe(200);

  const weak = await cli(source, ['reset-password', 'kim@example.com', '--password', 'short']);
  expect(weak).toMatchObject({ code: 1, stderr: 'error: could not set the password: The password is too weak.\n' });
  const nobody = await cli(source, ['reset-password', 'nobody@example.com']);
  expect(nobody).toMatchObject({ code: 1, stderr: 'error: No user with email "nobody@example.com"\n' });
});

test('backup while the server runs, restore into an empty DATA_DIR: every message, user and key is back', async () => {
  const owner = server!.owner!;
  const ownerClient = client(asTestServer(server!), { email: owner.email, apiKey: owner.apiKey });
  const made = await cli(source, ['create-user', '--email', 'ana@example.com', '--name', 'Ana', '--password', 'ana-password-123']);
  const anaKey = /^API key: (\S+)$/m.exec(made.stdout)![1];
  const ana = (await ownerClient.get('/users/ana@example.com')).body.user.user_id as number;
  const ids: number[] = [];
  for (let i = 0; i < 5; i++)
    ids.push(assertSuccess(await ownerClient.post('/messages', { type: 'direct', to: JSON.stringify([ana]), content: `backup message ${i}` })).id);
  fs.mkdirSync(path.join(source.dataDir, 'uploads', '2'), { recursive: true });
  fs.writeFileSync(path.join(source.dataDir, 'uploads', '2', 'notes.txt'), 'uploaded bytes');

  const file = path.join(source.dataDir, 'snapshot.parley-backup');
  const backup = await cli(source, ['backup', file]);
  expect(backup).toMatchObject({ code: 0, stderr: '' });
  expect(backup.stdout).toMatch(/^Backed up the .* and uploads to .*snapshot\.parley-backup \(\d+\.\d MiB\)\.\n$/);

  // Restoring needs the database to itself: refused while a server runs on it.
  const busy = await cli(source, ['restore', file]);
  expect(busy.code).toBe(1);
  expect(busy.stderr).toMatch(/the server is running .*stop it first/);

  const restore = await cli(target, ['restore', file]);
  expect(restore).toMatchObject({ code: 0, stderr: '' });
  expect(restore.stdout).toMatch(/^Restored the backup of .* with its uploads\.\n$/);
  expect(fs.readFileSync(path.join(target.dataDir, 'uploads', '2', 'notes.txt'), 'utf8')).toBe('uploaded bytes');
  // A second restore onto the restored data is refused.
  expect((await cli(target, ['restore', file])).code).toBe(1);

  restored = await start(target);
  expect(restored.owner).toBeNull();
  const anaClient = client(asTestServer(restored), { email: 'ana@example.com', apiKey: anaKey });
  const me = assertSuccess(await anaClient.get('/users/me'));
  expect(me.user_id).toBe(ana);
  const messages = assertSuccess(await anaClient.get('/messages', { anchor: 'newest', num_before: 20, num_after: 0 }));
  expect(messages.messages.map((m: { id: number }) => m.id)).toEqual(expect.arrayContaining(ids));
  expect(messages.messages.find((m: { id: number }) => m.id === ids[4]).content).toContain('backup message 4');
  assertSuccess(await client(asTestServer(restored), { email: owner.email, apiKey: owner.apiKey }).get('/users/me'));
  expect(await login(restored, 'ana@example.com', 'ana-password-123')).toBe(200);
  expect(await login(restored, 'kim@example.com', 'kims-new-password')).toBe(200);
});
