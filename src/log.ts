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
  return pino(options, new TurnBatch(pino.destination({ dest: 1, sync: false, minLength: 0 })));
}

type FlushableStream = DestinationStream & { flush(cb?: (error?: Error) => void): void; flushSync(): void };

/**
 * Lines written during one turn of the event loop go to the stream in one write. Under load every
 * line was otherwise its own write (a round trip through libuv's thread pool), which cost more
 * than everything else logging a request does. Lines keep their order: every line passes here.
 */
export class TurnBatch implements DestinationStream {
  private pending = '';
  private scheduled = false;

  constructor(private readonly target: FlushableStream) {
    if (batches.size === 0) process.once('exit', flushBatches);
    batches.add(this);
  }

  write(line: string): void {
    this.pending += line;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.drain);
  }

  private readonly drain = (): void => {
    this.scheduled = false;
    this.pass();
  };

  private pass(): void {
    if (this.pending === '') return;
    const lines = this.pending;
    this.pending = '';
    this.target.write(lines);
  }

  flush(cb?: (error?: Error) => void): void {
    this.pass();
    this.target.flush(cb);
  }

  flushSync(): void {
    this.pass();
    this.target.flushSync();
  }
}

// A process that exits (process.exit included) still writes the lines of its last turn.
const batches = new Set<TurnBatch>();
function flushBatches(): void {
  for (const batch of batches) {
    try {
      batch.flushSync();
    } catch {
      // The stream is closed or was never opened: nothing can be written any more.
    }
  }
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

const PID = process.pid;

// Many lines share a millisecond under load: its ISO form is made once.
let isoMs = -1;
let isoText = '';
function isoNow(): string {
  const now = Date.now();
  if (now !== isoMs) {
    isoMs = now;
    isoText = new Date(now).toISOString();
  }
  return isoText;
}

/**
 * One access-log line, written straight to the log's stream: the same JSON pino would write for
 * `info({requestId, method, route, status, durationMs, userId}, 'request')`, built by hand because
 * pino's general path costs more than a simple request's own work. Every field is an id, a number,
 * a method or a route template.
 */
export function writeAccessLine(requestId: string, method: string | undefined, route: string, status: number, durationMs: number, userId: number | null): void {
  const logger = log();
  if (!logger.isLevelEnabled('info')) return;
  const stream = (logger as unknown as Record<symbol, DestinationStream>)[pino.symbols.streamSym];
  stream.write(
    `{"level":30,"time":"${isoNow()}","pid":${PID},"requestId":"${requestId}","method":${JSON.stringify(method ?? '')},` +
      `"route":${JSON.stringify(route)},"status":${status},"durationMs":${durationMs},"userId":${userId},"msg":"request"}\n`,
  );
}
