import type { LoadResult, Target } from './lib/load';
import type { BaselineOptions, BaselineProcess, ChildOptions, DatabaseKind, ParleyProcess } from './lib/servers';

/**
 * A named benchmark. The harness calls `run` once per database (PGlite always, PostgreSQL when
 * BENCH_DATABASE_URL is set) and prints what it returns.
 */
export interface Scenario {
  name: string;
  description: string;
  /** Options of its own (`--name=value` on the command line), name -> what it does and its default. */
  options?: Record<string, string>;
  run(ctx: BenchContext): Promise<ScenarioReport>;
}

export interface BenchContext {
  database: DatabaseKind;
  /** This scenario's own options as given on the command line (absent ones are not set). */
  options: Record<string, string>;
  /** Parley in a child process on a fresh database; the context stops it after the scenario. */
  startParley(options?: ChildOptions): Promise<ParleyProcess>;
  /**
   * A bare node:http server in a child process, answering every request with `body` as JSON (or,
   * with `hold`, holding requests until a trigger).
   */
  startBaseline(body: string, options?: BaselineOptions): Promise<BaselineProcess>;
  /**
   * Warms each target up, then measures them in alternating slices (so all see the same load from
   * elsewhere), with the harness's connections and durations. One result per target, in order.
   */
  measure(targets: Target[]): Promise<LoadResult[]>;
  /** The harness's durations, for scenarios that drive their own measurements. */
  settings: { warmupSeconds: number; durationSeconds: number; rounds: number };
  log(message: string): void;
}

/** A figure compared against a goal, e.g. Parley's rate as a fraction of the baseline's. */
export interface Goal {
  label: string;
  value: number;
  /** The value must be at least this. */
  atLeast?: number;
  /** The value must be at most this. */
  atMost?: number;
  /** Printed after the value and the goal (e.g. "ms"). */
  unit?: string;
}

/** A table of figures that are not request rates (latency distributions, memory). */
export interface Table {
  title?: string;
  columns: string[];
  rows: (string | number)[][];
}

export interface ScenarioReport {
  results: LoadResult[];
  tables?: Table[];
  goals?: Goal[];
  notes?: string[];
}

/** A positive whole-number option, or its default. */
export function numberOption(ctx: BenchContext, name: string, fallback: number): number {
  const raw = ctx.options[name];
  if (raw === undefined) return fallback;
  const value = Number(raw.replace(/_/g, ''));
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} must be a positive whole number, not ${raw}`);
  return value;
}
