import { parseArgs } from 'node:util';
import { ensureOwner, ensureRealm } from '../bootstrap';
import { ensureSystemBots } from '../core/system-bots/notification-bot';
import { Config, ConfigError, embeddedDatabaseDir, loadConfig } from '../config';
import { connectFeatures } from '../core/connect';
import { Database, openDatabase } from '../db/connect';
import { DatabaseInUseError } from '../db/lock';
import { migrateLatest } from '../db/migrate';
import type { AppDeps } from '../core/deps';
import { ApiError } from '../errors';
import path from 'node:path';
import { Command, CommandError, COMMANDS, Out, Parsed, Runner, UsageError } from './commands';
import { organizationDeps } from './organization';
import { Progress, progressBar } from './progress';
import { ImportError } from '../core/exports/zulip-format/import';
import { OperatorMessage, OperatorRequest, operatorSocketPath, sendToServer } from './socket';

export interface CliIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
}

const INVOCATION = 'npm run cli --';

function overview(): string {
  const lines = [`Usage: ${INVOCATION} <command> [arguments]`, '', 'Commands:'];
  for (const command of COMMANDS) lines.push(`  ${command.usage}`, `      ${command.summary}`);
  lines.push(
    '  help [COMMAND]',
    '      Show this help, or the help of one command.',
    '',
    "USER is an account's email address or user id. ROLE is one of owner, admin, moderator, member, guest.",
    "The database is the server's, from the same environment (DATA_DIR or DATABASE_URL). Commands",
    "other than migrate first prepare it as the server's start does: pending migrations are applied,",
    'and an empty database gets its organization and owner.',
  );
  return lines.join('\n');
}

const commandHelp = (command: Command) => `Usage: ${INVOCATION} ${command.usage}\n\n${command.summary}`;

function parseCommandArgs(command: Command, args: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args, options: command.options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (parsed.positionals.length !== command.positionals.length) {
    const expected = command.positionals.length === 0 ? 'no arguments' : command.positionals.join(' ');
    throw new UsageError(`expected ${expected}, got ${parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((p) => `"${p}"`).join(' ')}`);
  }
  return { values: parsed.values as Parsed['values'], positionals: parsed.positionals };
}

/** Opens the organization as the server does at start, telling the operator if it was just created. */
async function prepareOrganization(db: Database, config: Config, out: Out): Promise<AppDeps> {
  connectFeatures();
  await migrateLatest(db.knex);
  const realmId = await ensureRealm(db.knex, config);
  const deps = organizationDeps(db.knex, config, realmId);
  const owner = await ensureOwner(deps, config.dataDir);
  await ensureSystemBots(db.knex);
  if (owner) {
    out('The database had no accounts yet, so the organization owner was created:');
    out(`  email:    ${owner.email}`);
    out(`  password: ${owner.password}`);
    out(`  API key:  ${owner.apiKey}`);
    if (owner.zuliprcPath) out(`  zuliprc:  ${owner.zuliprcPath}`);
  }
  return deps;
}

/**
 * Runs one operator command. Returns the exit code: 0 done, 1 the command failed, 2 bad arguments
 * or configuration.
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const out: Out = (line) => io.stdout.write(`${line}\n`);
  const err: Out = (line) => io.stderr.write(`${line}\n`);
  const [name, ...rest] = argv;

  if (name === 'help' || name === '--help' || name === '-h') {
    if (rest.length === 0) {
      out(overview());
      return 0;
    }
    const command = COMMANDS.find((c) => c.name === rest[0]);
    if (!command || rest.length > 1) {
      err(`error: unknown command "${rest.join(' ')}"\n\n${overview()}`);
      return 2;
    }
    out(commandHelp(command));
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    err(`${name === undefined ? 'error: no command given' : `error: unknown command "${name}"`}\n\n${overview()}`);
    return 2;
  }

  let args: Parsed;
  let runner: Runner;
  let config: Config;
  try {
    args = parseCommandArgs(command, rest);
    // Files are named relative to where the operator is, not to the server.
    args = { ...args, positionals: args.positionals.map((value, i) => (command.positionals[i] === 'FILE' ? path.resolve(value) : value)) };
    runner = command.parse(args);
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof UsageError) {
      err(`error: ${error.message}\n\n${commandHelp(command)}`);
      return 2;
    }
    if (error instanceof ConfigError) {
      err(`Configuration error: ${error.message}`);
      return 2;
    }
    throw error;
  }

  const bar = progressBar(io.stderr);
  // A running server does the work (it holds the embedded database, and its clients see the
  // events); without one, this process does. Commands on the bare database (migrations, export,
  // import) always run here: on the embedded database they need the server stopped.
  if (runner.needs !== 'database') {
    try {
      const code = await sendToServer(operatorSocketPath(config), { command: command.name, args }, (message) => {
        if ('out' in message) out(message.out);
        else if ('err' in message) err(message.err);
        else if ('progress' in message) bar.progress(message.progress, message.label);
      });
      if (code !== null) return code;
    } catch (error) {
      err(`error: ${(error as Error).message}`);
      return 1;
    } finally {
      bar.done();
    }
  }

  let db: Database | null = null;
  try {
    if (runner.needs === 'stopped server') {
      await runner.run(config, out, bar.progress);
      return 0;
    }
    db = await openDatabase({ url: config.databaseUrl, pgliteDir: embeddedDatabaseDir(config), poolMax: 2 });
    if (runner.needs === 'organization') await runner.run(await prepareOrganization(db, config, out), out);
    else if (runner.needs === 'database') await runner.run(db.knex, out, config);
    else await runner.run(db, config, out, bar.progress);
    return 0;
  } catch (error) {
    reportFailure(command, error, err);
    return 1;
  } finally {
    bar.done();
    await db?.close().catch((error: Error) => err(`warning: closing the database failed: ${error.message}`));
  }
}

function reportFailure(command: Command, error: unknown, err: Out): void {
  if (error instanceof ApiError) err(`error: ${command.failure}: ${error.message}`);
  else if (error instanceof CommandError || error instanceof DatabaseInUseError || error instanceof ImportError) err(`error: ${error.message}`);
  else err(`error: ${command.failure}: ${error instanceof Error ? error.message : String(error)}`);
}

/** A command sent over the operator socket, run by the server with its own database and event bus. */
export async function runInServer(
  request: OperatorRequest,
  context: { deps: AppDeps; db: Database },
  send: (message: OperatorMessage) => void,
): Promise<number> {
  const out: Out = (line) => send({ out: line });
  const err: Out = (line) => send({ err: line });
  const progress: Progress = (fraction, label) => send({ progress: fraction, label });
  const command = COMMANDS.find((c) => c.name === request.command);
  if (!command) {
    err(`error: unknown command "${request.command}"`);
    return 2;
  }
  let runner: Runner;
  try {
    runner = command.parse(request.args);
  } catch (error) {
    err(`error: ${(error as Error).message}`);
    return 2;
  }
  try {
    const { deps, db } = context;
    if (runner.needs === 'organization') await runner.run(deps, out);
    else if (runner.needs === 'snapshot') await runner.run(db, deps.config, out, progress);
    else throw new CommandError(`the server is running (pid ${process.pid}); stop it first: ${command.name} needs the database to itself`);
    return 0;
  } catch (error) {
    reportFailure(command, error, err);
    return 1;
  }
}
