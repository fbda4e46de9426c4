import autocannon from 'autocannon';
import type { ServerProcess } from './servers';

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** The server under load: its CPU time per request is reported (robust when the machine is busy). */
  server?: ServerProcess;
}

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
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

function once(options: LoadOptions, settings: LoadSettings, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    connections: settings.connections,
    duration: seconds,
  });
}

/** A warm-up run (discarded: JIT, caches, connection set-up), then the measured run. */
export async function measure(label: string, options: LoadOptions, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmupSeconds > 0) await once(options, settings, settings.warmupSeconds);
  const cpuBefore = await options.server?.cpuMicros();
  const result = await once(options, settings, settings.durationSeconds);
  const cpuAfter = await options.server?.cpuMicros();
  const cpu = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : null;
  return {
    label,
    rps: result.requests.total / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    cpuMicrosPerRequest: cpu === null || result.requests.total === 0 ? null : cpu / result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
