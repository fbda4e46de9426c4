import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { MOBILE_REGISTER } from './api';
import { basicAuth } from './servers';

/**
 * One load-generator process of the `capacity` scenario: it simulates the users the harness gives
 * it, each behaving as a Zulip client does (see bench/README.md, "capacity", for the model and
 * where its rates come from). The harness talks to it over IPC:
 *   {type: 'add', users: SimUser[], model}   start simulating these users (each registers first)
 *   {type: 'window'}                          start a measurement window (clears the samples)
 *   {type: 'report'}                          -> {type: 'report', ...WindowReport} for the window
 *   {type: 'started'}                         -> {type: 'started', started}: users started so far
 *   {type: 'stop'}                            stop every user and exit
 */
export interface SimUser {
  id: number;
  email: string;
  apiKey: string;
  /** The server this user's client talks to (a deployment of several processes spreads them). */
  url: string;
  /** The channel the user sends to and reads. */
  channelId: number;
}

/** Rates of the model, in real seconds once divided by the time compression. */
export interface Model {
  presenceEverySeconds: number;
  sendEverySeconds: number;
  fetchEverySeconds: number;
  /** Share of received messages the user reads while the app is open (marked read by the client). */
  readShare: number;
  /** Spread of the users' start-up (register and first fetch) after being added. */
  startSpreadSeconds: number;
}

export interface WindowReport {
  /** POST /messages round trips, ms. */
  sends: number[];
  /** From just before a POST /messages to the message's event arriving at each recipient, ms. */
  deliveries: number[];
  /** Every other request's round trip (register, presence, fetch, flags, typing), ms. */
  others: number[];
  requests: number;
  failures: number;
  firstFailure: string | null;
  cpuMicros: number;
  seconds: number;
  /** Users whose start-up finished (registered and fetched). */
  started: number;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
let stopped = false;
let window = newWindow();
let windowStart = performance.now();
let windowCpu = process.cpuUsage();
let started = 0;
let firstStartFailure: string | null = null;

function newWindow() {
  return { sends: [] as number[], deliveries: [] as number[], others: [] as number[], requests: 0, failures: 0, firstFailure: null as string | null };
}

function request(user: SimUser, method: string, path: string, form?: Record<string, string>): Promise<{ status: number; text: string }> {
  const body = form ? new URLSearchParams(form).toString() : undefined;
  const headers: Record<string, string | number> = { authorization: basicAuth(user.email, user.apiKey), 'user-agent': 'ZulipMobile/capacity' };
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = Buffer.byteLength(body);
  }
  return new Promise((resolve, reject) => {
    const req = http.request(`${user.url}${path}`, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A timed request whose failure is counted, never thrown. */
async function timed(user: SimUser, kind: 'sends' | 'others', method: string, path: string, form?: Record<string, string>): Promise<string | null> {
  const t0 = performance.now();
  try {
    const { status, text } = await request(user, method, path, form);
    window.requests++;
    if (status !== 200) throw new Error(`${method} ${path.split('?')[0]} answered ${status}: ${text.slice(0, 200)}`);
    window[kind].push(performance.now() - t0);
    return text;
  } catch (error) {
    window.failures++;
    window.firstFailure ??= error instanceof Error ? error.message : String(error);
    return null;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** An interval with ±50 % jitter, so users do not act in lockstep. */
const jittered = (seconds: number) => seconds * 1000 * (0.5 + Math.random());

/** Message content carries the sender's clock (Date.now(), shared by every process on the machine). */
const SENT_AT = /sent-at (\d+(?:\.\d+)?)/;

async function simulate(user: SimUser, model: Model): Promise<void> {
  await sleep(Math.random() * model.startSpreadSeconds * 1000);
  if (stopped) return;
  const register = () =>
    timed(user, 'others', 'POST', '/api/v1/register', {
      ...MOBILE_REGISTER,
      event_types: JSON.stringify(['message', 'update_message_flags', 'typing', 'presence', 'delete_message', 'update_message']),
      fetch_event_types: JSON.stringify(['message', 'update_message_flags', 'subscription', 'presence']),
      client_gravatar: 'true',
    });
  // As the apps do, a failed register is tried again a few seconds later; the first failure is kept
  // so that a step whose users cannot start says why.
  let registered = await register();
  while (registered === null && !stopped) {
    firstStartFailure ??= window.firstFailure;
    await sleep(jittered(5));
    registered = await register();
  }
  if (registered === null) return;
  const state = JSON.parse(registered) as { queue_id: string; last_event_id: number };
  const narrow = encodeURIComponent(JSON.stringify([{ operator: 'channel', operand: user.channelId }]));
  const fetchNewest = () =>
    timed(user, 'others', 'GET', `/api/v1/messages?anchor=newest&num_before=50&num_after=0&narrow=${narrow}&apply_markdown=true&client_gravatar=true`);
  await fetchNewest();
  started++;
  const loops = [
    poll(user, state.queue_id, state.last_event_id, model),
    every(model.presenceEverySeconds, () =>
      timed(user, 'others', 'POST', '/api/v1/users/me/presence', { status: 'active', new_user_input: 'true', ping_only: 'false', slim_presence: 'true' }),
    ),
    every(model.fetchEverySeconds, fetchNewest),
    every(model.sendEverySeconds, async () => {
      const topic = `topic ${user.id % 5}`;
      await timed(user, 'others', 'POST', '/api/v1/typing', { op: 'start', type: 'stream', stream_id: String(user.channelId), topic });
      await timed(user, 'sends', 'POST', '/api/v1/messages', { type: 'stream', to: String(user.channelId), topic, content: `hello, sent-at ${Date.now()}` });
      await timed(user, 'others', 'POST', '/api/v1/typing', { op: 'stop', type: 'stream', stream_id: String(user.channelId), topic });
    }),
  ];
  await Promise.all(loops);
}

/**
 * The first time at a random phase of the interval, as for a client that has been open a while:
 * otherwise nobody would act until a whole interval after start-up, and a measured window that
 * begins sooner (start-up and settling take 75 s, a send interval is 150 to 450 s) would see none.
 */
async function every(seconds: number, action: () => Promise<unknown>): Promise<void> {
  let wait = Math.random() * seconds * 1000;
  while (!stopped) {
    await sleep(wait);
    if (stopped) return;
    await action();
    wait = jittered(seconds);
  }
}

/** The one GET /events each client keeps waiting, re-polled as soon as it answers. */
async function poll(user: SimUser, queueId: string, lastEventId: number, model: Model): Promise<void> {
  while (!stopped) {
    let text: string;
    try {
      const response = await request(user, 'GET', `/api/v1/events?queue_id=${queueId}&last_event_id=${lastEventId}`);
      window.requests++;
      if (response.status !== 200) throw new Error(`GET /events answered ${response.status}: ${response.text.slice(0, 200)}`);
      text = response.text;
    } catch (error) {
      if (stopped) return;
      window.failures++;
      window.firstFailure ??= error instanceof Error ? error.message : String(error);
      await sleep(1000);
      continue;
    }
    const arrived = Date.now();
    const events = (JSON.parse(text) as { events: { id: number; type: string; message?: { id: number; sender_id: number; content: string } }[] }).events;
    const toRead: number[] = [];
    for (const event of events) {
      lastEventId = Math.max(lastEventId, event.id);
      if (event.type !== 'message' || !event.message) continue;
      const sentAt = SENT_AT.exec(event.message.content);
      if (sentAt) window.deliveries.push(arrived - Number(sentAt[1]));
      if (event.message.sender_id !== user.id && Math.random() < model.readShare) toRead.push(event.message.id);
    }
    if (toRead.length > 0) {
      // Read a few seconds later, as a person scrolling does; not awaited, so polling goes on.
      void sleep(jittered(3)).then(() =>
        stopped ? null : timed(user, 'others', 'POST', '/api/v1/messages/flags', { messages: JSON.stringify(toRead), op: 'add', flag: 'read' }),
      );
    }
  }
}

process.on('message', (message: { type: string; users?: SimUser[]; model?: Model }) => {
  if (message.type === 'add') {
    for (const user of message.users!) void simulate(user, message.model!);
  } else if (message.type === 'window') {
    window = newWindow();
    windowStart = performance.now();
    windowCpu = process.cpuUsage();
  } else if (message.type === 'report') {
    const cpu = process.cpuUsage(windowCpu);
    const report: WindowReport = { ...window, cpuMicros: cpu.user + cpu.system, seconds: (performance.now() - windowStart) / 1000, started };
    process.send!({ type: 'report', ...report });
  } else if (message.type === 'started') {
    process.send!({ type: 'started', started, firstStartFailure });
  } else if (message.type === 'stop') {
    stopped = true;
    agent.destroy();
    process.exit(0);
  }
});
process.send!({ type: 'ready' });
