import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrations } from '../../migrations';
import { loadConfig } from '../../src/config';
import { runCli } from '../../src/operator/run';
import { RunningServer, startServer } from '../../src/server';
import { assertError, assertSuccess, client } from '../helpers/api';
import { freshPostgresDatabase } from '../helpers/postgres';
import { TestServer, SERVER_HOOK_TIMEOUT } from '../helpers/server';

// Every command opens the database itself; on PGlite that means files in DATA_DIR, which is slow.
jest.setTimeout(240_000);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** A data directory plus (with TEST_DATABASE_URL) a fresh PostgreSQL database, as the CLI sees them. */
async function workspace() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-'));
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
  return {
    dataDir,
    env,
    async cli(args: string[], extraEnv: Record<string, string> = {}): Promise<Run> {
      let stdout = '';
      let stderr = '';
      const code = await runCli(args, {
        stdout: { write: (text: string) => (stdout += text) },
        stderr: { write: (text: string) => (stderr += text) },
        env: { ...env, ...extraEnv },
      });
      return { code, stdout, stderr };
    },
    /** The server, started on the same database the commands used. */
    start: (): Promise<RunningServer> =>
      startServer(loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1' }), {
        pgliteDir: pg ? null : path.join(dataDir, 'pgdata'),
        zuliprcDir: null,
      }),
    cleanup: async () => {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const asTestServer = (server: RunningServer) => ({ url: server.url }) as TestServer;
const line = (output: string, label: string) =>
  output
    .split('\n')
    .find((l) => l.startsWith(`${label}: `))
    ?.slice(label.length + 2);

describe('arguments', () => {
  let ws: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    ws = await workspace();
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ws.cleanup();
  }, SERVER_HOOK_TIMEOUT);

  test('help lists every command', async () => {
    const res = await ws.cli(['help']);
    expect(res.code).toBe(0);
    for (const name of ['create-user', 'set-role', 'grant-create-users', 'api-key', 'deactivate', 'reactivate', 'migrate', 'help']) {
      expect(res.stdout).toContain(`  ${name}`);
    }
    expect(res.stderr).toBe('');
    expect((await ws.cli(['--help'])).stdout).toBe(res.stdout);
  });

  test('help of one command', async () => {
    const res = await ws.cli(['help', 'create-user']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('create-user --email EMAIL --name NAME [--role ROLE] [--password PASSWORD]');
  });

  test.each([
    [[], 'error: no command given'],
    [['frobnicate'], 'error: unknown command "frobnicate"'],
    [['help', 'frobnicate'], 'error: unknown command "frobnicate"'],
    [['create-user', '--name', 'Ada Lovelace'], 'error: --email is required'],
    [['create-user', '--email', 'ada@example.com'], 'error: --name is required'],
    [['create-user', '--email', 'ada@example.com', '--name', 'Ada', '--role', 'boss'], 'error: unknown role "boss"'],
    [['create-user', '--email', 'ada@example.com', '--name', 'Ada', '--bogus'], "Unknown option '--bogus'"],
    [['create-user', '--email'], "Option '--email <value>' argument missing"],
    [['create-user', 'extra', '--email', 'ada@example.com', '--name', 'Ada'], 'error: expected no arguments, got "extra"'],
    [['set-role', 'ada@example.com'], 'error: expected USER ROLE, got "ada@example.com"'],
    [['set-role', 'ada@example.com', 'chief'], 'error: unknown role "chief"'],
    [['deactivate'], 'error: expected USER, got none'],
    [['api-key', '1', '--rotate'], "Unknown option '--rotate'"],
    [['migrate', 'now'], 'error: expected no arguments, got "now"'],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const res = await ws.cli(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(message);
    expect(res.stderr).toMatch(/Usage: npm run cli -- /);
    expect(res.stdout).toBe('');
  });

  test('a bad configuration is reported (exit 2)', async () => {
    const res = await ws.cli(['migrate'], { DATABASE_URL: 'mysql://db/x' });
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('Configuration error: DATABASE_URL must start with postgres:// or postgresql://, got "mysql://db/x"\n');
  });

  test('usage errors never open the database', () => {
    expect(fs.readdirSync(ws.dataDir)).toEqual([]);
  });
});

describe('commands', () => {
  let ws: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    ws = await workspace();
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ws.cleanup();
  }, SERVER_HOOK_TIMEOUT);

  test('migrate applies every migration once; migrate --rollback undoes them', async () => {
    const names = migrations.map((m) => m.name);
    const first = await ws.cli(['migrate']);
    expect(first).toEqual({ code: 0, stdout: `Applied ${names.length} migration(s): ${names.join(', ')}\n`, stderr: '' });
    expect(await ws.cli(['migrate'])).toEqual({ code: 0, stdout: 'The database schema is up to date.\n', stderr: '' });
    const back = await ws.cli(['migrate', '--rollback']);
    expect(back).toEqual({ code: 0, stdout: `Rolled back ${names.length} migration(s): ${[...names].reverse().join(', ')}\n`, stderr: '' });
    expect(await ws.cli(['migrate', '--rollback'])).toEqual({ code: 0, stdout: 'No migrations to roll back.\n', stderr: '' });
  });

  test('user commands work through the same actions as the API, and the server sees their results', async () => {
    // On an empty database the first command prepares the organization and its owner.
    const created = await ws.cli(['create-user', '--email', 'ada@example.com', '--name', 'Ada Lovelace', '--role', 'admin']);
    expect(created.code).toBe(0);
    expect(created.stderr).toBe('');
    expect(created.stdout).toContain('The database had no accounts yet, so the organization owner was created:');
    expect(created.stdout).toMatch(/^Created Ada Lovelace <ada@example\.com> \(user \d+\) with the role admin\.$/m);
    const adaId = Number(/\(user (\d+)\)/.exec(created.stdout.split('Created ')[1])![1]);
    const adaPassword = line(created.stdout, 'Password')!;
    const adaFirstKey = line(created.stdout, 'API key')!;
    expect(adaPassword.length).toBeGreaterThanOrEqual(16);
    expect(adaFirstKey).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(fs.readFileSync(path.join(ws.dataDir, 'zuliprc'), 'utf8')).toMatch(/^\[api\]\nemail=owner@example\.com\nkey=/);

    const bob = await ws.cli(['create-user', '--email', 'bob@example.com', '--name', 'Bob Builder', '--password', 'bobs-password']);
    expect(bob.code).toBe(0);
    expect(bob.stdout).not.toContain('organization owner');
    expect(bob.stdout).not.toContain('Password:');
    expect(bob.stdout).toMatch(/with the role member\.\nAPI key: [A-Za-z0-9]{32}\n$/);

    expect(await ws.cli(['create-user', '--email', 'ADA@example.com', '--name', 'Ada Again'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: could not create the user: Email is already in use.\n',
    });
    expect((await ws.cli(['create-user', '--email', 'not-an-address', '--name', 'No Body'])).stderr).toBe(
      'error: could not create the user: Bad name or username\n',
    );
    expect((await ws.cli(['create-user', '--email', 'x@example.com', '--name', 'X', '--password', 'abc'])).stderr).toBe(
      'error: could not create the user: Name too short!\n',
    );

    const promoted = await ws.cli(['set-role', 'bob@example.com', 'moderator']);
    expect(promoted).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^Changed the role of Bob Builder <bob@example\.com> \(user \d+\) from member to moderator\.\n$/),
      stderr: '',
    });
    expect((await ws.cli(['set-role', 'bob@example.com', 'moderator'])).stdout).toContain('already has the role moderator');
    expect(await ws.cli(['set-role', '1', 'member'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: could not change the role: The owner permission cannot be removed from the only organization owner.\n',
    });
    for (const id of ['999999', '3000000000']) {
      expect(await ws.cli(['set-role', id, 'member'])).toEqual({ code: 1, stdout: '', stderr: `error: No user with id ${id}\n` });
    }
    expect(await ws.cli(['deactivate', 'nobody@example.com'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: No user with email "nobody@example.com"\n',
    });

    const granted = await ws.cli(['grant-create-users', String(adaId)]);
    expect(granted.stdout).toBe(`Ada Lovelace <ada@example.com> (user ${adaId}) may now create users.\n`);
    expect((await ws.cli(['grant-create-users', 'bob@example.com'])).stdout).toContain('takes effect only while the user is an administrator');
    expect((await ws.cli(['grant-create-users', 'bob@example.com', '--revoke'])).stdout).toContain('may no longer create users.');

    const extra = await ws.cli(['api-key', 'ada@example.com']);
    expect(extra.code).toBe(0);
    const adaSecondKey = line(extra.stdout, 'API key')!;
    expect(adaSecondKey).toMatch(/^[A-Za-z0-9]{32}$/);

    const bobOldKey = line(bob.stdout, 'API key')!;
    const replaced = await ws.cli(['api-key', 'bob@example.com', '--regenerate']);
    expect(replaced.stdout).toMatch(/^Replaced every API key of Bob Builder/);
    const bobNewKey = line(replaced.stdout, 'API key')!;

    expect((await ws.cli(['deactivate', 'bob@example.com'])).stdout).toMatch(/^Deactivated Bob Builder/);
    expect(await ws.cli(['deactivate', 'bob@example.com'])).toEqual({
      code: 1,
      stdout: '',
      stderr: expect.stringContaining('is already deactivated.'),
    });
    expect((await ws.cli(['api-key', 'bob@example.com'])).stderr).toContain('is deactivated; reactivate the account first.');
    expect(await ws.cli(['deactivate', '1'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: could not deactivate the user: Cannot deactivate the only organization owner\n',
    });

    const server = await ws.start();
    try {
      const ts = asTestServer(server);
      // Both of Ada's keys work; she is an administrator who may create users.
      for (const apiKey of [adaFirstKey, adaSecondKey]) {
        const me = assertSuccess(await client(ts, { email: 'ada@example.com', apiKey }).get('/users/me'));
        expect(me).toMatchObject({ user_id: adaId, role: 200, is_admin: true });
      }
      const ada = { email: 'ada@example.com', apiKey: adaFirstKey };
      assertSuccess(await client(ts, ada).post('/users', { email: 'carol@example.com', password: 'carols-password', full_name: 'Carol Created' }));
      const login = await client(ts, null).post('/fetch_api_key', { username: 'ada@example.com', password: adaPassword });
      expect(assertSuccess(login).user_id).toBe(adaId);

      // Bob is deactivated; the role change reached his system groups as an API change would.
      assertError(await client(ts, { email: 'bob@example.com', apiKey: bobNewKey }).get('/users/me'), 'UNAUTHORIZED', 'Account is deactivated', 401);
      const bobRow = await server.deps.knex('users').where({ delivery_email: 'bob@example.com' }).first();
      expect(bobRow).toMatchObject({ role: 300, is_active: false, can_create_users: false });
      const groups = await server.deps.knex('user_group_members').join('user_groups', 'user_groups.id', 'group_id').where('user_id', bobRow.id).pluck('name');
      expect(groups.sort()).toEqual(['role:moderators']);
    } finally {
      await server.close();
    }

    expect((await ws.cli(['reactivate', 'bob@example.com'])).stdout).toMatch(/^Reactivated Bob Builder <bob@example\.com> \(user \d+\)\.\n$/);
    expect((await ws.cli(['reactivate', 'bob@example.com'])).stdout).toContain('is already active.');

    const again = await ws.start();
    try {
      const ts = asTestServer(again);
      // Regenerating replaced Bob's first key; the new one works again now he is active.
      assertError(await client(ts, { email: 'bob@example.com', apiKey: bobOldKey }).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
      expect(assertSuccess(await client(ts, { email: 'bob@example.com', apiKey: bobNewKey }).get('/users/me')).role).toBe(300);
      const login = await client(ts, null).post('/fetch_api_key', { username: 'bob@example.com', password: 'bobs-password' });
      assertSuccess(login);
    } finally {
      await again.close();
    }
  });

  test('the embedded database is refused while a server uses it; PostgreSQL is shared', async () => {
    const server = await ws.start();
    try {
      const res = await ws.cli(['set-role', 'bob@example.com', 'member']);
      if (process.env.TEST_DATABASE_URL) {
        expect(res).toMatchObject({ code: 0, stderr: '' });
        expect((await server.deps.knex('users').where({ delivery_email: 'bob@example.com' }).first()).role).toBe(400);
      } else {
        expect(res.code).toBe(1);
        expect(res.stderr).toMatch(new RegExp(`^error: The embedded database in .+ is in use by process ${process.pid}\\. Stop that process first`));
        expect((await server.deps.knex('users').where({ delivery_email: 'bob@example.com' }).first()).role).toBe(300);
      }
    } finally {
      await server.close();
    }
  });
});
