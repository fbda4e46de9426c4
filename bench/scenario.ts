import type { LoadResult, Target } from './lib/load';
import type { BaselineProcess, DatabaseKind, ParleyOptions, ParleyProcess } from './lib/servers';

/**
 * A named benchmark. The harness calls `run` once per database (PGlite always, PostgreSQL when
 * BENCH_DATABASE_URL is set) and prints what it returns.
 */
export interface Scenario {
  name: string;
  description: string;
  run(ctx: BenchContext): Promise<ScenarioReport>;
}

export interface BenchContext {
  database: DatabaseKind;
  /** Parley in a child process on a fresh database; the context stops it after the scenario. */
  startParley(options?: ParleyOptions): Promise<ParleyProcess>;
  /** A bare node:http server in a child process, answering every request with `body` as JSON. */
  startBaseline(body: string): Promise<BaselineProcess>;
  /**
   * Warms each target up, then measures them in alternating slices (so all see the same load from
   * elsewhere), with the harness's connections and durations. One result per target, in order.
   */
  measure(targets: Target[]): Promise<LoadResult[]>;
  log(message: string): void;
}

/** A figure compared against a goal, e.g. Parley's rate as a fraction of the baseline's. */
export interface Goal {
  label: string;
  value: number;
  /** The value must be at least this. */
  atLeast: number;
}

export interface ScenarioReport {
  results: LoadResult[];
  goals?: Goal[];
  notes?: string[];
}
