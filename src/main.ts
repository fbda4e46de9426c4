import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { Config, ConfigError, embeddedDatabaseDir, loadConfig } from './config';
import { describeFailure } from './failure-log';
import { configureLog, flushLog, log } from './log';
import { operatorSocketPath } from './operator/socket';
import { startServer } from './server';
import { checkServices } from './startup-checks';
import { type StartupFailure, startupFailure } from './startup-errors';
import { PARLEY_VERSION } from './version';

/** Left in DATA_DIR while a newly created owner's password has not been shown (see StartOptions). */
const UNSEEN_OWNER = 'owner-password-unseen';

function readUnseenOwner(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** Operator output (not log lines): what a person starting the server for the first time needs. */
function printOwner(owner: NonNullable<Awaited<ReturnType<typeof startServer>>['owner']>, url: string): void {
  const lines = [
    'Created the organization owner:',
    `  email:    ${owner.email}`,
    `  password: ${owner.password}`,
    `  API key:  ${owner.apiKey}`,
    ...(owner.zuliprcPath ? [`  zuliprc:  ${owner.zuliprcPath}`] : []),
    `REST API: ${url}/api/v1   GraphQL: ${url}/graphql (GraphiQL in a browser)`,
  ];
  // On stderr, so stdout stays a stream of log lines; never through the log (it holds secrets).
  process.stderr.write(`${lines.join('\n')}\n`);
}

function exitWith(logger: ReturnType<typeof configureLog>, failure: StartupFailure): never {
  logger.fatal(failure.message);
  flushLog();
  // The log may be silent or elsewhere: the reason also goes to stderr, on one line.
  if (!logger.isLevelEnabled('fatal') || !process.stdout.isTTY) console.error(failure.message);
  process.exit(failure.exitCode);
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const logger = configureLog(config.logLevel);
  const database = config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`;
  logger.info({ version: PARLEY_VERSION, node: process.version }, `Parley ${PARLEY_VERSION} starting (${database})`);
  const unseenOwnerFile = path.join(config.dataDir, UNSEEN_OWNER);
  const earlierOwner = readUnseenOwner(unseenOwnerFile);
  const unusable = await checkServices(config);
  if (unusable) exitWith(logger, unusable);
  let server;
  try {
    server = await startServer(config, {
      pgliteDir: embeddedDatabaseDir(config),
      zuliprcDir: config.dataDir,
      operatorSocket: operatorSocketPath(config),
      unseenOwnerFile,
    });
  } catch (error) {
    exitWith(logger, startupFailure(error, config) ?? { message: `Parley failed to start: ${describeFailure(error)}`, exitCode: 1 });
  }
  if (server.owner) printOwner(server.owner, server.url);
  else if (earlierOwner) {
    process.stderr.write(
      `The organization owner ${earlierOwner} was created by an earlier start that stopped before showing its password.\n` +
        `Set one with: npm run cli -- reset-password ${earlierOwner}${config.dataDir ? `   (the API key is in ${path.join(config.dataDir, 'zuliprc')})` : ''}\n`,
    );
  }
  fs.rmSync(unseenOwnerFile, { force: true });
  logger.info({ url: server.url }, `Parley listening on ${server.url} (${database})`);

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, shutting down`);
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      flushLog();
      process.exit(1);
    }, 15_000);
    force.unref();
    server.close().then(
      () => {
        logger.info('Parley stopped');
        flushLog();
        process.exit(0);
      },
      (error) => {
        logger.error(`shutdown failed: ${describeFailure(error)}`);
        flushLog();
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error) => {
  log().fatal(`Parley failed to start: ${describeFailure(error)}`);
  flushLog();
  process.exit(1);
});
