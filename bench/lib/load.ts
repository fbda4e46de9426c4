import autocannon from 'autocannon';
import type { TaskRef, WorkResult } from '../servers/child';
import type { ServerProcess } from './servers';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** The server under load: its CPU time per request is reported (robust when the machine is busy). */
  server?: ServerProcess;
  /** Connections for this target, instead of the harness's --connections. */
  connections?: number;
  /**
   * Headers per connection: connection i sends connectionHeaders[i % length] (e.g. each connection
   * authenticated as a different user), on top of `headers`.
   */
  connectionHeaders?: Record<string, string>[];
}

/**
 * Work that is not an HTTP request (e.g. the SQL a request amounts to, run directly): a task run in
 * a loop by `workers` concurrent workers inside the server child `server` (where an embedded
 * database lives). One completed `run` counts as one request.
 */
export interface WorkOptions {
  server: ServerProcess;
  task: TaskRef;
  workers: number;
}

export type Target = { label: string; options: LoadOptions; work?: never } | { label: string; work: WorkOptions; options?: never };

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  /** Measured time per target. */
  durationSeconds: number;
  /** Measured time is split into this many slices, taken in turn across the targets. */
  rounds: number;
}

export interface LoadResult {
  label: string;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Server CPU time (user + system) per request, in microseconds; null without `server`. */
  cpuMicrosPerRequest: number | null;
  /** Responses outside 2xx plus connection errors and timeouts: a run with any is not a valid figure. */
  failures: number;
}

interface SliceResult {
  requests: number;
  seconds: number;
  failures: number;
}

function runHttp(options: LoadOptions, connections: number, seconds: number, latencies?: number[]): Promise<SliceResult> {
  let nextConnection = 0;
  const perConnection = options.connectionHeaders;
  const setupClient = perConnection?.length
    ? (client: { setHeaders(headers: Record<string, string>): void }) =>
        client.setHeaders({ ...options.headers, ...perConnection[nextConnection++ % perConnection.length] })
    : undefined;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers,
        body: options.body,
        connections: options.connections ?? connections,
        duration: seconds,
        ...(setupClient ? { setupClient } : {}),
      },
      (error, result) =>
        error
          ? reject(error)
          : resolve({ requests: result.requests.total, seconds: result.duration, failures: result.non2xx + result.errors + result.timeouts }),
    );
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

async function runWork(work: WorkOptions, seconds: number, latencies?: number[]): Promise<SliceResult> {
  const result = await work.server.call<WorkResult>('work', { task: work.task, workers: work.workers, seconds });
  if (result.firstError) console.error(`  work ${work.task.name} failed ${result.failures} times, first: ${result.firstError}`);
  if (latencies) for (const ms of result.latenciesMs) latencies.push(ms);
  return { requests: result.operations, seconds: result.seconds, failures: result.failures };
}

function run(target: Target, connections: number, seconds: number, latencies?: number[]): Promise<SliceResult> {
  return target.work ? runWork(target.work, seconds, latencies) : runHttp(target.options!, connections, seconds, latencies);
}

const serverOf = (target: Target) => (target.work ? target.work.server : target.options!.server);

export function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Warms every target up (discarded: JIT, caches, connections), then measures them in alternating
 * slices. On a machine shared with other work, load from elsewhere comes and goes within seconds;
 * alternating lets every target see the same mix of it, so their ratio stays meaningful.
 */
export async function measureTargets(targets: Target[], settings: LoadSettings): Promise<LoadResult[]> {
  for (const target of targets) {
    if (settings.warmupSeconds > 0) await run(target, settings.connections, settings.warmupSeconds);
  }
  const slice = settings.durationSeconds / settings.rounds;
  const totals = targets.map(() => ({ latencies: [] as number[], requests: 0, seconds: 0, failures: 0, cpuMicros: 0 }));
  for (let round = 0; round < settings.rounds; round++) {
    for (const [i, target] of targets.entries()) {
      const total = totals[i];
      const server = serverOf(target);
      const cpuBefore = await server?.cpuMicros();
      const result = await run(target, settings.connections, slice, total.latencies);
      const cpuAfter = await server?.cpuMicros();
      total.requests += result.requests;
      total.seconds += result.seconds;
      total.failures += result.failures;
      if (cpuBefore !== undefined && cpuAfter !== undefined) total.cpuMicros += cpuAfter - cpuBefore;
    }
  }
  return targets.map((target, i) => {
    const { label } = target;
    const total = totals[i];
    const sorted = Float64Array.from(total.latencies).sort();
    return {
      label,
      rps: total.requests / total.seconds,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      requests: total.requests,
      cpuMicrosPerRequest: serverOf(target) && total.requests > 0 ? total.cpuMicros / total.requests : null,
      failures: total.failures,
    };
  });
}
