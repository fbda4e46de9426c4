import http from 'node:http';
import type { Config } from './config';
import { openDatabase, Database } from './db/connect';
import { migrateLatest } from './db/migrate';
import type { AppDeps } from './deps';
import { buildApp } from './app';
import { ensureOwner, ensureRealm, OwnerCredentials } from './bootstrap';
import { InProcessBus } from './realtime/bus';
import { AuthCache, watchWrites } from './core/users/auth-cache';

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
  const db = await openDatabase({ url: config.databaseUrl, pgliteDir: options.pgliteDir });
  await migrateLatest(db.knex);
  const realmId = await ensureRealm(db.knex, config);
  const bus = new InProcessBus();
  const authCache = new AuthCache();
  watchWrites(db.knex, authCache);
  bus.subscribe((deliveries) => authCache.forgetFromDeliveries(deliveries));
  const deps: AppDeps = { config, knex: db.knex, bus, realmId, authCache };
  const owner = await ensureOwner(deps, options.zuliprcDir);
  const built = await buildApp(deps);
  const server = http.createServer(built.handle);
  server.keepAliveTimeout = 65_000;
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
      // Stop accepting, let in-flight requests finish, then release the database.
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
