import 'reflect-metadata';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { RunningServer, startServer } from '../../src/server';
import { announceReady } from './child';

/** Parley started as `npm start` starts it (same start-up, same app), reporting its owner to the harness. */
async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config, {
    pgliteDir: config.databaseUrl ? null : path.join(config.dataDir, 'pgdata'),
    zuliprcDir: null,
  });
  const owner = server.owner!;
  // BENCH_SEED names a module exporting `seed(server)`: fixtures written straight into the
  // database before any request, whose result goes back to the scenario.
  let fixtures: unknown;
  if (process.env.BENCH_SEED) {
    const { seed } = require(process.env.BENCH_SEED) as { seed(server: RunningServer): Promise<unknown> };
    fixtures = await seed(server);
  }
  announceReady({ url: server.url, owner: { email: owner.email, apiKey: owner.apiKey, userId: owner.userId }, fixtures }, () => server.close());
}

main().catch((error) => {
  console.error('Parley failed to start for the benchmark:', error);
  process.exit(1);
});
