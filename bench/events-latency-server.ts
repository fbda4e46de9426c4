import 'reflect-metadata';
import http from 'node:http';
import { loadConfig } from '../src/config';
import { createUser } from '../src/core/users/actions';
import { RunningServer, startServer } from '../src/server';

/**
 * The server side of bench/events-latency.ts, run as a child process (with --expose-gc) so its
 * memory can be measured apart from the load generator. Commands arrive over IPC:
 *   {cmd: 'start', mode: 'parley' | 'bare', users: N}  -> {url, owner, users}
 *   {cmd: 'memory'}                                    -> heap and RSS after a full collection
 *   {cmd: 'waiting'}                                   -> requests held (long-polls, or bare requests)
 *   {cmd: 'listeners'}                                 -> live GraphQL subscriptions
 *   {cmd: 'release'}                                   -> (bare) answer every held request
 *   {cmd: 'stop'}
 */
export interface Account {
  id: number;
  email: string;
  apiKey: string;
}

type Command = { id: number; cmd: string; mode?: 'parley' | 'bare'; users?: number };

let parley: RunningServer | null = null;
let bare: http.Server | null = null;
const held: http.ServerResponse[] = [];

async function start(mode: 'parley' | 'bare', users: number) {
  if (mode === 'bare') {
    bare = http.createServer((_req, res) => {
      held.push(res);
    });
    bare.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve) => bare!.listen(0, '127.0.0.1', () => resolve()));
    const address = bare.address() as { port: number };
    return { url: `http://127.0.0.1:${address.port}` };
  }
  const env: Record<string, string> = { PORT: '0', HOST: '127.0.0.1', PARLEY_OWNER_PASSWORD: 'bench-owner-password', PARLEY_REALM_NAME: 'Bench' };
  if (process.env.BENCH_DATABASE_URL) env.DATABASE_URL = process.env.BENCH_DATABASE_URL;
  if (process.env.BENCH_REDIS_URL) env.REDIS_URL = process.env.BENCH_REDIS_URL;
  parley = await startServer(loadConfig(env), { pgliteDir: null, zuliprcDir: null });
  const owner = parley.owner!;
  const accounts: Account[] = [];
  for (let i = 0; i < users; i++) {
    // No password: creating 1,000 accounts should not cost 1,000 password hashes.
    const { user, apiKey } = await createUser(parley.deps, null, {
      email: `bench-${process.pid}-${i}@example.com`,
      fullName: `Bench User ${i}`,
      password: null,
    });
    accounts.push({ id: user.id, email: user.delivery_email, apiKey });
  }
  return { url: parley.url, owner: { id: owner.userId, email: owner.email, apiKey: owner.apiKey }, users: accounts };
}

function memory() {
  (global as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, rss: usage.rss, external: usage.external };
}

async function handle(message: Command): Promise<unknown> {
  switch (message.cmd) {
    case 'start':
      return start(message.mode!, message.users ?? 0);
    case 'memory':
      return memory();
    case 'waiting':
      return { waiting: parley ? parley.deps.realtime!.queues.waitingCount : held.length };
    case 'listeners':
      return { listeners: parley?.deps.bus.listenerCount ?? 0 };
    case 'release':
      for (const res of held.splice(0)) res.end('{}');
      return {};
    case 'stop':
      await parley?.close();
      if (bare) {
        bare.closeAllConnections();
        await new Promise<void>((resolve) => bare!.close(() => resolve()));
      }
      setImmediate(() => process.exit(0));
      return {};
    default:
      throw new Error(`unknown command ${message.cmd}`);
  }
}

process.on('message', (message: Command) => {
  handle(message).then(
    (result) => process.send!({ id: message.id, result }),
    (error: Error) => process.send!({ id: message.id, error: error.stack ?? String(error) }),
  );
});
