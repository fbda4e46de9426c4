import { assertSuccess, client } from '../helpers/api';
import { verifyAction } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { createUser } from '../../src/core/users/actions';

/**
 * include_subscribers="partial" (Zulip 11, feature level 412): channels of 250 subscribers or more
 * list only their bots and the subscribers active in the last 14 days, as `partial_subscribers`;
 * smaller channels keep their full `subscribers`; counts stay exact.
 */
let ts: TestServer;
let big: number;
let small: number;
let member: TestUser;
/** Subscribers of the big channel who joined a month ago and never used the app since. */
const dormant: number[] = [];
/** Dormant except for presence reported just now. */
const returned: number[] = [];
let bot: number;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  const accounts: { id: number; email: string; apiKey: string }[] = [];
  for (let i = 0; i < 260; i++) {
    const { user, apiKey } = await createUser(ts.server.deps, null, { email: `crowd-${i}@example.com`, fullName: `Crowd ${i}`, password: null });
    accounts.push({ id: user.id, email: user.delivery_email, apiKey });
  }
  const { user: botUser } = await createUser(ts.server.deps, null, { email: 'helper-bot@example.com', fullName: 'Helper bot', password: null });
  bot = botUser.id;
  const everyone = [ts.owner.id, member.id, bot, ...accounts.map((a) => a.id)];
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'everyone' }], principals: everyone }));
  assertSuccess(
    await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'few' }], principals: [ts.owner.id, member.id, accounts[0].id] }),
  );
  const streams = assertSuccess(await client(ts, ts.owner).get('/streams')).streams as { name: string; stream_id: number }[];
  big = streams.find((s) => s.name === 'everyone')!.stream_id;
  small = streams.find((s) => s.name === 'few')!.stream_id;

  // 200 of the crowd joined a month ago; 10 of those came back today; one account is a bot.
  const monthAgo = new Date(Date.now() - 30 * 86_400_000);
  dormant.push(...accounts.slice(0, 200).map((a) => a.id));
  await ts.server.db
    .knex('users')
    .whereIn('id', [...dormant, bot])
    .update({ date_joined: monthAgo });
  await ts.server.db.knex('users').where('id', bot).update({ is_bot: true, bot_type: 1 });
  for (const account of accounts.slice(0, 10)) {
    assertSuccess(await client(ts, account).post('/users/me/presence', { status: 'active', new_user_input: true }));
    returned.push(account.id);
  }
}, 300_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

const channelsOf = (body: Record<string, any>) => [...body.subscriptions, ...body.unsubscribed, ...body.never_subscribed];

test('POST /register lists large channels partially and small ones in full', async () => {
  const body = assertSuccess(await client(ts, member).post('/register', { fetch_event_types: ['subscription', 'stream'], include_subscribers: 'partial' }));
  const everyone = channelsOf(body).find((s) => s.stream_id === big);
  expect(everyone.subscribers).toBeUndefined();
  expect(everyone.subscriber_count).toBe(263);
  const listed = new Set<number>(everyone.partial_subscribers);
  for (const id of returned) expect(listed.has(id)).toBe(true);
  expect(listed.has(bot)).toBe(true);
  expect(listed.has(member.id)).toBe(true);
  for (const id of dormant.slice(10)) expect(listed.has(id)).toBe(false);
  // Everyone who is not dormant: the owner, the member, the bot, 60 recent joiners and 10 returners.
  expect(listed.size).toBe(263 - 190);
  expect(everyone.partial_subscribers).toEqual([...everyone.partial_subscribers].sort((a: number, b: number) => a - b));
  expect(body.streams.find((s: { stream_id: number }) => s.stream_id === big).subscriber_count).toBe(263);

  const few = channelsOf(body).find((s) => s.stream_id === small);
  expect(few.partial_subscribers).toBeUndefined();
  expect(few.subscribers).toHaveLength(3);
});

test('include_subscribers=true still lists every subscriber', async () => {
  const body = assertSuccess(await client(ts, member).post('/register', { fetch_event_types: ['subscription'], include_subscribers: true }));
  const everyone = channelsOf(body).find((s) => s.stream_id === big);
  expect(everyone.partial_subscribers).toBeUndefined();
  expect(everyone.subscribers).toHaveLength(263);
});

test('GET /users/me/subscriptions accepts "partial" too', async () => {
  const partial = assertSuccess(await client(ts, member).get('/users/me/subscriptions', { include_subscribers: 'partial' })).subscriptions;
  const everyone = partial.find((s: { stream_id: number }) => s.stream_id === big);
  expect(everyone.subscribers).toBeUndefined();
  expect(everyone.partial_subscribers).toHaveLength(263 - 190);
  const bad = await client(ts, member).get('/users/me/subscriptions', { include_subscribers: 'some' });
  expect(bad.status).toBe(400);
  expect(bad.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid include_subscribers' });
});

test('peer events keep partial lists and counts as a fresh register has them', async () => {
  const newcomer = await makeUser(ts, 400);
  const events = await verifyAction(
    ts,
    member,
    () => client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'everyone' }], principals: [newcomer.id] }),
    { fetchEventTypes: ['subscription', 'stream'], extra: { include_subscribers: 'partial' } },
  );
  expect(events.map((e) => [e.type, e.op])).toEqual([['subscription', 'peer_add']]);
  await verifyAction(ts, member, () => client(ts, ts.owner).delete('/users/me/subscriptions', { subscriptions: ['everyone'], principals: [newcomer.id] }), {
    fetchEventTypes: ['subscription', 'stream'],
    extra: { include_subscribers: 'partial' },
  });
});
