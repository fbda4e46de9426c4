import fs from 'node:fs';
import path from 'node:path';
import knexFactory, { Knex } from 'knex';
import pg from 'pg';
import { recordFailedStatement } from '../failure-log';
import { lockDatabaseDir } from './lock';
import { log } from '../log';

// PostgreSQL returns bigint and count(*) as strings; PGlite returns numbers. Parse them the same way
// so the code above the database sees one behaviour. Our ids and counts stay far below 2^53.
pg.types.setTypeParser(20, (value: string) => Number.parseInt(value, 10));
pg.types.setTypeParser(1700, (value: string) => Number.parseFloat(value));

export type Db = Knex;

export interface DatabaseOptions {
  /** postgres:// URL; when null the embedded PGlite database is used. */
  url: string | null;
  /** Directory of the PGlite files; null keeps PGlite in memory (tests). */
  pgliteDir: string | null;
  /** Connection pool size for PostgreSQL. */
  poolMax?: number;
  /** PGlite only: a dump (dumpDataDir) to start from instead of an empty database. */
  loadDataDir?: Blob;
  /**
   * PGlite only: an instance that is already open (an embedding application's, or one a test run
   * keeps between test files), used instead of opening one; closing the database closes it.
   */
  pglite?: OpenPGlite;
}

/** What the server needs of an open PGlite instance. */
export type OpenPGlite = Pick<PGliteInstance, 'query' | 'exec' | 'waitReady' | 'closed' | 'close' | 'dumpDataDir'>;
type PGliteInstance = import('@electric-sql/pglite').PGlite;

export interface Database {
  knex: Knex;
  kind: 'postgres' | 'pglite';
  /** The embedded database's files as a gzipped tar (PGlite only): a consistent snapshot. */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

/**
 * knex's own messages (a failed connection attempt it retries, deprecations) go to the log at
 * debug level, on one line: what failed is reported by whoever awaited the query.
 */
const knexLog = {
  warn: (message: unknown) => log().debug(`knex: ${String(message).split('\n')[0]}`),
  error: (message: unknown) => log().debug(`knex: ${String(message).split('\n')[0]}`),
  deprecate: (method: string, alternative: string) => log().debug(`knex: ${method} is deprecated, use ${alternative}`),
  debug: () => undefined,
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.url) {
    const knex = knexFactory({
      client: 'pg',
      connection: options.url,
      pool: { min: 0, max: options.poolMax ?? 10 },
      compileSqlOnError: false,
      log: knexLog,
    });
    rememberFailedStatements(knex);
    await knex.raw('select 1');
    return { knex, kind: 'postgres', close: () => knex.destroy() };
  }
  // Loaded lazily so a PostgreSQL deployment never pays for the WASM build.
  const { PGlite } = await import('@electric-sql/pglite');
  const ClientPgLite = (await import('knex-pglite')).default as unknown as Knex.Client;
  if (options.pgliteDir) fs.mkdirSync(options.pgliteDir, { recursive: true });
  const unlock = options.pgliteDir ? lockDatabaseDir(options.pgliteDir) : () => undefined;
  let pglite: OpenPGlite;
  try {
    const pgliteOptions = options.loadDataDir ? { loadDataDir: options.loadDataDir } : {};
    pglite = options.pglite ?? (options.pgliteDir ? new PGlite(path.resolve(options.pgliteDir), pgliteOptions) : new PGlite(pgliteOptions));
    await pglite.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const knex = knexFactory({
    client: ClientPgLite as never,
    dialect: 'postgres',
    connection: () => ({ pglite }) as never,
    compileSqlOnError: false,
    log: knexLog,
  } as Knex.Config);
  rememberFailedStatements(knex);
  return {
    knex,
    kind: 'pglite',
    dumpDataDir: () => pglite.dumpDataDir('gzip'),
    close: async () => {
      try {
        await knex.destroy();
        if (!pglite.closed) await pglite.close();
      } finally {
        unlock();
      }
    },
  };
}

/**
 * Failed statements keep their parameters out of error messages (`compileSqlOnError: false` leaves
 * the placeholders in) and note which statement failed on the error, for a log line that names the
 * statement without its values (src/failure-log.ts).
 */
function rememberFailedStatements(knex: Knex): void {
  knex.on('query-error', (error: unknown, query: { sql?: string; bindings?: unknown[] }) => recordFailedStatement(error, query.sql, query.bindings));
}

/** True for a unique-constraint violation, from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; nativeError?: { code?: string } };
  return e?.code === '23505' || e?.nativeError?.code === '23505';
}
