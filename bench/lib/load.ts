import autocannon from 'autocannon';
import type { ServerProcess } from './servers';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Requests built per call (autocannon's `requests`), e.g. to rotate credentials or carry state
   * from one response to the next request. The same objects serve every slice of a measurement.
   */
  requests?: autocannon.Request[];
  /** The server under load: its CPU time per request is reported (robust when the machine is busy). */
  server?: ServerProcess;
}

export interface Target {
  label: string;
  options: LoadOptions;
}

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

function run(options: LoadOptions, connections: number, seconds: number, latencies?: number[]): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        method: options.method ?? 'GET',
        headers: options.headers,
        body: options.body,
        requests: options.requests,
        connections,
        duration: seconds,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/**
 * Warms every target up (discarded: JIT, caches, connections), then measures them in alternating
 * slices. On a machine shared with other work, load from elsewhere comes and goes within seconds;
 * alternating lets every target see the same mix of it, so their ratio stays meaningful.
 */
export async function measureTargets(targets: Target[], settings: LoadSettings): Promise<LoadResult[]> {
  for (const { options } of targets) {
    if (settings.warmupSeconds > 0) await run(options, settings.connections, settings.warmupSeconds);
  }
  const slice = settings.durationSeconds / settings.rounds;
  const totals = targets.map(() => ({ latencies: [] as number[], requests: 0, seconds: 0, failures: 0, cpuMicros: 0 }));
  for (let round = 0; round < settings.rounds; round++) {
    for (const [i, { options }] of targets.entries()) {
      const total = totals[i];
      const cpuBefore = await options.server?.cpuMicros();
      const result = await run(options, settings.connections, slice, total.latencies);
      const cpuAfter = await options.server?.cpuMicros();
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.failures += result.non2xx + result.errors + result.timeouts;
      if (cpuBefore !== undefined && cpuAfter !== undefined) total.cpuMicros += cpuAfter - cpuBefore;
    }
  }
  return targets.map(({ label, options }, i) => {
    const total = totals[i];
    const sorted = Float64Array.from(total.latencies).sort();
    return {
      label,
      rps: total.requests / total.seconds,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      requests: total.requests,
      cpuMicrosPerRequest: options.server && total.requests > 0 ? total.cpuMicros / total.requests : null,
      failures: total.failures,
    };
  });
}
