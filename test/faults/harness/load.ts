import { randomUUID } from 'node:crypto';
import type { ParleyProcess } from './parley';

/**
 * A steady load on every process, as Zulip clients make it: senders, readers, long-polling event
 * queues (re-registering on BAD_EVENT_QUEUE_ID) and a readiness probe. Every call is recorded with
 * its times and status, every acknowledged message with its client-side uuid, every message event
 * with the queue and event id it came in.
 */

export type CallKind = 'send' | 'read' | 'register' | 'events' | 'ready';

export interface Call {
  process: string;
  kind: CallKind;
  start: number;
  end: number;
  /** HTTP status; 0: no connection or the connection broke; -1: no answer within the client's bound. */
  status: number;
  code?: string;
  /** The Retry-After header of a 429 or 503. */
  retryAfter?: string;
}

export interface Sent {
  uuid: string;
  id: number;
  process: string;
  start: number;
  end: number;
}

/** One queue a poller held: from its register to the BAD_EVENT_QUEUE_ID that ended it, if any. */
export interface Generation {
  queueId: string;
  registeredAt: number;
  lostAt: number | null;
  /**
   * Message id → the distinct event ids that carried it (an answer lost in transit is asked for
   * again with the same last_event_id: the same event id again is not a duplicate).
   */
  messages: Map<number, Set<number>>;
}

export interface Poller {
  name: string;
  process: string;
  generations: Generation[];
  restartEvents: number;
}

export const CONTENT_PREFIX = 'fault-load';
/** Calls that take longer than this are counted as hangs (long polls: the heartbeat plus this). */
const CALL_BOUND_MS = 30_000;
const LONG_POLL_BOUND_MS = 5_000 + CALL_BOUND_MS;
/** A client's pause after a failed call, and between two sends or reads (the load's pace). */
const BACKOFF_MS = 100;
const SEND_PACE_MS = 100;
const READ_PACE_MS = 250;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface LoadOptions {
  processes: ParleyProcess[];
  auth: { email: string; apiKey: string };
  stream: string;
  sendersPerProcess?: number;
  pollersPerProcess?: number;
  readersPerProcess?: number;
}

export class Load {
  readonly calls: Call[] = [];
  readonly sent: Sent[] = [];
  readonly pollers: Poller[] = [];
  private sending = true;
  private polling = true;
  private readonly stopPolls = new AbortController();
  private readonly sendLoops: Promise<void>[] = [];
  private readonly pollLoops: Promise<void>[] = [];
  private readonly authorization: string;

  constructor(private readonly options: LoadOptions) {
    this.authorization = `Basic ${Buffer.from(`${options.auth.email}:${options.auth.apiKey}`).toString('base64')}`;
  }

  /** Starts every loop; resolves once every poller has registered its first queue. */
  async start(): Promise<void> {
    const { processes, sendersPerProcess = 2, pollersPerProcess = 2, readersPerProcess = 1 } = this.options;
    const registered: Promise<void>[] = [];
    for (const p of processes) {
      for (let i = 0; i < pollersPerProcess; i += 1) {
        const poller: Poller = { name: `${p.name}-poll-${i}`, process: p.name, generations: [], restartEvents: 0 };
        this.pollers.push(poller);
        let first!: () => void;
        registered.push(new Promise<void>((resolve) => (first = resolve)));
        this.pollLoops.push(this.poll(p, poller, first));
      }
      this.pollLoops.push(this.probe(p));
    }
    await Promise.all(registered);
    for (const p of processes) {
      for (let i = 0; i < sendersPerProcess; i += 1) this.sendLoops.push(this.send(p));
      for (let i = 0; i < readersPerProcess; i += 1) this.sendLoops.push(this.read(p));
    }
  }

  /** Acknowledged sends through `process` that started at or after `since`. */
  sentThrough(process: string, since = 0): number {
    return this.sent.filter((s) => s.process === process && s.start >= since).length;
  }

  /** Stops senders and readers, waiting for the calls under way. */
  async stopSending(): Promise<void> {
    this.sending = false;
    await Promise.all(this.sendLoops);
  }

  /** Stops the pollers (their waiting requests are abandoned, not recorded). */
  async stopPolling(): Promise<void> {
    this.polling = false;
    this.stopPolls.abort();
    await Promise.all(this.pollLoops);
  }

  private async call(p: ParleyProcess, kind: CallKind, method: string, path: string, params: Record<string, string>, boundMs = CALL_BOUND_MS) {
    const start = Date.now();
    const headers: Record<string, string> = { authorization: this.authorization, 'user-agent': 'ZulipFaultLoad/1.0' };
    let url = `${p.url}${path}`;
    let body: string | undefined;
    if (method === 'GET') url += `?${new URLSearchParams(params)}`;
    else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(params).toString();
    }
    const signal = AbortSignal.any([this.stopPolls.signal, AbortSignal.timeout(boundMs)]);
    let status: number;
    let json: Record<string, any> | null = null;
    let retryAfter: string | undefined;
    try {
      const response = await fetch(url, { method, headers, body, signal });
      status = response.status;
      retryAfter = response.headers.get('retry-after') ?? undefined;
      json = (await response.json().catch(() => null)) as Record<string, any> | null;
    } catch (error) {
      if (this.stopPolls.signal.aborted) return null;
      status = (error as Error).name === 'TimeoutError' ? -1 : 0;
    }
    this.calls.push({ process: p.name, kind, start, end: Date.now(), status, code: json?.code, retryAfter });
    return { status, body: json };
  }

  private async send(p: ParleyProcess): Promise<void> {
    while (this.sending) {
      const uuid = randomUUID();
      const start = Date.now();
      const answer = await this.call(p, 'send', 'POST', '/api/v1/messages', {
        type: 'stream',
        to: this.options.stream,
        topic: 'load',
        content: `${CONTENT_PREFIX} ${uuid}`,
      });
      if (answer?.status === 200 && answer.body?.result === 'success') {
        this.sent.push({ uuid, id: answer.body.id, process: p.name, start, end: Date.now() });
        await pause(SEND_PACE_MS);
      } else await pause(BACKOFF_MS);
    }
  }

  private async read(p: ParleyProcess): Promise<void> {
    const narrow = JSON.stringify([{ operator: 'channel', operand: this.options.stream }]);
    while (this.sending) {
      await this.call(p, 'read', 'GET', '/api/v1/messages', { anchor: 'newest', num_before: '20', num_after: '0', narrow });
      await pause(READ_PACE_MS);
    }
  }

  /** GET /health/ready, as a load balancer polls it. */
  private async probe(p: ParleyProcess): Promise<void> {
    while (this.polling) {
      await this.call(p, 'ready', 'GET', '/health/ready', {});
      await pause(READ_PACE_MS);
    }
  }

  private async poll(p: ParleyProcess, poller: Poller, registered: () => void): Promise<void> {
    let generation: Generation | null = null;
    let lastEventId = -1;
    while (this.polling) {
      if (!generation) {
        const answer = await this.call(p, 'register', 'POST', '/api/v1/register', {
          event_types: JSON.stringify(['message']),
          fetch_event_types: JSON.stringify(['message']),
        });
        if (answer?.status === 200 && answer.body?.queue_id) {
          generation = { queueId: answer.body.queue_id, registeredAt: Date.now(), lostAt: null, messages: new Map() };
          poller.generations.push(generation);
          lastEventId = answer.body.last_event_id;
          registered();
        } else if (answer) await pause(BACKOFF_MS);
        continue;
      }
      const answer = await this.call(
        p,
        'events',
        'GET',
        '/api/v1/events',
        { queue_id: generation.queueId, last_event_id: String(lastEventId) },
        LONG_POLL_BOUND_MS,
      );
      if (!answer) continue;
      if (answer.status === 200 && answer.body?.result === 'success') {
        for (const event of answer.body.events as { id: number; type: string; message?: { id: number } }[]) {
          lastEventId = Math.max(lastEventId, event.id);
          if (event.type === 'restart') poller.restartEvents += 1;
          if (event.type === 'message' && event.message) {
            const carriers = generation.messages.get(event.message.id) ?? new Set<number>();
            carriers.add(event.id);
            generation.messages.set(event.message.id, carriers);
          }
        }
      } else if (answer.status === 400 && answer.body?.code === 'BAD_EVENT_QUEUE_ID') {
        generation.lostAt = Date.now();
        generation = null;
      } else await pause(BACKOFF_MS);
    }
  }
}
