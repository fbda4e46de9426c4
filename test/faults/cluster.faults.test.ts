import Redis from 'ioredis';
import { waitUntil } from '../helpers/wait';
import { Cluster, FaultResult, runFault, startCluster } from './harness/cluster';

/**
 * Two Parley processes on one PostgreSQL and one Redis under a steady load of sends, reads and
 * long-polling event queues, while one process dies or stops, or PostgreSQL or Redis restarts.
 */
let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster();
}, 240_000);
afterAll(async () => {
  await cluster?.close();
}, 120_000);

/** What holds after every fault: nothing acknowledged lost or doubled, and no failure outside it. */
function expectNothingLost({ figures }: FaultResult) {
  expect(figures).toMatchObject({
    messagesLost: 0,
    messagesStoredTwice: 0,
    deliveriesMissing: 0,
    deliveryDuplicates: 0,
    failedOutsideFault: 0,
    clientsWithoutQueue: 0,
  });
  for (const ms of Object.values(figures.recoveryMs)) expect(ms).not.toBeNull();
}

/** The process that was not touched answered every call during the fault. */
function expectServedThroughout(result: FaultResult, name: string) {
  const failures = result.load.calls.filter(
    (c) => c.process === name && c.kind !== 'ready' && c.end >= result.start && c.start <= result.end && (c.status <= 0 || c.status >= 500),
  );
  expect(failures).toEqual([]);
  expect(result.load.sent.some((s) => s.process === name && s.start >= result.start && s.end <= result.end)).toBe(true);
}

test('kill -9 of one process: the other keeps serving; restarted, its queues are still there', async () => {
  const [a] = cluster.processes;
  const result = await runFault(cluster, 'kill-9', async () => {
    await a.stop('SIGKILL');
    await a.start();
  });
  expectNothingLost(result);
  expectServedThroughout(result, 'b');
  // The queues live in Redis: clients polling the killed process carry on with theirs.
  expect(result.figures.reRegistrations).toBe(0);
});

test('SIGTERM of one process: a clean exit, nothing acknowledged lost; the other keeps serving', async () => {
  const [a] = cluster.processes;
  let code: number | null = null;
  const result = await runFault(cluster, 'sigterm', async () => {
    code = await a.stop('SIGTERM');
    await a.start();
  });
  expect(code).toBe(0);
  expectNothingLost(result);
  expectServedThroughout(result, 'b');
  expect(result.figures.reRegistrations).toBe(0);
});

test('PostgreSQL restart under load: no hang, nothing lost, both processes serve again by themselves', async () => {
  const result = await runFault(cluster, 'postgres-restart', () => cluster.postgres.restart());
  expectNothingLost(result);
  expect(result.load.calls.filter((c) => c.status === -1)).toEqual([]);
  // While it restarts, a request waits or is answered 503 with Retry-After. A statement run on a
  // connection the restart closed can still answer 500 (a prepared statement's error is not
  // recognized as the database's): counted in the figures, not hidden.
  const failures = result.load.calls.filter((c) => c.kind !== 'ready' && (c.status <= 0 || c.status >= 500));
  expect(failures.filter((c) => !(c.status === 503 && c.retryAfter) && c.status !== 500)).toEqual([]);
});

test('Redis restart: queues held only in Redis are lost, clients register again, delivery resumes', async () => {
  const result = await runFault(cluster, 'redis-restart', () => cluster.redis.restart());
  expectNothingLost(result);
  // Every client lost its queue and registered a new one, which then received every message.
  for (const poller of result.load.pollers) expect(poller.generations.length).toBeGreaterThanOrEqual(2);
});

test('Redis restart with its append-only file: what survives', async () => {
  // Turned on at run time: Redis writes the file from its memory, and the restart reloads it.
  const admin = new Redis(cluster.redis.url);
  try {
    await admin.config('SET', 'appendonly', 'yes');
    await waitUntil(async () => {
      const info = await admin.info('persistence');
      return /aof_enabled:1/.test(info) && /aof_rewrite_in_progress:0/.test(info) && /aof_rewrite_scheduled:0/.test(info);
    }, 60_000);
  } finally {
    admin.disconnect();
  }
  const result = await runFault(cluster, 'redis-restart-aof', () => cluster.redis.restart({ appendonly: true }));
  expectNothingLost(result);
  // The queues come back with their events: no client has to register again.
  expect(result.figures.reRegistrations).toBe(0);
});
