/**
 * Presence benchmark: POST /users/me/presence from 1,000 simulated users of a 10,000-user
 * organization, against a bare node:http server answering a fixed JSON body, in the same run.
 *
 * Each simulated user polls the modern way: status "active" with the last presence_last_update_id
 * it received, as a client initialized from POST /register does every minute. Their presence was
 * last stored two minutes before the run, so each user's first poll writes and the rest only read
 * what changed since their previous poll.
 *
 * The servers run in a child process, so the load generator does not share their event loop.
 * Embedded database by default; BENCH_DATABASE_URL=postgres://... uses a fresh PostgreSQL database.
 * BENCH_DURATION_SECONDS (15) and BENCH_CONNECTIONS (50) tune the load.
 *
 *   npm run build && node -e "require('./dist/bench/presence').run()"
 */
import { ChildProcess, fork } from 'node:child_process';
import crypto from 'node:crypto';
import http from 'node:http';
import autocannon from 'autocannon';
import knexFactory from 'knex';

export const ORGANIZATION_SIZE = 10_000;
export const SIMULATED_USERS = 1_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 15);

interface BenchUser {
  email: string;
  apiKey: string;
}

interface Ready {
  url: string;
  users?: BenchUser[];
  lastUpdateId?: number;
}

export interface PresenceBenchResult {
  parley: { requestsPerSecond: number; p50Ms: number; p99Ms: number; errors: number; non2xx: number };
  baseline: { requestsPerSecond: number; p50Ms: number; p99Ms: number };
  ratio: number;
  database: 'pglite' | 'postgres';
}

// ---------------------------------------------------------------- child process: the servers

async function freshPostgres(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `parley_bench_${process.pid}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE "${name}"`);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const again = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
      await again.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await again.destroy();
    },
  };
}

async function serveParley(): Promise<void> {
  const { loadConfig } = await import('../src/config');
  const { startServer } = await import('../src/server');
  const { hashApiKey, generateApiKey } = await import('../src/core/users/credentials');
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const pg = adminUrl ? await freshPostgres(adminUrl) : null;
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PARLEY_OWNER_PASSWORD: 'bench-owner-password',
    PARLEY_LOG_REQUESTS: '0',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  });
  const server = await startServer(config, { pgliteDir: null, zuliprcDir: null });
  const { knex, realmId } = server.deps;

  // The organization, straight into the tables: accounts, their settings, and keys for the
  // simulated users.
  const existing = Number((await knex('users').count('* as n').first())!.n);
  await knex.raw(
    `INSERT INTO users (realm_id, delivery_email, full_name)
     SELECT ?, 'bench' || g || '@example.com', 'Bench User ' || g FROM generate_series(1, ?) g`,
    [realmId, ORGANIZATION_SIZE - existing],
  );
  await knex.raw(
    `INSERT INTO user_settings (user_id, realm_id)
     SELECT id, realm_id FROM users WHERE NOT EXISTS (SELECT 1 FROM user_settings s WHERE s.user_id = users.id)`,
  );
  const simulated: { id: number; delivery_email: string }[] = await knex('users')
    .where('delivery_email', 'like', 'bench%')
    .orderBy('id')
    .limit(SIMULATED_USERS)
    .select('id', 'delivery_email');
  const users: BenchUser[] = [];
  const keys = [];
  for (const user of simulated) {
    const apiKey = generateApiKey();
    users.push({ email: user.delivery_email, apiKey });
    keys.push({ realm_id: realmId, user_id: user.id, key_hash: hashApiKey(apiKey) });
  }
  for (let i = 0; i < keys.length; i += 500) await knex('api_keys').insert(keys.slice(i, i + 500));

  // Everyone was online two minutes ago.
  const twoMinutesAgo = new Date(Date.now() - 120_000);
  const rows = simulated.map((user, i) => ({
    user_id: user.id,
    realm_id: realmId,
    last_active_time: twoMinutesAgo,
    last_connected_time: twoMinutesAgo,
    last_update_id: i + 1,
  }));
  for (let i = 0; i < rows.length; i += 500) await knex('user_presence').insert(rows.slice(i, i + 500));
  await knex('presence_sequences').insert({ realm_id: realmId, last_update_id: rows.length }).onConflict('realm_id').merge();

  // Requests still queued when the load stops are answered before the database closes.
  let inFlight = 0;
  server.http.on('request', (_req, res) => {
    inFlight += 1;
    res.on('close', () => (inFlight -= 1));
  });
  process.send!({ url: server.url, users, lastUpdateId: rows.length } satisfies Ready);
  const pool = (knex.client as { pool?: { numUsed(): number; numPendingAcquires(): number } }).pool;
  const busy = () => inFlight > 0 || (pool !== undefined && pool.numUsed() + pool.numPendingAcquires() > 0);
  process.on('disconnect', async () => {
    // Handlers outlive their clients' sockets: wait for half a second of quiet on the database too.
    for (let quiet = 0, waited = 0; quiet < 5 && waited < 60_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      quiet = busy() ? 0 : quiet + 1;
    }
    await server.close();
    await pg?.drop();
    process.exit(0);
  });
}

async function serveBaseline(): Promise<void> {
  const body = JSON.stringify({ result: 'success', msg: '', presences: {}, server_timestamp: 0, presence_last_update_id: 0 });
  const server = http.createServer((req, res) => {
    // Read the form body as a real endpoint must, then answer.
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  process.send!({ url: `http://127.0.0.1:${address.port}` } satisfies Ready);
  process.on('disconnect', () => server.close(() => process.exit(0)));
}

// ---------------------------------------------------------------- parent process: the load

function startChild(mode: 'parley' | 'baseline'): Promise<{ child: ChildProcess; ready: Ready }> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [`--serve-${mode}`], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child.once('message', (ready) => resolve({ child, ready: ready as Ready }));
    child.once('exit', (code) => reject(new Error(`${mode} server exited with code ${code}`)));
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', () => resolve());
    child.disconnect();
  });
}

function load(url: string, users: BenchUser[], startId: number): Promise<autocannon.Result> {
  const lastIds = users.map(() => startId);
  let next = 0;
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_SECONDS,
    requests: [
      {
        method: 'POST',
        path: '/api/v1/users/me/presence',
        setupRequest: (req, context: { user?: number }) => {
          const index = next++ % users.length;
          context.user = index;
          const user = users[index];
          return {
            ...req,
            headers: {
              'content-type': 'application/x-www-form-urlencoded',
              authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}`,
            },
            body: `status=active&last_update_id=${lastIds[index]}`,
          };
        },
        onResponse: (status, body, context: { user?: number }) => {
          if (status !== 200 || context.user === undefined) return;
          const match = /"presence_last_update_id":(-?\d+)/.exec(body);
          if (match) lastIds[context.user] = Number(match[1]);
        },
      },
    ],
  });
}

export async function run(): Promise<PresenceBenchResult> {
  const database = process.env.BENCH_DATABASE_URL ? 'postgres' : 'pglite';
  console.log(`presence: ${SIMULATED_USERS} users of ${ORGANIZATION_SIZE} polling, ${CONNECTIONS} connections, ${DURATION_SECONDS}s each, ${database}`);

  const baselineServer = await startChild('baseline');
  const fakeUsers = Array.from({ length: SIMULATED_USERS }, (_, i) => ({ email: `u${i}@example.com`, apiKey: 'x'.repeat(32) }));
  const baseline = await load(baselineServer.ready.url, fakeUsers, 0);
  await stopChild(baselineServer.child);

  const parleyServer = await startChild('parley');
  const parley = await load(parleyServer.ready.url, parleyServer.ready.users!, parleyServer.ready.lastUpdateId!);
  await stopChild(parleyServer.child);

  const result: PresenceBenchResult = {
    parley: {
      requestsPerSecond: parley.requests.average,
      p50Ms: parley.latency.p50,
      p99Ms: parley.latency.p99,
      errors: parley.errors,
      non2xx: parley.non2xx,
    },
    baseline: { requestsPerSecond: baseline.requests.average, p50Ms: baseline.latency.p50, p99Ms: baseline.latency.p99 },
    ratio: parley.requests.average / baseline.requests.average,
    database,
  };
  console.log(
    `  parley   ${result.parley.requestsPerSecond.toFixed(0)} req/s  p50 ${result.parley.p50Ms} ms  p99 ${result.parley.p99Ms} ms` +
      `  (${result.parley.errors} errors, ${result.parley.non2xx} non-2xx)`,
  );
  console.log(`  baseline ${result.baseline.requestsPerSecond.toFixed(0)} req/s  p50 ${result.baseline.p50Ms} ms  p99 ${result.baseline.p99Ms} ms`);
  console.log(`  ratio    ${(result.ratio * 100).toFixed(1)}% of bare node:http`);
  return result;
}

if (process.argv.includes('--serve-parley')) void serveParley();
else if (process.argv.includes('--serve-baseline')) void serveBaseline();
else if (require.main === module) void run();
