import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { metricValue, outboxCommand, UUID } from '../outbox/helpers';

// Outgoing webhooks against a real HTTP service on loopback: what the service receives, and what
// the bot posts back from its answer.
interface Received {
  path: string;
  contentType: string;
  body: string;
  /** The outbox item's key (X-Parley-Delivery). */
  delivery: string;
  /** When it arrived (ms since the epoch). */
  at: number;
}

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let service: http.Server;
let serviceUrl: string;
const received: Received[] = [];
/** How the service answers each path. */
const answers: Record<string, { status: number; body: string; delayMs?: number; failFirst?: number }> = {};

beforeAll(async () => {
  service = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'] ?? '',
        body,
        delivery: String(req.headers['x-parley-delivery'] ?? ''),
        at: Date.now(),
      });
      let answer = answers[req.url ?? ''] ?? { status: 200, body: '{}' };
      if (answer.failFirst) {
        answer.failFirst -= 1;
        answer = { status: 500, body: 'not yet' };
      }
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(answer.body);
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  serviceUrl = `http://127.0.0.1:${(service.address() as AddressInfo).port}`;
  // Retries 20 ms, 40 ms, 80 ms apart: the backoff's shape at a test's pace.
  ts = await startTestServer({ PARLEY_OUTBOX_RETRY_BASE_MS: '20' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Caller' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Bystander' });
  for (const who of [alice, bob]) assertSuccess(await client(ts, who).post('/users/me/subscriptions', { subscriptions: [{ name: 'lounge' }] }));
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  await new Promise((resolve) => service.close(resolve));
}, SERVER_HOOK_TIMEOUT);

let counter = 0;
async function outgoingBot(path: string, extra: Record<string, unknown> = {}) {
  counter += 1;
  const name = `Echo ${counter}`;
  const { user_id } = assertSuccess(
    await client(ts, alice).post('/bots', {
      full_name: name,
      short_name: `echo${counter}`,
      bot_type: 3,
      payload_url: JSON.stringify(`${serviceUrl}${path}`),
      ...extra,
    }),
  );
  const bots = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: ['realm_bot'] })).realm_bots;
  const token = bots.find((b: { user_id: number }) => b.user_id === user_id).services[0].token as string;
  return { id: user_id as number, name, token };
}

const requestsTo = (path: string) => received.filter((r) => r.path === path);

async function messagesIn(who: TestUser, narrow: unknown[]) {
  return assertSuccess(await client(ts, who).get('/messages', { anchor: 'newest', num_before: 20, num_after: 0, narrow, apply_markdown: false }))
    .messages as Record<string, any>[];
}

test('a mention in a channel is posted to the service, and its answer is posted back in the topic', async () => {
  answers['/mention'] = { status: 200, body: JSON.stringify({ content: 'Hello **Alice**' }) };
  const bot = await outgoingBot('/mention');
  const started = Date.now();
  const sent = assertSuccess(
    await client(ts, alice).post('/messages', { type: 'stream', to: 'lounge', topic: 'greetings', content: `@**${bot.name}** say hi` }),
  );
  const sendMs = Date.now() - started;
  // The call was queued with the message: when the send answers, its outbox item is there.
  const items = await ts.server.deps.knex('deliveries').where({ kind: 'webhook' }).whereRaw("(payload->>'message_id')::int = ?", [sent.id]);
  expect(items.map((i) => i.payload)).toEqual([{ message_id: sent.id, bot_id: bot.id, trigger: 'mention' }]);
  await waitUntil(async () => (await messagesIn(bob, [{ operator: 'channel', operand: 'lounge' }])).some((m) => m.sender_id === bot.id));
  const [request] = requestsTo('/mention');
  expect(request.contentType).toBe('application/json');
  const payload = JSON.parse(request.body);
  expect(payload).toEqual({
    data: `@**${bot.name}** say hi`,
    token: bot.token,
    trigger: 'mention',
    bot_email: expect.stringMatching(/^echo\d+-bot@/),
    bot_full_name: bot.name,
    message: expect.objectContaining({
      id: sent.id,
      type: 'stream',
      content: `@**${bot.name}** say hi`,
      rendered_content: expect.stringContaining('class="user-mention"'),
      display_recipient: 'lounge',
      subject: 'greetings',
      sender_id: alice.id,
      sender_full_name: 'Alice Caller',
    }),
  });
  const replyMessage = (await messagesIn(bob, [{ operator: 'channel', operand: 'lounge' }])).find((m) => m.sender_id === bot.id)!;
  expect(replyMessage).toMatchObject({ subject: 'greetings', content: 'Hello **Alice**' });
  // The send did not wait for the service.
  expect(sendMs).toBeLessThan(5_000);
});

test('a direct message to the bot triggers it; the answer goes back to the conversation', async () => {
  answers['/dm'] = { status: 200, body: JSON.stringify({ content: 'Got it' }) };
  const bot = await outgoingBot('/dm');
  assertSuccess(await client(ts, alice).post('/messages', { type: 'private', to: JSON.stringify([bot.id]), content: 'ping' }));
  await waitUntil(async () => (await messagesIn(alice, [{ operator: 'dm', operand: [bot.id] }])).some((m) => m.sender_id === bot.id));
  expect(JSON.parse(requestsTo('/dm')[0].body)).toMatchObject({ trigger: 'direct_message', data: 'ping', message: { type: 'private' } });
  const answer = (await messagesIn(alice, [{ operator: 'dm', operand: [bot.id] }])).find((m) => m.sender_id === bot.id);
  expect(answer).toMatchObject({ content: 'Got it' });
});

test('messages that do not mention the bot, and messages from bots, trigger nothing', async () => {
  const bot = await outgoingBot('/quiet');
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: 'lounge', topic: 'other', content: `talking about ${bot.name}` }));
  const generic = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Generic Caller', short_name: 'generic-caller' }));
  const genericEmail = assertSuccess(await client(ts, alice).get(`/users/${generic.user_id}`)).user.email;
  assertSuccess(
    await client(ts, { email: genericEmail, apiKey: generic.api_key }).post('/messages', {
      type: 'stream',
      to: 'lounge',
      topic: 'other',
      content: `@**${bot.name}** from a bot`,
    }),
  );
  // A later trigger of another bot shows the earlier messages were handled (or skipped).
  answers['/later'] = { status: 200, body: '{"response_not_required": true}' };
  const later = await outgoingBot('/later');
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: 'lounge', topic: 'other', content: `@**${later.name}**` }));
  await waitUntil(() => requestsTo('/later').length === 1);
  expect(requestsTo('/quiet')).toEqual([]);
});

test('response_not_required and empty content post nothing', async () => {
  answers['/silent'] = { status: 200, body: JSON.stringify({ content: '   ' }) };
  const bot = await outgoingBot('/silent');
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: 'lounge', topic: 'silence', content: `@**${bot.name}** hush` }));
  await waitUntil(() => requestsTo('/silent').length === 1);
  // Once the item is marked sent, a wrongly posted reply would be there (it commits with the mark).
  await waitUntil(
    async () =>
      (
        await ts.server.deps
          .knex('deliveries')
          .where({ key: requestsTo('/silent')[0].delivery })
          .first()
      )?.state === 'sent',
  );
  expect((await messagesIn(alice, [{ operator: 'topic', operand: 'silence' }])).filter((m) => m.sender_id === bot.id)).toEqual([]);
});

test('a service answering 4xx: the bot reports the failure and tells its owner', async () => {
  answers['/broken'] = { status: 403, body: '{"error": "nope"}' };
  const bot = await outgoingBot('/broken');
  assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: 'lounge', topic: 'failures', content: `@**${bot.name}** please` }));
  await waitUntil(async () => (await messagesIn(bob, [{ operator: 'topic', operand: 'failures' }])).some((m) => m.sender_id === bot.id));
  const failure = (await messagesIn(bob, [{ operator: 'topic', operand: 'failures' }])).find((m) => m.sender_id === bot.id);
  expect(failure).toMatchObject({ content: 'Failure! Third party responded with 403' });
  await waitUntil(async () => (await messagesIn(alice, [{ operator: 'dm', operand: [bot.id] }])).length > 0);
  const note = (await messagesIn(alice, [{ operator: 'dm', operand: [bot.id] }])).pop();
  expect(note!.content).toContain(`to your bot @_**${bot.name}** triggered an outgoing webhook.\nThe webhook got a response with status code *403*.`);
});

test('a service answering 5xx is tried again before the failure is reported', async () => {
  answers['/flaky'] = { status: 502, body: 'bad gateway' };
  const bot = await outgoingBot('/flaky');
  assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: 'lounge', topic: 'flaky', content: `@**${bot.name}** hello?` }));
  await waitUntil(async () => (await messagesIn(bob, [{ operator: 'topic', operand: 'flaky' }])).some((m) => m.sender_id === bot.id));
  expect(requestsTo('/flaky')).toHaveLength(4);
  const failure = (await messagesIn(bob, [{ operator: 'topic', operand: 'flaky' }])).find((m) => m.sender_id === bot.id);
  expect(failure).toMatchObject({ content: 'Failure! Bot is unavailable' });
  await waitUntil(async () => (await messagesIn(alice, [{ operator: 'dm', operand: [bot.id] }])).length > 0);
  expect((await messagesIn(alice, [{ operator: 'dm', operand: [bot.id] }])).pop()!.content).toContain('\nInternal server error at third party');
  // One outbox item, the same key on every attempt, now dead: operators see it, with its error.
  const keys = new Set(requestsTo('/flaky').map((r) => r.delivery));
  expect(keys.size).toBe(1);
  const [key] = keys;
  expect(key).toMatch(UUID);
  const item = await ts.server.deps.knex('deliveries').where({ key }).first();
  expect(item).toMatchObject({ kind: 'webhook', state: 'dead', attempts: 4, last_error: 'Internal server error at third party' });
  const listing = await outboxCommand(ts);
  expect(listing).toMatch(/^webhook\tdead\t\d+$/m);
  expect(listing).toContain(`${key}\tInternal server error at third party`);
  expect(await metricValue(ts, 'parley_outbox_items{kind="webhook",state="dead"}')).toBeGreaterThanOrEqual(1);
  expect(await metricValue(ts, 'parley_outbox_dead_total{kind="webhook"}')).toBeGreaterThanOrEqual(1);
  expect(await metricValue(ts, 'parley_outbox_retries_total{kind="webhook"}')).toBeGreaterThanOrEqual(3);
});

test('a service failing twice, then answering: three calls with one delivery key, a growing wait between, one reply', async () => {
  answers['/recovering'] = { status: 200, body: JSON.stringify({ content: 'back again' }), failFirst: 2 };
  const bot = await outgoingBot('/recovering');
  assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: 'lounge', topic: 'recovering', content: `@**${bot.name}** there?` }));
  await waitUntil(async () => (await messagesIn(bob, [{ operator: 'topic', operand: 'recovering' }])).some((m) => m.sender_id === bot.id));
  const calls = requestsTo('/recovering');
  expect(calls).toHaveLength(3);
  expect(calls[0].delivery).toMatch(UUID);
  expect(calls.map((c) => c.delivery)).toEqual([calls[0].delivery, calls[0].delivery, calls[0].delivery]);
  // Backoff: 20 ms, then 40 ms (timers may fire a millisecond early).
  expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(18);
  expect(calls[2].at - calls[1].at).toBeGreaterThanOrEqual(38);
  // The reply commits with the item's mark: once sent, it is there, once.
  expect(await ts.server.deps.knex('deliveries').where({ key: calls[0].delivery }).first()).toMatchObject({ state: 'sent', attempts: 3, last_error: null });
  const replies = (await messagesIn(bob, [{ operator: 'topic', operand: 'recovering' }])).filter((m) => m.sender_id === bot.id);
  expect(replies.map((m) => m.content)).toEqual(['back again']);
});

test('a service nobody listens on: retried, then reported', async () => {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  const { user_id: botId } = assertSuccess(
    await client(ts, alice).post('/bots', { full_name: 'Gone Bot', short_name: 'gone', bot_type: 3, payload_url: JSON.stringify(`http://127.0.0.1:${port}/`) }),
  );
  assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: 'lounge', topic: 'gone', content: '@**Gone Bot** anyone?' }));
  await waitUntil(async () => (await messagesIn(bob, [{ operator: 'topic', operand: 'gone' }])).some((m) => m.sender_id === botId));
  expect((await messagesIn(bob, [{ operator: 'topic', operand: 'gone' }])).find((m) => m.sender_id === botId)).toMatchObject({
    content: 'Failure! Bot is unavailable',
  });
  await waitUntil(async () => (await messagesIn(alice, [{ operator: 'dm', operand: [botId] }])).length > 0);
  expect((await messagesIn(alice, [{ operator: 'dm', operand: [botId] }])).pop()!.content).toContain('resulted in a connection error');
});

test('the Slack interface posts Slack’s form and reads its text', async () => {
  answers['/slack'] = { status: 200, body: JSON.stringify({ text: 'from slack' }) };
  const bot = await outgoingBot('/slack', { interface_type: 2 });
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: 'lounge', topic: 'slack', content: `@**${bot.name}** hi` }));
  await waitUntil(async () => (await messagesIn(alice, [{ operator: 'topic', operand: 'slack' }])).some((m) => m.sender_id === bot.id));
  const [request] = requestsTo('/slack');
  expect(request.contentType).toBe('application/x-www-form-urlencoded');
  const form = Object.fromEntries(new URLSearchParams(request.body));
  expect(form).toMatchObject({
    token: bot.token,
    channel_name: 'lounge',
    user_name: 'Alice Caller',
    text: `@**${bot.name}** hi`,
    trigger_word: 'mention',
    service_id: String(bot.id),
  });
  expect((await messagesIn(alice, [{ operator: 'topic', operand: 'slack' }])).find((m) => m.sender_id === bot.id)).toMatchObject({ content: 'from slack' });
});

test('a slow service does not slow the send', async () => {
  answers['/slow'] = { status: 200, body: JSON.stringify({ content: 'eventually' }), delayMs: 2_000 };
  const bot = await outgoingBot('/slow');
  const started = Date.now();
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: 'lounge', topic: 'slow', content: `@**${bot.name}** take your time` }));
  expect(Date.now() - started).toBeLessThan(1_500);
  await waitUntil(async () => (await messagesIn(alice, [{ operator: 'topic', operand: 'slow' }])).some((m) => m.sender_id === bot.id));
});
