import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { api, authOf, inBatches, type Account } from './api';
import type { RawConnection } from './raw-http';

/** Event queues as a client keeps them: registered once, then one GET /events waiting at a time. */
export interface Queue {
  account: Account;
  queueId: string;
  lastEventId: number;
}

export async function registerQueues(url: string, accounts: Account[], eventTypes: string[], agent: http.Agent, batch = 25): Promise<Queue[]> {
  const queues: Queue[] = new Array(accounts.length);
  await inBatches(accounts, batch, async (account, i) => {
    const body = await api(`${url}/api/v1/register`, 'POST', authOf(account), { event_types: JSON.stringify(eventTypes), fetch_event_types: '[]' }, agent);
    queues[i] = { account, queueId: body.queue_id, lastEventId: body.last_event_id };
  });
  return queues;
}

/**
 * One waiting GET /events on the queue's own connection; resolves with the time (performance.now())
 * the response carrying an event of `type` was complete, and that response (pass it to
 * `acknowledge` before polling again). Heartbeats are answered by polling again, as clients do.
 */
export async function pollUntil(queue: Queue, type: string, connection: RawConnection): Promise<{ at: number; text: string }> {
  const awaited = `"type":"${type}"`;
  for (;;) {
    const { at, text } = await connection.get(`/api/v1/events?queue_id=${queue.queueId}&last_event_id=${queue.lastEventId}`, authOf(queue.account));
    // The awaited event is recognised without parsing: with many clients answered at once, the
    // harness's time spent parsing one response would delay the next one's arrival time.
    if (text.includes(awaited)) return { at, text };
    acknowledge(queue, text);
  }
}

/** Acknowledges what a response carried, so the next poll starts after it. */
export function acknowledge(queue: Queue, text: string): void {
  const body = JSON.parse(text);
  if (body.result !== 'success') throw new Error(`GET /events failed: ${text.slice(0, 300)}`);
  const events = body.events as { id: number }[];
  if (events.length > 0) queue.lastEventId = events[events.length - 1].id;
}

/** A GET whose completion time is taken before anything else is done with the body. */
export function rawGet(url: string, auth: string | null, agent: http.Agent): Promise<{ at: number; text: string; status: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, headers: auth ? { authorization: auth } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const at = performance.now();
        resolve({ at, text: Buffer.concat(chunks).toString('utf8'), status: res.statusCode ?? 0 });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export async function deleteQueues(url: string, queues: Queue[], agent: http.Agent): Promise<void> {
  await inBatches(queues, 25, async (q) => {
    await api(`${url}/api/v1/events`, 'DELETE', authOf(q.account), { queue_id: q.queueId }, agent);
  });
}

export interface LatencyFigures {
  minMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
}

export function latencyFigures(samples: number[]): LatencyFigures {
  const sorted = Float64Array.from(samples).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { minMs: sorted[0], p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted[sorted.length - 1], samples: sorted.length };
}
