import { ChildProcess, fork } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { Account } from './events-latency-server';

/**
 * Event delivery latency and memory of idle and waiting event queues.
 *
 * A server (child process) with N users, each holding one event queue; the load generator (this
 * process) keeps one GET /events waiting per queue, renames a user (PATCH /users/{id}, an event
 * for everyone) and records when each waiting request returns. The same with N GraphQL
 * subscriptions. Memory: the server's JS heap per idle registered queue and per waiting long-poll,
 * next to a bare node:http server holding the same number of requests.
 *
 *   node dist/bench/events-latency.js [--queues=1000] [--rounds=5]
 * BENCH_DATABASE_URL / BENCH_REDIS_URL run the server on PostgreSQL / with Redis.
 */
export interface EventsLatencyOptions {
  queues?: number;
  rounds?: number;
}

export interface LatencyFigures {
  /** First delivery: the action's own cost plus one hop. */
  minMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

export interface EventsLatencyReport {
  queues: number;
  rounds: number;
  longPoll: LatencyFigures;
  graphql: LatencyFigures;
  bytesPerIdleQueue: number;
  bytesPerWaitingPoll: number;
  bytesPerBareRequest: number;
}

type Reply = { id: number; result?: any; error?: string };

/** The server child and a request/response channel over IPC. */
class ServerProcess {
  private nextId = 0;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: ChildProcess) {
    child.on('message', (reply: Reply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.error) waiter.reject(new Error(reply.error));
      else waiter.resolve(reply.result);
    });
  }

  static spawn(): ServerProcess {
    const file = path.join(__dirname, `events-latency-server${path.extname(__filename)}`);
    const child = fork(file, [], { execArgv: [...process.execArgv, '--expose-gc'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    return new ServerProcess(child);
  }

  call<T = any>(cmd: string, extra: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, cmd, ...extra });
    });
  }

  async stop(): Promise<void> {
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    await this.call('stop');
    await exited;
  }
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

function basic(account: Account): string {
  return `Basic ${Buffer.from(`${account.email}:${account.apiKey}`).toString('base64')}`;
}

function request(url: string, method: string, auth: string, form?: Record<string, string>): Promise<any> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers: { authorization: auth, ...(body ? { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (error) {
          reject(error);
        }
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function figures(samples: number[]): LatencyFigures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { minMs: sorted[0], p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted[sorted.length - 1], samples: sorted.length };
}

async function measureParley(queues: number, rounds: number) {
  const server = ServerProcess.spawn();
  try {
    const { url, owner, users } = await server.call<{ url: string; owner: Account; users: Account[] }>('start', { mode: 'parley', users: queues });
    const renamed = users[0];
    const rename = (round: number) => request(`${url}/api/v1/users/${renamed.id}`, 'PATCH', basic(owner), { full_name: `Renamed ${round}` });

    // Idle queues.
    const before = await server.call('memory');
    const registered: { account: Account; queueId: string; lastEventId: number }[] = [];
    await inBatches(users, 25, async (account) => {
      const body = await request(`${url}/api/v1/register`, 'POST', basic(account), { event_types: '["realm_user"]', fetch_event_types: '[]' });
      if (body.result !== 'success') throw new Error(`register failed: ${JSON.stringify(body)}`);
      registered.push({ account, queueId: body.queue_id, lastEventId: body.last_event_id });
    });
    const idle = await server.call('memory');

    // Waiting long-polls, one per queue.
    const waitingCount = async () => (await server.call('waiting')).waiting as number;
    let arrivals: number[] = [];
    const poll = (q: (typeof registered)[number]) =>
      request(`${url}/api/v1/events?queue_id=${q.queueId}&last_event_id=${q.lastEventId}`, 'GET', basic(q.account)).then((body) => {
        arrivals.push(performance.now());
        const events = body.events as { id: number }[];
        if (events.length > 0) q.lastEventId = events[events.length - 1].id;
      });
    let polls = registered.map(poll);
    await until(async () => (await waitingCount()) === queues, 'every long-poll to wait');
    const waiting = await server.call('memory');

    const longPollSamples: number[] = [];
    for (let round = 0; round < rounds; round++) {
      arrivals = [];
      const t0 = performance.now();
      await rename(round);
      await Promise.all(polls);
      longPollSamples.push(...arrivals.map((t) => t - t0));
      if (round < rounds - 1) {
        polls = registered.map(poll);
        await until(async () => (await waitingCount()) === queues, 'every long-poll to wait again');
      }
    }

    // The queues are done with (in Redis they would otherwise linger until collected).
    await inBatches(registered, 50, async (q) => {
      await request(`${url}/api/v1/events`, 'DELETE', basic(q.account), { queue_id: q.queueId });
    });

    // GraphQL subscriptions, one per user.
    const clients: Client[] = [];
    const graphqlSamples: number[] = [];
    let received = 0;
    let t0 = 0;
    const wsUrl = `${url.replace(/^http/, 'ws')}/graphql`;
    await inBatches(users, 50, async (account) => {
      const client = createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: basic(account) }, retryAttempts: 0, keepAlive: 0 });
      clients.push(client);
      client.subscribe(
        { query: 'subscription { events(eventTypes: ["realm_user"]) }' },
        {
          next: () => {
            graphqlSamples.push(performance.now() - t0);
            received++;
          },
          error: (error) => console.error('subscription failed', error),
          complete: () => {},
        },
      );
    });
    await until(async () => (await server.call('listeners')).listeners === queues, 'every subscription to start');
    for (let round = 0; round < rounds; round++) {
      const expected = received + queues;
      t0 = performance.now();
      await rename(rounds + round);
      await until(async () => received >= expected, 'every subscriber to receive the event');
    }
    await Promise.all(clients.map((c) => c.dispose()));

    return {
      longPoll: figures(longPollSamples),
      graphql: figures(graphqlSamples),
      bytesPerIdleQueue: (idle.heapUsed - before.heapUsed) / queues,
      bytesPerWaitingPoll: (waiting.heapUsed - idle.heapUsed) / queues,
    };
  } finally {
    await server.stop();
  }
}

async function measureBare(requests: number): Promise<number> {
  const server = ServerProcess.spawn();
  try {
    const { url } = await server.call<{ url: string }>('start', { mode: 'bare' });
    const before = await server.call('memory');
    const pending = Array.from({ length: requests }, () => request(url, 'GET', 'Basic eDp5'));
    await until(async () => (await server.call('waiting')).waiting === requests, 'the bare server to hold every request');
    const holding = await server.call('memory');
    await server.call('release');
    await Promise.all(pending);
    return (holding.heapUsed - before.heapUsed) / requests;
  } finally {
    await server.stop();
  }
}

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export async function run(options: EventsLatencyOptions = {}): Promise<EventsLatencyReport> {
  const queues = options.queues ?? 1000;
  const rounds = options.rounds ?? 5;
  const parley = await measureParley(queues, rounds);
  const bytesPerBareRequest = await measureBare(queues);
  agent.destroy();
  const report: EventsLatencyReport = { queues, rounds, ...parley, bytesPerBareRequest };

  const database = process.env.BENCH_DATABASE_URL ? 'PostgreSQL' : 'PGlite';
  const bus = process.env.BENCH_REDIS_URL ? 'Redis' : 'in-process';
  console.log(`\n## events-latency: ${queues} queues, ${rounds} rounds (${database}, ${bus} bus)`);
  console.log('event delivery after PATCH /users/{id} (full_name), to every waiting client:');
  const rows = [
    ['', 'first ms', 'p50 ms', 'p99 ms', 'max ms', 'deliveries'],
    ...(
      [
        ['GET /events long-poll', report.longPoll],
        ['GraphQL subscription', report.graphql],
      ] as const
    ).map(([label, f]) => [label, fmt(f.minMs), fmt(f.p50Ms), fmt(f.p99Ms), fmt(f.maxMs), String(f.samples)]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
  console.log('server JS heap:');
  console.log(`  per idle registered queue:   ${fmt(report.bytesPerIdleQueue / 1024, 2)} KiB`);
  console.log(`  per waiting GET /events:     ${fmt(report.bytesPerWaitingPoll / 1024, 2)} KiB`);
  console.log(`  per held request, bare node:http server: ${fmt(report.bytesPerBareRequest / 1024, 2)} KiB`);
  return report;
}

if (require.main === module) {
  const arg = (name: string) => Number(/=(\d+)$/.exec(process.argv.find((a) => a.startsWith(`--${name}=`)) ?? '')?.[1]) || undefined;
  run({ queues: arg('queues'), rounds: arg('rounds') }).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
