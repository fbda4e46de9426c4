import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { api, authOf, channelWithSubscribers, inBatches, manySocketsAgent, until, type Account } from '../lib/api';
import { acknowledge, deleteQueues, latencyFigures, LatencyFigures, pollUntil, registerQueues } from '../lib/events';
import { RawConnection } from '../lib/raw-http';
import { numberOption, type Scenario } from '../scenario';

/**
 * End-to-end event delivery: a message is sent (POST /api/v1/messages) to a channel whose N
 * subscribers each hold an event queue with a GET /events waiting on it; the latency of a delivery
 * is the time from just before the POST to the moment that subscriber's GET /events response is
 * complete in the client. The same with N GraphQL subscriptions (graphql-ws on /graphql, one
 * socket each). Baseline in the same run: a bare node:http server holding N waiting requests,
 * which it answers when a trigger request arrives (timed from just before the trigger).
 *
 * The clients live in the harness process, the servers in child processes. Each client takes its
 * arrival time as soon as its response or frame is complete and before parsing it: the harness has
 * one core for 1,000 clients, and a heavier client (node:http's, graphql-ws's) would add its own
 * queue to every figure, the baseline's included. Each figure is over `--sends` events (after one
 * discarded warm-up event) times N deliveries.
 */
const QUERY = 'subscription { events(eventTypes: [message]) { __typename eventId ... on MessageEvent { message flags } } }';

export const scenario: Scenario = {
  name: 'events-latency',
  description: 'POST /messages to delivery at N waiting GET /events and N GraphQL subscriptions, against a bare node:http server answering N held requests',
  options: {
    queues: 'waiting clients: event queues, subscriptions and held requests (default 1,000)',
    sends: 'events timed per kind of client, after one warm-up event (default 5)',
  },
  async run(ctx) {
    const n = numberOption(ctx, 'queues', 1000);
    const sends = numberOption(ctx, 'sends', 5);
    const agent = manySocketsAgent();
    const parley = await ctx.startParley();
    let baselineServer: Awaited<ReturnType<typeof ctx.startBaseline>> | null = null;
    try {
      const [sender, ...receivers] = await parley.call<Account[]>('createUsers', { count: n + 1, prefix: 'bench-events' });
      const streamId = await channelWithSubscribers(
        parley,
        'bench events',
        [sender, ...receivers].map((u) => u.id),
      );
      const send = async (i: number) => {
        const t0 = performance.now();
        await api(
          `${parley.url}/api/v1/messages`,
          'POST',
          authOf(sender),
          { type: 'stream', to: String(streamId), topic: 'latency', content: `event ${i}` },
          agent,
        );
        return { t0, sendMs: performance.now() - t0 };
      };
      const waitingIs = (count: number) => async () => (await parley.call<number>('waiting')) === count;

      // Long-polls.
      ctx.log(`registering ${n} event queues`);
      const queues = await registerQueues(parley.url, receivers, ['message'], agent);
      const connections = queues.map(() => RawConnection.to(parley.url));
      const longPoll: number[] = [];
      const sendMs: number[] = [];
      let eventBytes = 0;
      const longPollCpu = new CpuMeter(parley);
      for (let round = 0; round <= sends; round++) {
        if (round === 1) await longPollCpu.start();
        const polls = queues.map((q, i) => pollUntil(q, 'message', connections[i]));
        await until(waitingIs(n), 'every GET /events to wait');
        const { t0, sendMs: ms } = await send(round);
        const arrivals = await Promise.all(polls);
        arrivals.forEach((a, i) => acknowledge(queues[i], a.text));
        eventBytes = Buffer.byteLength(arrivals[0].text);
        if (round === 0) continue;
        sendMs.push(ms);
        for (const a of arrivals) longPoll.push(a.at - t0);
      }
      await longPollCpu.stop();
      for (const c of connections) c.close();
      await deleteQueues(parley.url, queues, agent);

      // GraphQL subscriptions.
      ctx.log(`starting ${n} GraphQL subscriptions (the harness holds ${openDescriptors()} file descriptors)`);
      const listenersBefore = (await parley.call<number | null>('listeners')) ?? 0;
      const wsUrl = `${parley.url.replace(/^http/, 'ws')}/graphql`;
      const sockets: WebSocket[] = [];
      const graphql: number[] = [];
      let received = 0;
      let t0 = 0;
      let measuring = false;
      let failure: unknown = null;
      const graphqlCpu = new CpuMeter(parley);
      await inBatches(receivers, 50, async (account) => {
        sockets.push(
          await subscribe(
            wsUrl,
            authOf(account),
            QUERY,
            (at) => {
              if (measuring) graphql.push(at - t0);
              received++;
            },
            (error) => (failure ??= error),
          ),
        );
      });
      try {
        await until(async () => failure !== null || (await parley.call<number | null>('listeners')) === listenersBefore + n, 'every subscription to start');
        if (failure) throw new Error(`a subscription failed: ${JSON.stringify(failure)}`);
        for (let round = 0; round <= sends; round++) {
          if (round === 1) await graphqlCpu.start();
          const expected = received + n;
          measuring = round > 0;
          const sent = await send(sends + 1 + round);
          t0 = sent.t0;
          await until(async () => received >= expected, 'every subscriber to receive the event');
          if (round > 0) sendMs.push(sent.sendMs);
        }
        await graphqlCpu.stop();
        // Shown at once, so that a later phase failing does not lose them.
        const f = latencyFigures(graphql);
        ctx.log(`GraphQL subscriptions: first ${f.minMs} ms, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms; CPU ${graphqlCpu.describe()}`);
      } finally {
        // At once: a closing handshake would keep every descriptor open into the next phase.
        for (const socket of sockets) socket.terminate();
      }

      // The baseline: a response of the same size as a long-poll's, to N held requests.
      ctx.log(`holding ${n} requests on a bare node:http server (the harness holds ${openDescriptors()} file descriptors)`);
      const body = JSON.stringify({ result: 'success', msg: '', padding: 'x'.repeat(Math.max(0, eventBytes - 40)) });
      const bare = (baselineServer = await ctx.startBaseline(body, { hold: true }));
      const bareLatencies: number[] = [];
      const bareConnections = receivers.map(() => RawConnection.to(bare.url));
      const trigger = RawConnection.to(bare.url);
      for (let round = 0; round <= sends; round++) {
        const held = bareConnections.map((c) => c.get('/wait', null));
        await until(async () => (await bare.call<number>('waiting')) === n, 'the bare server to hold every request');
        const start = performance.now();
        await trigger.get('/trigger', null);
        const arrivals = await Promise.all(held);
        if (round > 0) for (const a of arrivals) bareLatencies.push(a.at - start);
      }
      for (const c of [...bareConnections, trigger]) c.close();

      const figures: [string, LatencyFigures][] = [
        ['node:http baseline, held requests', latencyFigures(bareLatencies)],
        ['Parley, GET /events long-polls', latencyFigures(longPoll)],
        ['Parley, GraphQL subscriptions', latencyFigures(graphql)],
      ];
      const base = figures[0][1];
      const posts = latencyFigures(sendMs);
      return {
        results: [],
        tables: [
          {
            title: `delivery of one event to ${n.toLocaleString('en-US')} waiting clients, ${sends} events each:`,
            columns: ['', 'first ms', 'p50 ms', 'p99 ms', 'max ms', 'deliveries', 'p50 / baseline', 'p99 / baseline'],
            rows: figures.map(([label, f]) => [
              label,
              f.minMs,
              f.p50Ms,
              f.p99Ms,
              f.maxMs,
              String(f.samples),
              (f.p50Ms / base.p50Ms).toFixed(1),
              (f.p99Ms / base.p99Ms).toFixed(1),
            ]),
          },
        ],
        // p99 delivery as a multiple of the bare server's p99 in the same run.
        goals: [
          { label: 'p99 / baseline p99, GET /events', value: figures[1][1].p99Ms / base.p99Ms, atMost: 1.25 },
          { label: 'p99 / baseline p99, GraphQL subscriptions', value: figures[2][1].p99Ms / base.p99Ms, atMost: 1.25 },
        ],
        notes: [
          `POST /messages itself (${n + 1} recipients): p50 ${posts.p50Ms.toFixed(1)} ms, max ${posts.maxMs.toFixed(1)} ms; a delivery's time includes it`,
          `long-poll response: ${eventBytes} bytes; the baseline answers a body of the same size`,
          `CPU over the measured events, long-polls: ${longPollCpu.describe()}`,
          `CPU over the measured events, GraphQL subscriptions: ${graphqlCpu.describe()}`,
        ],
      };
    } finally {
      agent.destroy();
      await baselineServer?.stop();
      await parley.stop();
    }
  },
};

/**
 * One graphql-ws (graphql-transport-ws protocol) subscription on its own socket, spoken directly:
 * `onNext` gets the arrival time of each `next` frame, taken before the frame is parsed. Resolves
 * once the server has sent the connection_ack and the subscribe message has gone out.
 */
function subscribe(url: string, authorization: string, query: string, onNext: (at: number) => void, onError: (error: unknown) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', { perMessageDeflate: false });
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization } })));
    socket.on('message', (data: Buffer) => {
      const at = performance.now();
      // As for long-polls, the event frame is recognised without parsing it.
      if (data.includes('"type":"next"')) return onNext(at);
      const message = JSON.parse(data.toString('utf8')) as { type: string; payload?: unknown };
      if (message.type === 'connection_ack') {
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query } }));
        resolve(socket);
      } else if (message.type === 'ping') socket.send(JSON.stringify({ type: 'pong' }));
      else if (message.type === 'error') onError(message.payload);
    });
    socket.on('error', reject);
    socket.on('close', (code, reason) => {
      reject(new Error(`socket closed: ${code} ${reason.toString()}`));
      onError({ code, reason: reason.toString() });
    });
  });
}

/**
 * CPU time of the harness and of the Parley process over a phase's measured events, against the
 * wall time: a harness near one core's worth is itself the bottleneck, not the server.
 */
class CpuMeter {
  private wall = 0;
  private harness = process.cpuUsage();
  private server = 0;
  constructor(private readonly parley: { cpuMicros(): Promise<number> }) {}
  async start() {
    this.server = await this.parley.cpuMicros();
    this.harness = process.cpuUsage();
    this.wall = performance.now();
  }
  async stop() {
    const used = process.cpuUsage(this.harness);
    this.wall = performance.now() - this.wall;
    this.harness = used;
    this.server = (await this.parley.cpuMicros()) - this.server;
  }
  describe(): string {
    const share = (micros: number) => `${(micros / 1000).toFixed(0)} ms (${((micros / 1000 / this.wall) * 100).toFixed(0)} % of a core)`;
    return `${this.wall.toFixed(0)} ms wall; harness ${share(this.harness.user + this.harness.system)}, Parley ${share(this.server)}`;
  }
}

/** File descriptors this process holds (Linux), to show how close a run comes to `ulimit -n`. */
function openDescriptors(): number | string {
  try {
    return fs.readdirSync('/proc/self/fd').length;
  } catch {
    return 'unknown';
  }
}
