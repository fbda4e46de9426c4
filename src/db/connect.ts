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
  /**
   * PostgreSQL only: longest a statement may run (the connection's `statement_timeout`), in ms;
   * 0 or absent sets none. A statement that takes longer is cancelled (SQLSTATE 57014).
   */
  statementTimeoutMs?: number;
  /** PostgreSQL only: longest wait for a pooled connection, or for a new one to open, in ms. */
  acquireTimeoutMs?: number;
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
  /**
   * Runs `work` (migrations) on connections without the statement timeout: a pool of one of its
   * own, closed afterwards. Absent when the database has no statement timeout.
   */
  unbounded?: <T>(work: (knex: Knex) => Promise<T>) => Promise<T>;
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
    const url = options.url;
    const statementTimeoutMs = options.statementTimeoutMs ?? 0;
    const knex = postgresPool(url, options.poolMax ?? 10, statementTimeoutMs, options.acquireTimeoutMs);
    await knex.raw('select 1');
    const unbounded = async <T>(work: (knex: Knex) => Promise<T>): Promise<T> => {
      const own = postgresPool(url, 1, 0, options.acquireTimeoutMs);
      try {
        return await work(own);
      } finally {
        await own.destroy();
      }
    };
    return { knex, kind: 'postgres', close: () => knex.destroy(), ...(statementTimeoutMs > 0 ? { unbounded } : {}) };
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

function postgresPool(url: string, poolMax: number, statementTimeoutMs: number, acquireTimeoutMs: number | undefined): Knex {
  const knex = knexFactory({
    client: 'pg',
    // Sent when each connection opens, so every statement on it is bounded without a round trip.
    connection: {
      connectionString: url,
      ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
      ...(acquireTimeoutMs ? { connectionTimeoutMillis: acquireTimeoutMs } : {}),
    },
    pool: { min: 0, max: poolMax, ...(acquireTimeoutMs ? { createTimeoutMillis: acquireTimeoutMs } : {}) },
    ...(acquireTimeoutMs ? { acquireConnectionTimeout: acquireTimeoutMs } : {}),
    compileSqlOnError: false,
    log: knexLog,
  });
  rememberFailedStatements(knex);
  // A connection that cannot be opened fails the waiting query with the driver's error (ECONNREFUSED,
  // ...): remember it came from here, as such codes also come from other services.
  (knex.client as { pool?: { on(event: string, listener: (id: number, error: unknown) => void): void } }).pool?.on('createFail', (_id, error) =>
    fromDatabase(error),
  );
  return knex;
}

/**
 * Failed statements keep their parameters out of error messages (`compileSqlOnError: false` leaves
 * the placeholders in) and note which statement failed on the error, for a log line that names the
 * statement without its values (src/failure-log.ts).
 */
function rememberFailedStatements(knex: Knex): void {
  knex.on('query-error', (error: unknown, query: { sql?: string; bindings?: unknown[] }) => {
    recordFailedStatement(error, query.sql, query.bindings);
    fromDatabase(error);
  });
}

/** Errors the database connection raised (a statement's failure, a connection that could not open). */
const databaseErrors = new WeakSet<object>();

/** Marks an error as the database connection's, for statements run outside knex (db/prepared.ts). */
export function fromDatabase(error: unknown): void {
  if (typeof error === 'object' && error !== null) databaseErrors.add(error);
}

/**
 * SQLSTATEs that say the database cannot serve now rather than that the statement is wrong: the
 * server shutting down or starting (57P01-57P03), too many connections (53300), a statement
 * cancelled by statement_timeout (57014), a lock not granted in time (55P03), and the connection
 * exceptions (class 08).
 */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '57014', '55P03']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
// node-postgres's own messages for a connection lost or not opened in time; they carry no code.
const LOST_CONNECTION = /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout expired|Query read timeout)/i;

/**
 * True when a failure means the database is unreachable or did not answer in time (worth a 503 and
 * a retry), not that the request or the code is wrong.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { nativeError?: unknown }).nativeError, depth++) {
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (name === 'KnexTimeoutError') return true;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && (UNAVAILABLE_STATES.has(code) || code.startsWith('08'))) return true;
    if (databaseErrors.has(e)) {
      if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
      if (typeof message === 'string' && LOST_CONNECTION.test(message.replace(/^[\s\S]* - /, ''))) return true;
    }
  }
  return false;
}

/** True for a unique-constraint violation, from either driver. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; nativeError?: { code?: string } };
  return e?.code === '23505' || e?.nativeError?.code === '23505';
}
