import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEntryPoint } from '../helpers/entry-point';

/** Start-ups that cannot work end with one line saying why and an exit code, never a stack trace. */
const root = path.resolve(__dirname, '../..');

function runToExit(port: number, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, 'src/main.ts')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })));
}

const noStack = (output: string) => expect(output).not.toMatch(/^\s+at /m);

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-startup-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a busy port: one line, exit code 3, and no owner created until a start that listens', async () => {
  const port = await freePort();
  const blocker = net.createServer().listen(port, '127.0.0.1');
  await new Promise((resolve) => blocker.once('listening', resolve));
  let result;
  try {
    result = await runToExit(port, { DATA_DIR: dataDir });
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
  expect(result.code).toBe(3);
  expect(result.output).toContain(`Port ${port} on 127.0.0.1 is already in use (is Parley already running?). Set PORT to another port.`);
  expect(result.output).not.toContain('Created the organization owner');
  noStack(result.output);

  // The owner is created and shown by the next start, the first to listen.
  const server = await startEntryPoint(port, { DATA_DIR: dataDir });
  try {
    const output = server.output();
    expect(output).toContain('Created the organization owner:');
    expect(output).toMatch(/password: \S{8,}/);
    expect(output).toContain(`zuliprc:  ${path.join(dataDir, 'zuliprc')}`);
    expect(output).toContain(`GraphQL: http://127.0.0.1:${port}/graphql`);
    // Listening is logged before... and the owner is shown after the port is taken.
    expect(fs.existsSync(path.join(dataDir, 'owner-password-unseen'))).toBe(false);
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
  }
}, 180_000);

test('a data directory in use by another server: one line, exit code 4', async () => {
  const port = await freePort();
  const first = await startEntryPoint(port, { DATA_DIR: dataDir });
  try {
    const result = await runToExit(await freePort(), { DATA_DIR: dataDir });
    expect(result.code).toBe(4);
    expect(result.output).toContain(`The embedded database in ${path.join(dataDir, 'pgdata')} is in use by process ${first.child.pid}.`);
    noStack(result.output);
  } finally {
    first.child.kill('SIGTERM');
    await first.exited;
  }
}, 180_000);

test('a database that cannot be reached: one line naming it without its password, exit code 5', async () => {
  const closedPort = await freePort();
  const result = await runToExit(await freePort(), { DATA_DIR: dataDir, DATABASE_URL: `postgres://parley:secret-pw@127.0.0.1:${closedPort}/chat` });
  expect(result.code).toBe(5);
  expect(result.output).toContain(
    `Cannot reach the database at 127.0.0.1:${closedPort}/chat (ECONNREFUSED). Check DATABASE_URL and that PostgreSQL is running.`,
  );
  expect(result.output).not.toContain('secret-pw');
  noStack(result.output);
}, 120_000);

test('an owner whose password was never shown: the next start says how to set one', async () => {
  const port = await freePort();
  const first = await startEntryPoint(port, { DATA_DIR: dataDir, PARLEY_OWNER_EMAIL: 'boss@example.com' });
  first.child.kill('SIGTERM');
  await first.exited;
  // As a start that died between creating the owner and showing it leaves it.
  fs.writeFileSync(path.join(dataDir, 'owner-password-unseen'), 'boss@example.com\n');
  const again = await startEntryPoint(port, { DATA_DIR: dataDir, PARLEY_OWNER_EMAIL: 'boss@example.com' });
  try {
    expect(again.output()).toContain('The organization owner boss@example.com was created by an earlier start that stopped before showing its password.');
    expect(again.output()).toContain('Set one with: npm run cli -- reset-password boss@example.com');
    expect(fs.existsSync(path.join(dataDir, 'owner-password-unseen'))).toBe(false);
  } finally {
    again.child.kill('SIGTERM');
    await again.exited;
  }
}, 180_000);

describe('a service that cannot be reached at start: one line naming it without its password, its own exit code', () => {
  const cases: [string, (port: number) => Record<string, string>, number, (port: number) => string][] = [
    [
      'Redis',
      (port) => ({ REDIS_URL: `redis://:secret-pw@127.0.0.1:${port}` }),
      7,
      (port) => `Cannot reach Redis at 127.0.0.1:${port} (ECONNREFUSED). Check REDIS_URL and that Redis is running.`,
    ],
    [
      'the SMTP server',
      (port) => ({ SMTP_URL: `smtp://parley:secret-pw@127.0.0.1:${port}` }),
      8,
      (port) => `Cannot reach the SMTP server at 127.0.0.1:${port} (ECONNREFUSED). Check SMTP_URL and that the mail server is running.`,
    ],
    [
      'the directory server',
      (port) => ({
        PARLEY_LDAP_URL: `ldap://127.0.0.1:${port}`,
        PARLEY_LDAP_SEARCH_BASE: 'dc=example,dc=com',
        PARLEY_LDAP_BIND_DN: 'cn=parley,dc=example,dc=com',
        PARLEY_LDAP_BIND_PASSWORD: 'secret-pw',
      }),
      9,
      (port) => `Cannot reach the directory server at 127.0.0.1:${port} (ECONNREFUSED). Check PARLEY_LDAP_URL and that the directory server is running.`,
    ],
  ];
  test.each(cases)(
    '%s',
    async (_name, env, exitCode, line) => {
      const closedPort = await freePort();
      const result = await runToExit(await freePort(), { DATA_DIR: dataDir, ...env(closedPort) });
      expect(result.code).toBe(exitCode);
      expect(result.output).toContain(line(closedPort));
      expect(result.output).not.toContain('secret-pw');
      noStack(result.output);
      // Stopped before the database was opened: nothing was created.
      expect(fs.existsSync(path.join(dataDir, 'pgdata'))).toBe(false);
    },
    60_000,
  );
});
