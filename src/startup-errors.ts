import type { Config } from './config';
import { FileStoreUnavailableError } from './core/uploads/storage';
import { DatabaseInUseError } from './db/lock';

/** Exit codes of a start-up that failed for a known reason (2 is a configuration error). */
export const EXIT_PORT_IN_USE = 3;
export const EXIT_DATA_DIR_LOCKED = 4;
export const EXIT_DATABASE_UNREACHABLE = 5;
export const EXIT_FILE_STORE_UNAVAILABLE = 6;
export const EXIT_REDIS_UNREACHABLE = 7;
export const EXIT_SMTP_UNREACHABLE = 8;
export const EXIT_LDAP_UNREACHABLE = 9;

export interface StartupFailure {
  message: string;
  exitCode: number;
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET']);
// PostgreSQL's answers for a wrong password, an unknown role, a missing database, a refused host.
const REFUSED: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the connection was not authorized',
  '3D000': 'the database does not exist',
  '57P03': 'the database is starting up or shutting down',
};

function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  const visit = (e: unknown) => {
    if (typeof e !== 'object' || e === null) return;
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    const inner = (e as { errors?: unknown }).errors;
    if (Array.isArray(inner)) inner.forEach(visit);
    visit((e as { nativeError?: unknown }).nativeError);
  };
  visit(error);
  return codes;
}

/** Where the database is, without the password the URL may hold. */
export function describeDatabaseUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

/** A one-line reason and exit code for the failures an operator can fix, or null for the others. */
export function startupFailure(error: unknown, config: Config): StartupFailure | null {
  if (error instanceof DatabaseInUseError) return { message: error.message, exitCode: EXIT_DATA_DIR_LOCKED };
  if (error instanceof FileStoreUnavailableError) return { message: error.message, exitCode: EXIT_FILE_STORE_UNAVAILABLE };
  const codes = codesOf(error);
  if (codes.includes('EADDRINUSE')) {
    return {
      message: `Port ${config.port} on ${config.host} is already in use (is Parley already running?). Set PORT to another port.`,
      exitCode: EXIT_PORT_IN_USE,
    };
  }
  if (codes.includes('EADDRNOTAVAIL')) {
    return { message: `Cannot listen on ${config.host}: no such address on this machine. Check HOST.`, exitCode: EXIT_PORT_IN_USE };
  }
  // Redis checked at start (startup-checks.ts) but lost again before the server opened it.
  if (config.redisUrl && error instanceof Error && error.name === 'MaxRetriesPerRequestError') {
    const url = new URL(config.redisUrl);
    return {
      message: `Cannot reach Redis at ${url.hostname}:${url.port || '6379'}. Check REDIS_URL and that Redis is running.`,
      exitCode: EXIT_REDIS_UNREACHABLE,
    };
  }
  if (config.databaseUrl) {
    const where = describeDatabaseUrl(config.databaseUrl);
    const unreachable = codes.find((code) => UNREACHABLE.has(code));
    if (unreachable)
      return {
        message: `Cannot reach the database at ${where} (${unreachable}). Check DATABASE_URL and that PostgreSQL is running.`,
        exitCode: EXIT_DATABASE_UNREACHABLE,
      };
    const refused = codes.find((code) => code in REFUSED);
    if (refused) return { message: `Cannot use the database at ${where}: ${REFUSED[refused]}. Check DATABASE_URL.`, exitCode: EXIT_DATABASE_UNREACHABLE };
  }
  return null;
}
