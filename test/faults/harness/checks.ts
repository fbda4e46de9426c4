import fs from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { waitUntil } from '../../helpers/wait';
import { Call, CONTENT_PREFIX, Load } from './load';

/**
 * What a fault cost, measured from the load's records and the database: the row each fault test
 * prints and writes to test-artifacts/faults/<fault>.json.
 */

export interface SideEffect {
  /** Distinct side effects expected (emails, webhook calls). */
  expected: number;
  /** Distinct ones that arrived at least once. */
  arrived: number;
  /** Arrivals beyond the first of each. */
  duplicates: number;
}

export interface Figures {
  fault: string;
  /** Fault injected → the service is back (process listening, server restarted). */
  faultMs: number;
  /** Calls overlapping the fault window (injection to the last process's first successful send after it). */
  requestsDuringFault: number;
  failedDuringFault: number;
  /** Failed calls in the window by status ("0": no connection, "-1": no answer in time). */
  failuresByStatus: Record<string, number>;
  /** Per process: from the fault's end to its first acknowledged send. */
  recoveryMs: Record<string, number | null>;
  /** Per process: from the fault's end to the first `GET /health/ready` answering 200. */
  readyMs: Record<string, number | null>;
  /** Calls outside the window answering 5xx, failing to connect or hanging (the readiness probe aside). */
  failedOutsideFault: number;
  failedOutsideByStatus: Record<string, number>;
  messagesAcknowledged: number;
  messagesLost: number;
  messagesStoredTwice: number;
  /** Message events a live queue should have received and did not. */
  deliveriesMissing: number;
  /** The same message received twice by one client (under two event ids, or in two queues). */
  deliveryDuplicates: number;
  /** Messages a client did not get as events because its queue was lost; it reads them after registering again. */
  refetchedAfterReRegister: number;
  reRegistrations: number;
  restartEvents: number;
  /** Clients left without a queue at the end (a register that never succeeded again). */
  clientsWithoutQueue: number;
  sideEffects: Record<string, SideEffect>;
  /** The processes' error log lines while the fault's test ran (failures answered 500). */
  serverErrors: string[];
}

export interface FaultRun {
  load: Load;
  processes: string[];
  /** When the fault was injected, and when the service came back. */
  start: number;
  end: number;
  databaseUrl: string;
  sideEffects?: Record<string, SideEffect>;
  serverErrors: () => string[];
}

const failed = (c: Call) => c.status <= 0 || c.status >= 500;

function countBy(calls: Call[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const c of calls) counts[String(c.status)] = (counts[String(c.status)] ?? 0) + 1;
  return counts;
}

/**
 * Waits until each process has acknowledged `count` sends started after `since` (the load runs
 * on); fails after a generous bound.
 */
export async function untilEachSends(load: Load, processes: string[], since: number, count = 5, timeoutMs = 120_000) {
  await waitUntil(() => processes.every((p) => load.sentThrough(p, since) >= count), timeoutMs).catch((error) => {
    const answers = countBy(load.calls.filter((c) => c.kind === 'send' && c.start >= since));
    const codes = [...new Set(load.calls.filter((c) => c.kind === 'send' && c.code).map((c) => c.code))];
    throw new Error(`${(error as Error).message}: sends answered ${JSON.stringify(answers)} ${codes.join(' ')}`);
  });
}

/** Message ids each poller must have received: those sent after its live queue was registered. */
function owed(load: Load) {
  return load.pollers.map((poller) => {
    const live = poller.generations.at(-1);
    const since = live && live.lostAt === null ? live.registeredAt : Number.POSITIVE_INFINITY;
    return { poller, ids: load.sent.filter((s) => s.start >= since).map((s) => s.id) };
  });
}

function received(poller: Load['pollers'][number]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const g of poller.generations) for (const [id, carriers] of g.messages) counts.set(id, (counts.get(id) ?? 0) + carriers.size);
  return counts;
}

/**
 * Stops the senders, lets the queues drain (bounded), stops the pollers and measures. The
 * drain's bound is generous; what did not arrive by then counts as missing.
 */
export async function measure(fault: string, run: FaultRun): Promise<Figures> {
  const { load } = run;
  await load.stopSending();
  // Every client holds a live queue again (a re-register may still be under way), and has it all.
  const live = (poller: Load['pollers'][number]) => poller.generations.at(-1)?.lostAt === null;
  await waitUntil(() => load.pollers.every(live) && owed(load).every(({ poller, ids }) => ids.every((id) => received(poller).has(id))), 60_000).catch(
    () => undefined,
  );
  await load.stopPolling();

  const firstAfter = (process: string, ok: (c: Call) => boolean) => {
    const first = load.calls.filter((c) => c.process === process && c.start >= run.end && ok(c)).sort((a, b) => a.end - b.end)[0];
    return first ? first.end - run.end : null;
  };
  const recoveryMs: Record<string, number | null> = {};
  const readyMs: Record<string, number | null> = {};
  for (const p of run.processes) {
    const send = load.sent.filter((s) => s.process === p && s.start >= run.end).sort((a, b) => a.end - b.end)[0];
    recoveryMs[p] = send ? send.end - run.end : null;
    readyMs[p] = firstAfter(p, (c) => c.kind === 'ready' && c.status === 200);
  }
  const recovered = run.end + Math.max(0, ...Object.values(recoveryMs).map((ms) => ms ?? Number.POSITIVE_INFINITY));
  const during = load.calls.filter((c) => c.kind !== 'ready' && c.end >= run.start && c.start <= recovered);
  const outside = load.calls.filter((c) => c.kind !== 'ready' && (c.end < run.start || c.start > recovered));

  const stored = await storedMessages(run.databaseUrl);
  const acknowledged = load.sent;
  let deliveriesMissing = 0;
  let deliveryDuplicates = 0;
  let refetched = 0;
  for (const { poller, ids } of owed(load)) {
    const counts = received(poller);
    const owedIds = new Set(ids);
    deliveriesMissing += ids.filter((id) => !counts.has(id)).length;
    for (const n of counts.values()) deliveryDuplicates += Math.max(0, n - 1);
    refetched += acknowledged.filter((s) => !owedIds.has(s.id) && !counts.has(s.id)).length;
  }

  const figures: Figures = {
    fault,
    faultMs: run.end - run.start,
    requestsDuringFault: during.length,
    failedDuringFault: during.filter(failed).length,
    failuresByStatus: countBy(during.filter(failed)),
    recoveryMs,
    readyMs,
    failedOutsideFault: outside.filter(failed).length,
    failedOutsideByStatus: countBy(outside.filter(failed)),
    messagesAcknowledged: acknowledged.length,
    messagesLost: acknowledged.filter((s) => !stored.has(s.uuid)).length,
    messagesStoredTwice: [...stored.values()].filter((n) => n > 1).length,
    deliveriesMissing,
    deliveryDuplicates,
    refetchedAfterReRegister: refetched,
    reRegistrations: load.pollers.reduce((n, p) => n + p.generations.length - 1, 0),
    restartEvents: load.pollers.reduce((n, p) => n + p.restartEvents, 0),
    clientsWithoutQueue: load.pollers.filter((p) => !live(p)).length,
    sideEffects: run.sideEffects ?? {},
    serverErrors: run.serverErrors(),
  };
  report(figures);
  return figures;
}

/** Load messages in the database, by client-side uuid, with how many rows each has. */
async function storedMessages(databaseUrl: string): Promise<Map<string, number>> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ content: string; n: string }>('select content, count(*) as n from messages where content like $1 group by content', [
      `${CONTENT_PREFIX} %`,
    ]);
    return new Map(rows.map((r) => [r.content.slice(CONTENT_PREFIX.length + 1), Number(r.n)]));
  } finally {
    await client.end();
  }
}

/** Prints the row and writes it to test-artifacts/faults/<fault>.json. */
export function report(figures: Figures): void {
  const dir = path.resolve(__dirname, '../../../test-artifacts/faults');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${figures.fault}.json`), `${JSON.stringify(figures, null, 2)}\n`);
  console.log(`fault figures: ${JSON.stringify(figures)}`);
}
