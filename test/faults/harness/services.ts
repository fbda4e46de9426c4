import { ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../helpers/entry-point';

/**
 * A PostgreSQL and a Redis of the fault suite's own, in temporary directories on free loopback
 * ports, that the tests restart under load. Commands run asynchronously, so the load keeps running
 * while a restart waits.
 */
const run = promisify(execFile);
const asRoot = process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: in CI (root) its programs run as the `postgres` user. */
function pgCommand(program: string, args: string[]): [string, string[]] {
  const bin = path.join(postgresBinDir(), program);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

function postgresBinDir(): string {
  const base = '/usr/lib/postgresql';
  const versions = fs
    .readdirSync(base)
    .filter((name) => fs.existsSync(path.join(base, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error(`no PostgreSQL server programs under ${base}`);
  return path.join(base, versions[0], 'bin');
}

export interface Postgres {
  url: string;
  /** `pg_ctl restart -m fast`: every connection is closed, the server comes back on the same port. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startPostgres(): Promise<Postgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-faults-pg-'));
  const dataDir = path.join(dir, 'data');
  if (asRoot) await run('chown', ['postgres:postgres', dir]);
  const port = await freePort();
  const pg = async (program: string, args: string[]) => {
    const [command, argv] = pgCommand(program, args);
    await run(command, argv, { cwd: dir, timeout: 120_000 });
  };
  await pg('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  // fsync off only saves disk flushes; a restart still closes every connection and recovers.
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off -c max_connections=200`;
  const log = path.join(dir, 'postgres.log');
  await pg('pg_ctl', ['start', '-D', dataDir, '-w', '-t', '120', '-l', log, '-o', options]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    restart: () => pg('pg_ctl', ['restart', '-D', dataDir, '-m', 'fast', '-w', '-t', '120', '-l', log, '-o', options]),
    async stop() {
      await pg('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w', '-t', '60']).catch(() => undefined);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface RedisServer {
  url: string;
  /**
   * Stops Redis (SIGTERM, as a service manager does) and starts it again on the same port and
   * directory; `appendonly` chooses how the new one starts (what it reloads).
   */
  restart(options?: { appendonly?: boolean }): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedis(): Promise<RedisServer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-faults-redis-'));
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async (appendonly: boolean) => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', appendonly ? 'yes' : 'no'];
    const started = spawn('/usr/bin/redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    await new Promise<void>((resolve, reject) => {
      started.stdout?.on('data', (chunk) => {
        output += chunk;
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.stderr?.on('data', (chunk) => (output += chunk));
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
    });
    child = started;
  };
  const stop = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
    child = null;
  };
  await start(false);
  return {
    url: `redis://127.0.0.1:${port}`,
    async restart(options = {}) {
      await stop();
      await start(options.appendonly ?? false);
    },
    async stop() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
