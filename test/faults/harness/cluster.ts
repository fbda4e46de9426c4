import { Figures, measure, SideEffect, untilEachSends } from './checks';
import { Load } from './load';
import { OWNER_EMAIL, OWNER_PASSWORD, ParleyProcess, parleyProcess, stopAll } from './parley';
import { Postgres, RedisServer, startPostgres, startRedis } from './services';

/**
 * The set-up every fault test starts from: a PostgreSQL, a Redis and two Parley processes on
 * them (one organization), the owner's API key, and a channel the owner is subscribed to.
 */
export interface Cluster {
  postgres: Postgres;
  redis: RedisServer;
  processes: ParleyProcess[];
  auth: { email: string; apiKey: string };
  stream: string;
  close(): Promise<void>;
}

export async function startCluster(env: Record<string, string> = {}): Promise<Cluster> {
  const postgres = await startPostgres();
  const redis = await startRedis().catch(async (error) => {
    await postgres.stop();
    throw error;
  });
  const processes: ParleyProcess[] = [];
  const close = async () => {
    await stopAll(processes);
    await redis.stop();
    await postgres.stop();
  };
  try {
    const shared = { DATABASE_URL: postgres.url, REDIS_URL: redis.url, ...env };
    // One after the other: the first migrates the empty database and creates the owner.
    for (const name of ['a', 'b']) {
      const p = await parleyProcess(name, shared);
      processes.push(p);
      await p.start();
    }
    const base = `${processes[0].url}/api/v1`;
    const login = await fetch(`${base}/fetch_api_key`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ username: OWNER_EMAIL, password: OWNER_PASSWORD }),
    });
    const { api_key: apiKey } = (await login.json()) as { api_key?: string };
    if (login.status !== 200 || !apiKey) throw new Error(`the owner could not log in: ${login.status}`);
    const auth = { email: OWNER_EMAIL, apiKey };
    const stream = 'faults';
    const cluster = { postgres, redis, processes, auth, stream, close };
    await ownerCall(cluster, processes[0], 'POST', '/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: stream }]) });
    return cluster;
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

export interface FaultResult {
  figures: Figures;
  load: Load;
  /** When the fault was injected, and when the service came back. */
  start: number;
  end: number;
}

/**
 * Runs the load, injects the fault once every process has served some sends (`inject` resolves
 * when the service is back: the process listens again, the server restarted), lets every process
 * serve sends again, then measures.
 */
export async function runFault(
  cluster: Cluster,
  fault: string,
  inject: () => Promise<void>,
  /** Waits (bounded) for the fault's side effects to arrive, then counts them. */
  sideEffects?: () => Promise<Record<string, SideEffect>>,
): Promise<FaultResult> {
  const load = new Load({ processes: cluster.processes, auth: cluster.auth, stream: cluster.stream });
  const names = cluster.processes.map((p) => p.name);
  const logFrom = cluster.processes.map((p) => p.output().length);
  const serverErrors = () =>
    cluster.processes.flatMap((p, i) =>
      p
        .output()
        .slice(logFrom[i])
        .split('\n')
        .filter((line) => /^\{"level":(50|60).*\}$/.test(line))
        .map((line) => `${p.name}: ${String((JSON.parse(line) as { msg?: string }).msg).slice(0, 300)}`),
    );
  await load.start();
  try {
    await untilEachSends(load, names, 0);
    const start = Date.now();
    await inject();
    const end = Date.now();
    await untilEachSends(load, names, end);
    const effects = await sideEffects?.();
    const figures = await measure(fault, { load, processes: names, start, end, databaseUrl: cluster.postgres.url, sideEffects: effects, serverErrors });
    return { figures, load, start, end };
  } finally {
    await load.stopSending();
    await load.stopPolling();
  }
}

/** One REST call as the owner through `process`; the answer's body, or an error unless it succeeds. */
export async function ownerCall(cluster: Cluster, process: ParleyProcess, method: string, path: string, params: Record<string, string>) {
  const response = await fetch(`${process.url}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${cluster.auth.email}:${cluster.auth.apiKey}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(params),
  });
  const body = (await response.json()) as Record<string, any>;
  if (response.status !== 200) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}
