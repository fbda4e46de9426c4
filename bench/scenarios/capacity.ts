import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { Model, SimUser, WindowReport } from '../lib/capacity-client';
import { channelWithSubscribers, until, type Account } from '../lib/api';
import { machineCpu } from '../lib/machine-cpu';
import type { ParleyProcess } from '../lib/servers';
import { numberOption, type BenchContext, type Scenario, type Table } from '../scenario';

/**
 * How many simulated Zulip users one machine holds. Users are added in steps; each behaves as a
 * client does (bench/lib/capacity-client.ts; the model and its sources are in bench/README.md):
 * registers, keeps a GET /events waiting, reports presence, fetches a channel's newest messages,
 * sends to its channel with typing notifications, and marks what it reads. After each step has
 * settled, one window measures sends and deliveries; a step holds while p99 of both stays within
 * 2 s, their means within 100 ms and under 0.1 % of requests fail. The largest step that holds is
 * the figure. Runs on the harness's database with one server process, and (PostgreSQL with
 * BENCH_REDIS_URL) again with two processes sharing the database and Redis.
 */
const P99_LIMIT_MS = 2000;
const MEAN_LIMIT_MS = 100;
const FAILURE_LIMIT = 0.001;

interface StepFigures {
  users: number;
  rps: number;
  send: { p50: number; p99: number; mean: number };
  delivery: { p50: number; p99: number; mean: number };
  others: { p50: number; p99: number };
  failures: number;
  firstFailure: string | null;
  serverCpu: number;
  clientCpu: number;
  /** Every process named postgres on this machine (0 on PGlite, which runs inside the server). */
  databaseCpu: number;
  /** The whole machine, as a share of one core (its ceiling is the number of cores). */
  machineCpu: number;
  holds: boolean;
}

export const scenario: Scenario = {
  name: 'capacity',
  description: 'simulated Zulip clients added in steps until sends or deliveries pass p99 2 s or mean 100 ms',
  options: {
    steps: 'users at each step, comma-separated (default 500,1000,2000,3500,5000,7000)',
    compress: 'time compression: every interval of the model is divided by it (default 1, real time)',
    window: 'seconds measured per step, after it settles (default 60)',
    settle: "seconds between adding a step's users and measuring (default 45)",
    clients: 'load-generator processes (default 3)',
    'channel-size': 'subscribers of each channel; users are spread over channels of this size (default 50)',
  },
  async run(ctx) {
    const steps = (ctx.options.steps ?? '500,1000,2000,3500,5000,7000').split(',').map((s) => Number(s.replace(/_/g, '')));
    if (steps.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`--steps must be positive whole numbers, not ${ctx.options.steps}`);
    const compress = numberOption(ctx, 'compress', 1);
    const model: Model = {
      presenceEverySeconds: 60 / compress,
      sendEverySeconds: 300 / compress,
      fetchEverySeconds: 600 / compress,
      readShare: 0.3,
      startSpreadSeconds: 30,
    };
    const runs: { label: string; figures: StepFigures[] }[] = [];
    runs.push({ label: `${ctx.database}, one process`, figures: await ramp(ctx, steps, model, 1) });
    const redisUrl = process.env.BENCH_REDIS_URL;
    if (ctx.database === 'postgres' && redisUrl) {
      runs.push({ label: 'postgres + Redis, two processes', figures: await ramp(ctx, steps, model, 2, redisUrl) });
    }
    const largest = (figures: StepFigures[]) => {
      let held = 0;
      for (const f of figures) {
        if (!f.holds) break;
        held = f.users;
      }
      return held;
    };
    const tables: Table[] = runs.map(({ label, figures }) => ({
      title: `${label}: time compression ${compress}×, a measured window of ${numberOption(ctx, 'window', 60)} s per step`,
      columns: [
        'users',
        'req/s',
        'send p50',
        'send p99',
        'send mean',
        'delivery p50',
        'delivery p99',
        'delivery mean',
        'other p99',
        'failures',
        'server CPU',
        'load gen CPU',
        'database CPU',
        'machine CPU',
        'holds',
      ],
      rows: figures.map((f) => [
        String(f.users),
        f.rps,
        f.send.p50,
        f.send.p99,
        f.send.mean,
        f.delivery.p50,
        f.delivery.p99,
        f.delivery.mean,
        f.others.p99,
        String(f.failures),
        `${(f.serverCpu * 100).toFixed(0)} %`,
        `${(f.clientCpu * 100).toFixed(0)} %`,
        `${(f.databaseCpu * 100).toFixed(0)} %`,
        `${(f.machineCpu * 100).toFixed(0)} % of ${os.cpus().length * 100} %`,
        f.holds ? 'yes' : 'no',
      ]),
    }));
    const notes = runs.flatMap(({ label, figures }) =>
      figures.filter((f) => f.firstFailure).map((f) => `${label}, ${f.users} users, first failure: ${f.firstFailure}`),
    );
    notes.push(
      'latencies in ms; CPU as a share of one core over the window (server: all its processes; load generator: all its processes; database: every local postgres process; machine: all of it)',
    );
    // The goal is set for PostgreSQL; on the embedded database the figure is reported only.
    const goalRuns = ctx.database === 'postgres' ? runs : [];
    for (const { label, figures } of runs.filter((r) => !goalRuns.includes(r)))
      notes.unshift(`largest number of users that holds, ${label}: ${largest(figures)}`);
    return {
      results: [],
      tables,
      goals: goalRuns.map(({ label, figures }) => ({
        label: `largest number of users that holds, ${label}`,
        value: largest(figures),
        atLeast: 5000,
        unit: 'users',
      })),
      notes,
    };
  },
};

async function ramp(ctx: BenchContext, steps: number[], model: Model, processes: number, redisUrl?: string): Promise<StepFigures[]> {
  const windowSeconds = numberOption(ctx, 'window', 60);
  const settleSeconds = numberOption(ctx, 'settle', 45);
  const channelSize = numberOption(ctx, 'channel-size', 50);
  const clientCount = numberOption(ctx, 'clients', 3);
  const servers: ParleyProcess[] = [await ctx.startParley(redisUrl ? { redisUrl } : {})];
  for (let i = 1; i < processes; i++) servers.push(await ctx.startParley({ joinDatabaseOf: servers[0], redisUrl }));
  const clients = await Promise.all(Array.from({ length: clientCount }, () => startClient()));
  const figures: StepFigures[] = [];
  try {
    let users = 0;
    for (const target of steps) {
      ctx.log(`${clock()} ${processes} process(es): adding users ${users + 1}..${target}`);
      const accounts = await servers[0].call<Account[]>('createUsers', { count: target - users, prefix: `cap-${users}` });
      // Whole channels of `channelSize` subscribers (the last one smaller).
      const simulated: SimUser[] = [];
      for (let i = 0; i < accounts.length; i += channelSize) {
        const members = accounts.slice(i, i + channelSize);
        const channelId = await channelWithSubscribers(
          servers[0],
          `capacity ${users + i}`,
          members.map((a) => a.id),
        );
        members.forEach((a, j) => simulated.push({ ...a, url: servers[(users + i + j) % servers.length].url, channelId }));
      }
      simulated.forEach((user, i) => clients[i % clients.length].send({ type: 'add', users: [user], model }));
      users = target;
      let startFailure: string | null = null;
      await until(
        async () => {
          const counts = await Promise.all(clients.map((c) => c.started()));
          startFailure = counts.find((c) => c.firstStartFailure !== null)?.firstStartFailure ?? null;
          return counts.reduce((n, c) => n + c.started, 0) >= users;
        },
        'every user to start',
        600_000,
      ).catch((error: Error) => {
        throw new Error(startFailure ? `${error.message} (a register failed: ${startFailure})` : error.message);
      });
      await new Promise((r) => setTimeout(r, settleSeconds * 1000));
      const cpuBefore = await Promise.all(servers.map((s) => s.cpuMicros()));
      const machineBefore = machineCpu();
      ctx.log(`${clock()} ${users} users started and settled: measuring for ${windowSeconds} s`);
      clients.forEach((c) => c.send({ type: 'window' }));
      await new Promise((r) => setTimeout(r, windowSeconds * 1000));
      const reports = await Promise.all(clients.map((c) => c.report()));
      const cpuAfter = await Promise.all(servers.map((s) => s.cpuMicros()));
      const machineAfter = machineCpu();
      const step = figuresOf(
        users,
        reports,
        cpuAfter.reduce((n, c, i) => n + c - cpuBefore[i], 0),
        {
          busySeconds: machineAfter.busySeconds - machineBefore.busySeconds,
          postgresSeconds: machineAfter.postgresSeconds - machineBefore.postgresSeconds,
        },
      );
      figures.push(step);
      ctx.log(
        `${clock()} ${users} users: send p99 ${step.send.p99.toFixed(0)} ms, delivery p99 ${step.delivery.p99.toFixed(0)} ms, ` +
          `CPU server ${pct(step.serverCpu)}, load generators ${pct(step.clientCpu)}, database ${pct(step.databaseCpu)}, machine ${pct(step.machineCpu)}, ` +
          `${step.holds ? 'holds' : 'does not hold'}`,
      );
      if (!step.holds) break;
    }
  } finally {
    for (const c of clients) c.stop();
    for (const s of [...servers].reverse()) await s.stop();
  }
  return figures;
}

/** Wall-clock time in log lines, to match a step's window with database or system statistics. */
const clock = () => new Date().toISOString().slice(11, 19);
const pct = (share: number) => `${(share * 100).toFixed(0)} %`;

function figuresOf(users: number, reports: WindowReport[], serverCpuMicros: number, machine: { busySeconds: number; postgresSeconds: number }): StepFigures {
  const all = (key: 'sends' | 'deliveries' | 'others') => Float64Array.from(reports.flatMap((r) => r[key])).sort();
  const at = (sorted: Float64Array, q: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  const mean = (sorted: Float64Array) => (sorted.length === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / sorted.length);
  const sends = all('sends');
  const deliveries = all('deliveries');
  const others = all('others');
  const seconds = Math.max(...reports.map((r) => r.seconds));
  const requests = reports.reduce((n, r) => n + r.requests, 0);
  const failures = reports.reduce((n, r) => n + r.failures, 0);
  const send = { p50: at(sends, 0.5), p99: at(sends, 0.99), mean: mean(sends) };
  const delivery = { p50: at(deliveries, 0.5), p99: at(deliveries, 0.99), mean: mean(deliveries) };
  const holds =
    sends.length > 0 &&
    deliveries.length > 0 &&
    send.p99 <= P99_LIMIT_MS &&
    delivery.p99 <= P99_LIMIT_MS &&
    send.mean <= MEAN_LIMIT_MS &&
    delivery.mean <= MEAN_LIMIT_MS &&
    failures <= FAILURE_LIMIT * Math.max(1, requests);
  return {
    users,
    rps: requests / seconds,
    send,
    delivery,
    others: { p50: at(others, 0.5), p99: at(others, 0.99) },
    failures,
    firstFailure: reports.find((r) => r.firstFailure)?.firstFailure ?? null,
    serverCpu: serverCpuMicros / 1e6 / seconds,
    clientCpu: reports.reduce((n, r) => n + r.cpuMicros, 0) / 1e6 / seconds,
    databaseCpu: machine.postgresSeconds / seconds,
    machineCpu: machine.busySeconds / seconds,
    holds,
  };
}

interface Client {
  send(message: unknown): void;
  report(): Promise<WindowReport>;
  started(): Promise<{ started: number; firstStartFailure: string | null }>;
  stop(): void;
}

function ask<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise<T>((done) => {
    const onMessage = (message: { type: string } & T) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      done(message);
    };
    child.on('message', onMessage);
    child.send({ type });
  });
}

function startClient(): Promise<Client> {
  const child: ChildProcess = fork(path.join(__dirname, '..', 'lib', 'capacity-client.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`a load-generator process exited with code ${code}`)));
    child.once('message', () =>
      resolve({
        send: (message) => child.send(message as never),
        report: () => ask<WindowReport>(child, 'report'),
        started: async () => ask<{ started: number; firstStartFailure: string | null }>(child, 'started'),
        stop: () => {
          if (child.connected) child.send({ type: 'stop' });
        },
      }),
    );
  });
}
