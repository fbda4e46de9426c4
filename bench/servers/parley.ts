import 'reflect-metadata';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { RunningServer, startServer } from '../../src/server';
import { createAccounts } from './bulk-accounts';
import { announceReady, workCommands } from './child';

/**
 * Parley started as `npm start` starts it (same start-up, same app), reporting its owner to the
 * harness. Besides CPU usage it answers a few commands over IPC, for fixtures too large to make
 * through the API and for state the API does not show:
 *   sql {sql, bindings}          -> rows of one statement on the server's own database connection
 *   createUsers {count, prefix}  -> accounts without a password (beyond 200, copied in SQL)
 *   waiting / listeners          -> long-polls waiting / live event listeners (GraphQL subscriptions)
 *   memory                       -> heap and RSS after a full collection (needs --expose-gc)
 *   work                         -> a task run by N workers on the same database (SQL baselines)
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config, {
    pgliteDir: config.databaseUrl ? null : path.join(config.dataDir, 'pgdata'),
    zuliprcDir: null,
  });
  // Null when the database already had its owner (a second process of one deployment).
  const owner = server.owner;
  // BENCH_SEED names a module exporting `seed(server)`: fixtures written straight into the
  // database before any request, whose result goes back to the scenario.
  let fixtures: unknown;
  if (process.env.BENCH_SEED) {
    const { seed } = require(process.env.BENCH_SEED) as { seed(server: RunningServer): Promise<unknown> };
    fixtures = await seed(server);
  }
  const { deps } = server;
  announceReady(
    { url: server.url, owner: owner ? { email: owner.email, apiKey: owner.apiKey, userId: owner.userId } : undefined, fixtures },
    () => server.close(),
    {
      sql: async ({ sql, bindings }: { sql: string; bindings?: unknown[] }) => {
        const result = await server.db.knex.raw(sql, (bindings ?? []) as never);
        return result.rows ?? [];
      },
      createUsers: ({ count, prefix }: { count: number; prefix: string }) => createAccounts(deps, server.db.knex, count, prefix),
      waiting: () => deps.realtime!.queues.waitingCount,
      listeners: () => deps.bus.listenerCount ?? null,
      ...workCommands({ knex: server.db.knex, database: server.db.kind, databaseUrl: config.databaseUrl }),
    },
  );
}

main().catch((error) => {
  console.error('Parley failed to start for the benchmark:', error);
  process.exit(1);
});
