import http from 'node:http';
import type { Config } from './config';
import { openDatabase, Database } from './db/connect';
import { migrateLatest } from './db/migrate';
import type { AppDeps } from './deps';
import { buildApp } from './app';
import { ensureOwner, ensureRealm, OwnerCredentials } from './bootstrap';
import { connectFeatures } from './core/connect';
import { InProcessBus } from './realtime/bus';

export interface RunningServer {
  deps: AppDeps;
  db: Database;
  http: http.Server;
  url: string;
  owner: OwnerCredentials | null;
  close(): Promise<void>;
}

export interface StartOptions {
  /** PGlite directory; null keeps it in memory. Ignored with a database URL. */
  pgliteDir: string | null;
  /** Where the zuliprc of a newly created owner goes; null writes none. */
  zuliprcDir: string | null;
}

/** Opens the database, migrates, bootstraps the organization and listens. */
export async function startServer(config: Config, options: StartOptions): Promise<RunningServer> {
  connectFeatures();
  const db = await openDatabase({ url: config.databaseUrl, pgliteDir: options.pgliteDir });
  await migrateLatest(db.knex);
  const realmId = await ensureRealm(db.knex, config);
  const bus = new InProcessBus();
  const deps: AppDeps = { config, knex: db.knex, bus, realmId };
  const owner = await ensureOwner(deps, options.zuliprcDir);
  const built = await buildApp(deps);
  const server = http.createServer(built.app);
  server.keepAliveTimeout = 65_000;
  // Responses not yet finished, so a shutdown can tell their connections not to stay open.
  const unfinished = new Set<http.ServerResponse>();
  let stopping = false;
  server.prependListener('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    if (stopping) res.setHeader('Connection', 'close');
    unfinished.add(res);
    res.once('finish', () => {
      // A connection that was busy when the shutdown began is idle now: close it too.
      if (stopping) setImmediate(() => server.closeIdleConnections());
    });
    res.once('close', () => unfinished.delete(res));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, let in-flight requests finish (their connections then close instead of
      // idling in keep-alive), then release the database.
      stopping = true;
      for (const res of unfinished) if (!res.headersSent) res.setHeader('Connection', 'close');
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await built.stop();
      await bus.close();
      await db.close();
    })());
  return { deps, db, http: server, url: `http://${host}:${port}`, owner, close };
}
