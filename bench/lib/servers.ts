import { ChildProcess, fork } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import type { ReadyMessage, ReplyMessage } from '../servers/child';

/**
 * Servers under load run in child processes, so the load generator and the server never share an
 * event loop (the figures would otherwise measure both at once).
 */
export type DatabaseKind = 'pglite' | 'postgres';

export interface ServerProcess {
  url: string;
  /** CPU time (user + system) the server process has used so far. */
  cpuMicros(): Promise<number>;
  /** Calls a command of the server child over IPC (see bench/servers/*.ts for each one's commands). */
  call<T = unknown>(name: string, args?: unknown): Promise<T>;
  stop(): Promise<void>;
}

export interface ChildOptions {
  /** Start the child with --expose-gc, so its `memory` command collects garbage first. */
  exposeGc?: boolean;
}

export interface BaselineOptions extends ChildOptions {
  /** Hold every request until one arrives at /trigger (see bench/servers/baseline.ts). */
  hold?: boolean;
}

export interface ParleyProcess extends ServerProcess {
  /** The organization owner created on the fresh database. */
  owner: { email: string; apiKey: string; userId: number };
  /** `Authorization` header value for the owner. */
  ownerAuth: string;
  /** What the seed function returned, when one was given. */
  fixtures?: unknown;
  /** DATABASE_URL of its database, or null on the embedded one. */
  databaseUrl: string | null;
}

export interface ParleyOptions extends ChildOptions {
  /**
   * Absolute path of a built module exporting `seed(server: RunningServer)`, run in the server's
   * process once it has started and before it is announced ready: large fixtures go straight into
   * the database (the embedded one can only be reached from that process).
   */
  seed?: string;
  /** More environment for the server (e.g. the email and push services it should use). */
  env?: Record<string, string>;
  /**
   * Start this server on the database of one already running (PostgreSQL only), for a deployment
   * of several processes; pass `redisUrl` too so they share events.
   */
  joinDatabaseOf?: ParleyProcess;
  /** REDIS_URL for the server: the event bus and queues of a several-process deployment. */
  redisUrl?: string;
}

export type BaselineProcess = ServerProcess;

export function basicAuth(email: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
}

const STOP_TIMEOUT_MS = 20_000;

async function startChild(
  script: string,
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<{ ready: ReadyMessage; handle: Omit<ServerProcess, 'url'> }> {
  const child = fork(path.join(__dirname, '..', 'servers', script), [], {
    env: { ...process.env, ...env },
    execArgv,
    // Servers write their log (access lines included, as deployed) to stdout; the report stays
    // readable and the lines still cost what they cost. Errors go to stderr, which is shown.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const ready = await new Promise<ReadyMessage>((resolve, reject) => {
    child.once('message', (message: ReadyMessage) => resolve(message));
    child.once('exit', (code) => reject(new Error(`${script} exited with code ${code} before it was ready`)));
  });
  let nextId = 0;
  const call = <T>(name: string, args?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      const onMessage = (message: ReplyMessage) => {
        if (message?.type !== 'reply' || message.id !== id) return;
        child.off('message', onMessage);
        if (message.error !== undefined) reject(new Error(`${script} ${name}: ${message.error}`));
        else resolve(message.result as T);
      };
      child.on('message', onMessage);
      child.send({ type: 'call', id, name, args });
    });
  const cpuMicros = () =>
    new Promise<number>((resolve) => {
      const onMessage = (message: { type?: string; micros?: number }) => {
        if (message?.type !== 'cpu') return;
        child.off('message', onMessage);
        resolve(message.micros!);
      };
      child.on('message', onMessage);
      child.send({ type: 'cpu' });
    });
  return { ready, handle: { cpuMicros, call, stop: () => stopChild(child, script) } };
}

function stopChild(child: ChildProcess, script: string): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      console.error(`${script} did not stop within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; killing it`);
      child.kill('SIGKILL');
    }, STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export async function startBaseline(body: string, options: BaselineOptions = {}): Promise<BaselineProcess> {
  const env: Record<string, string> = { BENCH_BODY: body };
  if (options.hold) env.BENCH_HOLD = '1';
  const { ready, handle } = await startChild('baseline.js', env, options.exposeGc ? ['--expose-gc'] : []);
  return { url: ready.url, ...handle };
}

/** A fresh database per server: a temporary PGlite directory, or a new PostgreSQL database. */
async function freshDatabase(kind: DatabaseKind, adminUrl: string | null): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  const removeDir = () => fs.rmSync(dir, { recursive: true, force: true });
  if (kind === 'pglite') return { env: { DATA_DIR: dir }, drop: async () => removeDir() };
  if (!adminUrl) throw new Error('BENCH_DATABASE_URL is not set');
  const name = `parley_bench_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const knex = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
    try {
      await knex.raw(sql);
    } finally {
      await knex.destroy();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString(), DATA_DIR: dir },
    drop: async () => {
      removeDir();
      await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/**
 * Load generators send far more than Zulip's limits allow a user: benchmarked servers run with rate
 * limiting off, unless BENCH_RATE_LIMITING=1 (which keeps the environment's PARLEY_RATE_LIMIT_*
 * rules, to measure what counting costs).
 */
function rateLimiting(): Record<string, string> {
  return process.env.BENCH_RATE_LIMITING === '1' ? { PARLEY_RATE_LIMITING: 'true' } : { PARLEY_RATE_LIMITING: 'false' };
}

/** A DATA_DIR of its own on a database another server created (which drops the database). */
function joinedDatabase(other: ParleyProcess): { env: Record<string, string>; drop(): Promise<void> } {
  if (!other.databaseUrl) throw new Error('only servers on PostgreSQL can share a database');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-bench-'));
  return { env: { DATABASE_URL: other.databaseUrl, DATA_DIR: dir }, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export async function startParley(kind: DatabaseKind, adminUrl: string | null, options: ParleyOptions = {}): Promise<ParleyProcess> {
  const db = options.joinDatabaseOf ? joinedDatabase(options.joinDatabaseOf) : await freshDatabase(kind, adminUrl);
  if (options.redisUrl) db.env.REDIS_URL = options.redisUrl;
  // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the Parley process there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`] : [];
  let started;
  try {
    const seed: Record<string, string> = options.seed ? { BENCH_SEED: options.seed } : {};
    started = await startChild('parley.js', { ...db.env, ...seed, PORT: '0', HOST: '127.0.0.1', ...rateLimiting(), ...(options.env ?? {}) }, [
      ...profile,
      ...(options.exposeGc ? ['--expose-gc'] : []),
    ]);
  } catch (error) {
    await db.drop();
    throw error;
  }
  const { ready, handle } = started;
  // A server joining another's database finds the owner already made.
  const owner = ready.owner ?? options.joinDatabaseOf!.owner;
  return {
    url: ready.url,
    owner,
    ownerAuth: basicAuth(owner.email, owner.apiKey),
    fixtures: ready.fixtures,
    databaseUrl: db.env.DATABASE_URL ?? null,
    cpuMicros: handle.cpuMicros,
    call: handle.call,
    stop: async () => {
      await handle.stop();
      await db.drop();
    },
  };
}
