import { Figures, measure, untilEachSends } from './checks';
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
    const subscribed = await fetch(`${base}/users/me/subscriptions`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${OWNER_EMAIL}:${apiKey}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ subscriptions: JSON.stringify([{ name: stream }]) }),
    });
    if (subscribed.status !== 200) throw new Error(`could not create the channel: ${await subscribed.text()}`);
    return { postgres, redis, processes, auth, stream, close };
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
export async function runFault(cluster: Cluster, fault: string, inject: () => Promise<void>): Promise<FaultResult> {
  const load = new Load({ processes: cluster.processes, auth: cluster.auth, stream: cluster.stream });
  const names = cluster.processes.map((p) => p.name);
  await load.start();
  try {
    await untilEachSends(load, names, 0);
    const start = Date.now();
    await inject();
    const end = Date.now();
    await untilEachSends(load, names, end);
    const figures = await measure(fault, { load, processes: names, start, end, databaseUrl: cluster.postgres.url });
    return { figures, load, start, end };
  } finally {
    await load.stopSending();
    await load.stopPolling();
  }
}
