import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LoadResult, LoadSettings, measureTargets } from './lib/load';
import { DatabaseKind, startBaseline, startParley } from './lib/servers';
import type { BenchContext, Scenario, ScenarioReport } from './scenario';

/**
 * `npm run bench [-- <name>...] [--connections=N] [--warmup=S] [--duration=S] [--rounds=N] [--list]
 * [--database=pglite|postgres] [--<scenario option>=value...]`
 * Runs every scenario in bench/scenarios (or the named ones) on PGlite, and on PostgreSQL too when
 * BENCH_DATABASE_URL is set, then prints a report. Exits 1 when a figure misses its goal.
 */
/** Every bench/scenarios/<name>.ts, loaded from its build (listing the sources skips stale builds). */
function loadScenarios(): Scenario[] {
  const sources = path.resolve(__dirname, '..', '..', 'bench', 'scenarios');
  return fs
    .readdirSync(sources)
    .filter((file) => file.endsWith('.ts'))
    .sort()
    .map((file) => {
      const loaded = require(path.join(__dirname, 'scenarios', file.replace(/\.ts$/, '.js'))) as { scenario?: Scenario };
      if (!loaded.scenario) throw new Error(`bench/scenarios/${file} does not export a scenario`);
      return loaded.scenario;
    });
}

function parseArgs(argv: string[]) {
  const settings: LoadSettings = { connections: 100, warmupSeconds: 3, durationSeconds: 10, rounds: 5 };
  const names: string[] = [];
  const scenarioOptions: Record<string, string> = {};
  let list = false;
  let only: DatabaseKind | null = null;
  for (const arg of argv) {
    const option = /^--(connections|warmup|duration|rounds)=(\d+)$/.exec(arg);
    const other = /^--([a-z][a-z0-9-]*)=(.+)$/.exec(arg);
    if (option) {
      const value = Number(option[2]);
      if (option[1] === 'connections') settings.connections = value;
      else if (option[1] === 'warmup') settings.warmupSeconds = value;
      else if (option[1] === 'duration') settings.durationSeconds = value;
      else settings.rounds = Math.max(1, value);
    } else if (arg === '--database=pglite' || arg === '--database=postgres') only = arg.slice('--database='.length) as DatabaseKind;
    else if (arg === '--list') list = true;
    else if (other) scenarioOptions[other[1]] = other[2];
    else if (arg.startsWith('-')) throw new Error(`unknown option ${arg}`);
    else names.push(arg);
  }
  return { settings, names, list, scenarioOptions, only };
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function printTable(rows: string[][]): void {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  for (const row of rows) console.log(row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  '));
}

function printReport(name: string, database: DatabaseKind, report: ScenarioReport): boolean {
  console.log(`\n## ${name} on ${database}`);
  if (report.results.length > 0) {
    const rows: string[][] = [['', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/req', 'requests', 'failures']];
    for (const r of report.results) {
      const cpu = r.cpuMicrosPerRequest === null ? '-' : fmt(r.cpuMicrosPerRequest);
      rows.push([r.label, fmt(r.rps), fmt(r.p50Ms, 1), fmt(r.p99Ms, 1), cpu, fmt(r.requests), fmt(r.failures)]);
    }
    printTable(rows);
  }
  for (const table of report.tables ?? []) {
    if (table.title) console.log(table.title);
    printTable([table.columns, ...table.rows.map((row) => row.map((cell) => (typeof cell === 'number' ? fmt(cell, 1) : cell)))]);
  }
  let ok = true;
  for (const goal of report.goals ?? []) {
    const met = (goal.atLeast === undefined || goal.value >= goal.atLeast) && (goal.atMost === undefined || goal.value <= goal.atMost);
    ok &&= met;
    const unit = goal.unit ? ` ${goal.unit}` : '';
    const target = [goal.atLeast !== undefined ? `≥ ${goal.atLeast}${unit}` : '', goal.atMost !== undefined ? `≤ ${goal.atMost}${unit}` : '']
      .filter(Boolean)
      .join(', ');
    console.log(`${goal.label}: ${fmt(goal.value, 2)}${unit} (goal ${target}) ${met ? 'met' : 'MISSED'}`);
  }
  for (const note of report.notes ?? []) console.log(note);
  return ok;
}

async function main(): Promise<void> {
  const { settings, names, list, scenarioOptions, only } = parseArgs(process.argv.slice(2));
  const all = loadScenarios();
  if (list) {
    for (const s of all) {
      console.log(`${s.name.padEnd(20)} ${s.description}`);
      for (const [option, what] of Object.entries(s.options ?? {})) console.log(`${''.padEnd(20)}   --${option}=N: ${what}`);
    }
    return;
  }
  const unknown = names.filter((n) => !all.some((s) => s.name === n));
  if (unknown.length > 0) throw new Error(`unknown scenario ${unknown.join(', ')}; known: ${all.map((s) => s.name).join(', ')}`);
  const chosen = names.length > 0 ? all.filter((s) => names.includes(s.name)) : all;
  const undeclared = Object.keys(scenarioOptions).filter((o) => !chosen.some((s) => s.options && o in s.options));
  if (undeclared.length > 0) throw new Error(`unknown option ${undeclared.map((o) => `--${o}`).join(', ')} (see --list)`);
  const adminUrl = process.env.BENCH_DATABASE_URL || null;
  const databases: DatabaseKind[] = (adminUrl ? (['pglite', 'postgres'] as const) : (['pglite'] as const)).filter((d) => only === null || d === only);
  if (databases.length === 0) throw new Error('--database=postgres needs BENCH_DATABASE_URL');

  console.log(
    `# Parley benchmark: ${os.cpus().length} cores, node ${process.version}, ${settings.connections} connections, ` +
      `${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured per target in ${settings.rounds} alternating slices`,
  );
  let ok = true;
  for (const scenario of chosen) {
    for (const database of databases) {
      const ownOptions = Object.fromEntries(Object.entries(scenarioOptions).filter(([o]) => scenario.options && o in scenario.options));
      const ctx: BenchContext = {
        database,
        options: ownOptions,
        settings,
        startParley: (options) => startParley(database, adminUrl, options),
        startBaseline,
        measure: (targets) => {
          console.error(`  ${scenario.name}/${database}: measuring ${targets.map((t) => t.label).join(', ')}…`);
          return measureTargets(targets, settings);
        },
        log: (message) => console.error(`  ${scenario.name}/${database}: ${message}`),
      };
      const report = await scenario.run(ctx);
      const failed = report.results.filter((r: LoadResult) => r.failures > 0);
      ok = printReport(scenario.name, database, report) && ok;
      if (failed.length > 0) {
        ok = false;
        console.log(`INVALID: ${failed.map((r) => r.label).join(', ')} had failed requests`);
      }
    }
  }
  process.exitCode = ok ? 0 : 1;
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});
