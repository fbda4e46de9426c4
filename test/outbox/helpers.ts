import { COMMANDS } from '../../src/operator/commands';
import type { TestServer } from '../helpers/server';

/** Runs the `outbox` operator command against the server's database; answers what it printed. */
export async function outboxCommand(ts: TestServer, values: Record<string, string | boolean> = {}): Promise<string> {
  const command = COMMANDS.find((c) => c.name === 'outbox')!;
  const runner = command.parse({ values, positionals: [] });
  if (runner.needs !== 'organization') throw new Error('the outbox command runs on the organization');
  const lines: string[] = [];
  await runner.run(ts.server.deps, (line) => lines.push(line));
  return lines.join('\n');
}

/** One series' value in a /metrics answer (NaN when absent). */
export async function metricValue(ts: TestServer, series: string): Promise<number> {
  const text = await (await fetch(`${ts.url}/metrics`)).text();
  return Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${series} `))
      ?.split(' ')[1] ?? NaN,
  );
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
