import 'reflect-metadata';
import { ConfigError, embeddedDatabaseDir, loadConfig } from './config';
import { startServer } from './server';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const server = await startServer(config, {
    pgliteDir: embeddedDatabaseDir(config),
    zuliprcDir: config.dataDir,
  });
  if (server.owner) {
    console.log('Created the organization owner:');
    console.log(`  email:    ${server.owner.email}`);
    console.log(`  password: ${server.owner.password}`);
    console.log(`  API key:  ${server.owner.apiKey}`);
    if (server.owner.zuliprcPath) console.log(`  zuliprc:  ${server.owner.zuliprcPath}`);
  }
  console.log(`Parley listening on ${server.url} (${server.db.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received, shutting down`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (error) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  console.error('Parley failed to start:', error);
  process.exit(1);
});
