import path from 'node:path';
import v8 from 'node:v8';
import { performance } from 'node:perf_hooks';
import type { Knex } from 'knex';

/**
 * The protocol between the harness and a server child: the child sends its URL (and fixtures) once
 * it listens, answers CPU-usage queries and named commands (fixtures, state, memory, work), and
 * stops on SIGTERM.
 */
export interface ReadyMessage {
  url: string;
  owner?: { email: string; apiKey: string; userId: number };
  /** What the scenario's seed function returned (see `startParley`'s `seed`). */
  fixtures?: unknown;
}

/** A command the harness may call over IPC: `{type: 'call', id, name, args}` -> `{type: 'reply', id, result | error}`. */
export type Command = (args: any) => unknown;

export interface CallMessage {
  type: 'call';
  id: number;
  name: string;
  args?: unknown;
}

export interface ReplyMessage {
  type: 'reply';
  id: number;
  result?: unknown;
  error?: string;
}

/**
 * Heap and RSS of this process after a full collection. Needs `--expose-gc` (the harness passes it
 * when a scenario asks); without it the figures include garbage, so they are flagged.
 */
export function memory(args?: { label?: string }): { heapUsed: number; rss: number; external: number; arrayBuffers: number; collected: boolean } {
  const gc = (global as { gc?: (options?: unknown) => void }).gc;
  if (gc) {
    // Twice: the first pass may leave objects whose finalizers free more.
    gc();
    gc();
  }
  // BENCH_HEAP_SNAPSHOTS=<dir>: a heap snapshot per labelled reading, to see what the memory holds.
  if (process.env.BENCH_HEAP_SNAPSHOTS && args?.label) {
    v8.writeHeapSnapshot(path.join(process.env.BENCH_HEAP_SNAPSHOTS, `${args.label}-${process.pid}.heapsnapshot`));
  }
  const usage = process.memoryUsage();
  return { heapUsed: usage.heapUsed, rss: usage.rss, external: usage.external, arrayBuffers: usage.arrayBuffers, collected: gc !== undefined };
}

/** What a work task may use: the child's own database connection (PGlite lives in this process). */
export interface WorkHost {
  knex: Knex | null;
  database: 'pglite' | 'postgres' | null;
  databaseUrl: string | null;
}

/** A unit of work run in a loop by N concurrent workers; one `run` is one measured operation. */
export interface PreparedTask {
  run(worker: number): Promise<void>;
  close?(): Promise<void>;
}

export type TaskFactory = (host: WorkHost, args: any) => Promise<PreparedTask>;

/** Names a task: an exported TaskFactory of a bench module (by its built path), with its arguments. */
export interface TaskRef {
  module: string;
  name: string;
  args?: unknown;
}

export interface WorkResult {
  operations: number;
  failures: number;
  seconds: number;
  latenciesMs: number[];
  firstError: string | null;
}

/**
 * The `work` command: runs a task with N workers for a time and reports what they did. A task is
 * prepared once (pools, statements) and reused by later slices, so set-up never counts.
 */
export function workCommands(host: WorkHost): Record<string, Command> {
  const prepared = new Map<string, Promise<PreparedTask>>();
  const prepare = (task: TaskRef) => {
    const key = JSON.stringify(task);
    let found = prepared.get(key);
    if (!found) {
      const factory = (require(task.module) as Record<string, TaskFactory>)[task.name];
      if (typeof factory !== 'function') throw new Error(`${task.module} does not export a task ${task.name}`);
      found = factory(host, task.args);
      prepared.set(key, found);
    }
    return found;
  };
  return {
    work: async ({ task, workers, seconds }: { task: TaskRef; workers: number; seconds: number }): Promise<WorkResult> => {
      const prepared = await prepare(task);
      const latenciesMs: number[] = [];
      let failures = 0;
      let firstError: string | null = null;
      const started = performance.now();
      const end = started + seconds * 1000;
      await Promise.all(
        Array.from({ length: workers }, async (_, worker) => {
          while (performance.now() < end) {
            const t0 = performance.now();
            try {
              await prepared.run(worker);
              latenciesMs.push(performance.now() - t0);
            } catch (error) {
              failures++;
              firstError ??= error instanceof Error ? error.message : String(error);
            }
          }
        }),
      );
      return { operations: latenciesMs.length, failures, seconds: (performance.now() - started) / 1000, latenciesMs, firstError };
    },
    closeWork: async () => {
      const all = [...prepared.values()];
      prepared.clear();
      for (const task of all) await (await task).close?.();
    },
  };
}

export function announceReady(message: ReadyMessage, stop: () => Promise<void>, commands: Record<string, Command> = {}): void {
  const all: Record<string, Command> = { memory, ...commands };
  process.on('message', (request: { type?: string; id?: number; name?: string; args?: unknown }) => {
    if (request?.type === 'cpu') {
      const usage = process.cpuUsage();
      process.send!({ type: 'cpu', micros: usage.user + usage.system });
    } else if (request?.type === 'call') {
      const { id, name, args } = request as CallMessage;
      const command = all[name];
      Promise.resolve()
        .then(() => {
          if (!command) throw new Error(`unknown command ${name}`);
          return command(args);
        })
        .then(
          (result) => process.send!({ type: 'reply', id, result } satisfies ReplyMessage),
          (error: unknown) =>
            process.send!({ type: 'reply', id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ReplyMessage),
        );
    }
  });
  process.once('SIGTERM', () => {
    Promise.resolve(all.closeWork?.(undefined))
      .then(() => stop())
      .then(
        () => process.exit(0),
        (error) => {
          console.error('server child failed to stop', error);
          process.exit(1);
        },
      );
  });
  process.send!(message);
}
