import { api, authOf, inBatches, manySocketsAgent, until, type Account } from '../lib/api';
import { registerQueues, rawGet } from '../lib/events';
import { numberOption, type Scenario } from '../scenario';
import http from 'node:http';

/**
 * Memory of event queues in the server process: per idle registered queue (POST /register, nothing
 * waiting) and per waiting GET /events, against a bare node:http server holding the same number of
 * requests, in the same run.
 *
 * How it is measured: each server child runs with --expose-gc; the harness asks it over IPC (its
 * `memory` command, not an HTTP endpoint) to collect garbage fully and report
 * process.memoryUsage(). A figure is the difference between two such readings, divided by the
 * number of queues or requests. Before the first reading every code path was run once (warm-up
 * users), and every user authenticated once (so the authentication cache, which keeps an entry per
 * credential, is already full and does not count as queue memory). Registration goes through 25
 * keep-alive sockets opened before the first reading, so an idle queue's figure holds no socket; a
 * waiting GET /events holds its own connection, as does each held request of the baseline.
 *
 * heap is the V8 heap in use (JS objects: queues, waiters, request objects). RSS also counts native
 * memory (socket buffers, the allocator's pages) but is coarse: pages freed are not always returned.
 */
const WARM_UP_USERS = 25;

export const scenario: Scenario = {
  name: 'queue-memory',
  description: 'server memory per idle event queue and per waiting GET /events, against a bare node:http server holding as many requests',
  options: { queues: 'queues registered and requests held (default 1,000)' },
  async run(ctx) {
    const n = numberOption(ctx, 'queues', 1000);
    const pooled = new http.Agent({ keepAlive: true, maxSockets: 25 });
    const many = manySocketsAgent();
    const parley = await ctx.startParley({ exposeGc: true });
    let baselineServer: Awaited<ReturnType<typeof ctx.startBaseline>> | null = null;
    try {
      type Memory = { heapUsed: number; rss: number; collected: boolean };
      const accounts = await parley.call<Account[]>('createUsers', { count: n + WARM_UP_USERS, prefix: 'bench-memory' });
      const warm = accounts.slice(0, WARM_UP_USERS);
      const users = accounts.slice(WARM_UP_USERS);

      // Warm-up: register, wait, delete (every path once), and authenticate every user once.
      const warmQueues = await registerQueues(parley.url, warm, ['message'], pooled);
      const warmPolls = warmQueues.map((q) =>
        rawGet(`${parley.url}/api/v1/events?queue_id=${q.queueId}&last_event_id=${q.lastEventId}`, authOf(q.account), many).catch(() => null),
      );
      await until(async () => (await parley.call<number>('waiting')) === WARM_UP_USERS, 'the warm-up polls to wait');
      await inBatches(warmQueues, 25, async (q) => {
        await api(`${parley.url}/api/v1/events`, 'DELETE', authOf(q.account), { queue_id: q.queueId }, pooled);
      });
      await Promise.all(warmPolls);
      await inBatches(users, 25, async (u) => {
        await api(`${parley.url}/api/v1/users/me`, 'GET', authOf(u), undefined, pooled);
      });

      const before = await parley.call<Memory>('memory');
      const queues = await registerQueues(parley.url, users, ['message'], pooled);
      const idle = await parley.call<Memory>('memory', { label: 'idle' });
      const polls = queues.map((q) =>
        rawGet(`${parley.url}/api/v1/events?queue_id=${q.queueId}&last_event_id=${q.lastEventId}`, authOf(q.account), many).catch(() => null),
      );
      await until(async () => (await parley.call<number>('waiting')) === n, 'every GET /events to wait');
      const waiting = await parley.call<Memory>('memory', { label: 'waiting' });
      if (!before.collected) throw new Error('the Parley child has no gc(): it was not started with --expose-gc');

      // The baseline: the same number of requests held by bare node:http.
      const bare = (baselineServer = await ctx.startBaseline('{"result":"success","msg":"","events":[]}', { hold: true, exposeGc: true }));
      const warmHeld = Array.from({ length: WARM_UP_USERS }, () => rawGet(`${bare.url}/wait`, null, many));
      await until(async () => (await bare.call<number>('waiting')) === WARM_UP_USERS, 'the warm-up requests to be held');
      await rawGet(`${bare.url}/trigger`, null, many);
      await Promise.all(warmHeld);
      const bareBefore = await bare.call<Memory>('memory');
      const held = Array.from({ length: n }, () => rawGet(`${bare.url}/wait`, null, many));
      await until(async () => (await bare.call<number>('waiting')) === n, 'the bare server to hold every request');
      const bareHolding = await bare.call<Memory>('memory');
      await rawGet(`${bare.url}/trigger`, null, many);
      await Promise.all(held);

      const per = (after: Memory, from: Memory, key: 'heapUsed' | 'rss') => (after[key] - from[key]) / n / 1024;
      const bareHeap = per(bareHolding, bareBefore, 'heapUsed');
      const bareRss = per(bareHolding, bareBefore, 'rss');
      const idleHeap = per(idle, before, 'heapUsed');
      const waitHeap = per(waiting, idle, 'heapUsed');
      const waitRss = per(waiting, idle, 'rss');
      void polls;
      return {
        results: [],
        tables: [
          {
            title: `server memory per item, ${n.toLocaleString('en-US')} items (KiB; after a full collection):`,
            columns: ['', 'heap KiB', 'RSS KiB', 'heap / baseline', 'RSS / baseline'],
            rows: [
              ['node:http baseline, held request', bareHeap.toFixed(2), bareRss.toFixed(2), '1.0', '1.0'],
              ['Parley, idle registered queue', idleHeap.toFixed(2), per(idle, before, 'rss').toFixed(2), '-', '-'],
              ['Parley, waiting GET /events', waitHeap.toFixed(2), waitRss.toFixed(2), (waitHeap / bareHeap).toFixed(1), (waitRss / bareRss).toFixed(1)],
            ],
          },
        ],
        goals: [{ label: 'Parley heap per idle queue', value: idleHeap, atMost: 4, unit: 'KiB' }],
        notes: [
          'a waiting GET /events is counted on top of its idle queue; it holds its own connection, as a held request of the baseline does',
          `Parley heap: ${(before.heapUsed / 1048576).toFixed(1)} MiB before, ${(idle.heapUsed / 1048576).toFixed(1)} with the queues, ${(waiting.heapUsed / 1048576).toFixed(1)} with the polls waiting`,
        ],
      };
    } finally {
      pooled.destroy();
      await baselineServer?.stop();
      await parley.stop();
      many.destroy();
    }
  },
};
