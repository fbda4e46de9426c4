import crypto from 'node:crypto';
import pino, { DestinationStream, Logger } from 'pino';
import type { LogLevel } from './config';

export type { Logger };

/**
 * The process's log: JSON lines on stdout when it is not a terminal (for collectors), readable
 * lines on a terminal. Lines carry ids, routes, statuses and durations; never credentials, query
 * strings, GraphQL variables or message content.
 */
function create(level: LogLevel, destination?: DestinationStream): Logger {
  const options = { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  if (destination) return pino(options, destination);
  if (process.stdout.isTTY && level !== 'silent') {
    // pino-pretty as a stream on this thread: on a terminal readability beats throughput.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pretty = require('pino-pretty') as (opts: object) => DestinationStream;
    return pino(options, pretty({ colorize: true, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' }));
  }
  return pino(options, pino.destination({ dest: 1, sync: false, minLength: 0 }));
}

let current: Logger | null = null;

/** The process's logger, made from LOG_LEVEL on first use unless configured before. */
export function log(): Logger {
  return (current ??= create(((process.env.LOG_LEVEL ?? '').trim().toLowerCase() || 'info') as LogLevel));
}

/** Sets the level (and, for tests capturing the log, the stream) of every later line. */
export function configureLog(level: LogLevel, destination?: DestinationStream): Logger {
  current = create(level, destination);
  return current;
}

/** Writes what is buffered (before the process exits). */
export function flushLog(): void {
  try {
    current?.flush();
  } catch {
    // Nothing was buffered on a synchronous stream.
  }
}

// Request ids: a random prefix per process and a counter, unique across processes and cheap.
const prefix = crypto.randomBytes(4).toString('hex');
let sequence = 0;

export function newRequestId(): string {
  return `${prefix}-${(++sequence).toString(36)}`;
}
