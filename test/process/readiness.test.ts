import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/entry-point';
import { freshPostgresDatabase } from '../helpers/postgres';

/**
 * Nothing is served as ready before start-up has finished: a client that polls server_settings and
 * logs in with the owner's password from the moment the port opens never gets a 401, and once
 * server_settings answers, the login succeeds. Whatever came before is a 503 with Retry-After.
 * The race shows on PostgreSQL, where a login's lookup can run on another connection before the
 * owner's row is committed; PGlite's one connection queues it behind the owner's creation.
 */
const root = path.resolve(__dirname, '../..');
const PASSWORD = 'owner-password-123';

interface Answer {
  what: 'settings' | 'login';
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

/** Whether a connection to the port is accepted (failing fast, or after 5 ms without an answer). */
function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => setTimeout(() => done(false), 5));
  });
}

async function ask(url: string, what: Answer['what']): Promise<Answer | null> {
  try {
    const res =
      what === 'settings'
        ? await fetch(`${url}/api/v1/server_settings`)
        : await fetch(`${url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username: 'owner@example.com', password: PASSWORD }) });
    return { what, status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as Record<string, unknown> };
  } catch {
    // The connection was refused or closed.
    return null;
  }
}

test('from the moment the port opens: 503 with Retry-After, then served; never a refused login', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-ready-'));
  // A fresh database either way: the server migrates it and creates the owner.
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, 'src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATA_DIR: dataDir,
      PARLEY_OWNER_PASSWORD: PASSWORD,
      PARLEY_RATE_LIMITING: 'false',
      ...(pg ? { DATABASE_URL: pg.url } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve((exited = true) && undefined)));
  const url = `http://127.0.0.1:${port}`;
  const answers: Answer[] = [];
  try {
    // The port opens after migrations: watch for it with bare connections (cheap, so often), then
    // ask both questions at once, again and again, until server_settings says the server is there.
    while (!(await portOpen(port))) {
      if (exited) throw new Error(`the server exited:\n${output}`);
    }
    let served = false;
    const client = async () => {
      while (!served) {
        const pair = await Promise.all([ask(url, 'settings'), ask(url, 'login')]);
        for (const answer of pair) if (answer) answers.push(answer);
        if (pair[0]?.status === 200) served = true;
        if (exited) throw new Error(`the server exited:\n${output}`);
      }
    };
    await Promise.all(Array.from({ length: 4 }, client));
    const login = await ask(url, 'login');
    expect(login).toMatchObject({ status: 200, body: { result: 'success', email: 'owner@example.com' } });

    expect(answers.filter((answer) => answer.status === 401)).toEqual([]);
    for (const answer of answers) {
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(answer.retryAfter).toBe('5');
        expect(answer.body).toEqual({ result: 'error', msg: 'The server is starting; try again shortly.', code: 'SERVER_NOT_READY' });
      }
    }
    // The port opened before start-up had finished (the owner is created only once it is open).
    expect(answers.length).toBeGreaterThan(0);
  } finally {
    child.kill('SIGTERM');
    await exit;
    fs.rmSync(dataDir, { recursive: true, force: true });
    await pg?.drop();
  }
}, 180_000);
