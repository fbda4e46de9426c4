import { assertSuccess, client } from '../helpers/api';
import { RedisPair, startRedisPair } from '../helpers/redis-pair';
import { describeWithRedis } from '../helpers/redis';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { countStatements } from '../helpers/statements';
import { waitUntil } from '../helpers/wait';
import { createChannel } from './helpers';

jest.setTimeout(180_000);

/**
 * Subscriber counts come from a per-process cache (src/core/channels/statistics.ts): every read
 * path that shows them must agree with the database after each kind of change, and a warm read
 * must not count again.
 */
const countOf = async (ts: TestServer, id: number, who?: TestUser) =>
  assertSuccess(await client(ts, who ?? ts.owner).get(`/streams/${id}`)).stream.subscriber_count as number;

const countInDatabase = async (ts: TestServer, id: number) => {
  const [row] = await ts.server.deps
    .knex('subscriptions')
    .join('users', 'users.id', 'subscriptions.user_id')
    .where({
      'subscriptions.stream_id': id,
      'subscriptions.active': true,
      'users.is_active': true,
    })
    .count('* as n');
  return Number(row.n);
};

const isCountStatement = (sql: string) => /count\(\*\)/i.test(sql) && /subscriptions/i.test(sql);

describe('channel subscriber counts in one process', () => {
  let ts: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let room: number;

  beforeAll(async () => {
    ts = await startTestServer();
    alice = await makeUser(ts, 400);
    bob = await makeUser(ts, 400);
    room = await createChannel(ts, ts.owner, 'counted');
  }, 120_000);
  afterAll(async () => {
    await ts?.close();
  }, 60_000);

  const registerCount = async (who: TestUser) => {
    const state = assertSuccess(await client(ts, who).post('/register', { fetch_event_types: JSON.stringify(['subscription']) }));
    const all = [...state.subscriptions, ...state.never_subscribed];
    return all.find((s: { stream_id: number }) => s.stream_id === room).subscriber_count as number;
  };

  test('a warm read sends no counting statement', async () => {
    await countOf(ts, room);
    expect(await countStatements(ts, () => countOf(ts, room), isCountStatement)).toBe(0);
    expect(await countStatements(ts, () => registerCount(alice), isCountStatement)).toBe(0);
  });

  test('subscribing, unsubscribing, deactivating and reactivating are counted at once', async () => {
    expect(await countOf(ts, room)).toBe(1);
    assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'counted' }], principals: [alice.id, bob.id] }));
    expect(await countOf(ts, room)).toBe(3);
    expect(await registerCount(bob)).toBe(3);
    assertSuccess(await client(ts, bob).delete('/users/me/subscriptions', { subscriptions: ['counted'] }));
    expect(await countOf(ts, room)).toBe(2);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${alice.id}`));
    expect(await countOf(ts, room)).toBe(1);
    assertSuccess(await client(ts, ts.owner).post(`/users/${alice.id}/reactivate`));
    expect(await countOf(ts, room)).toBe(2);
    expect(await countOf(ts, room)).toBe(await countInDatabase(ts, room));
  });

  test('a write no action announces (a script) is seen by the next read', async () => {
    const before = await countOf(ts, room);
    await ts.server.deps.knex('subscriptions').where({ stream_id: room, user_id: alice.id }).update({ active: false });
    expect(await countOf(ts, room)).toBe(before - 1);
    await ts.server.deps.knex('subscriptions').where({ stream_id: room, user_id: alice.id }).update({ active: true });
    expect(await countOf(ts, room)).toBe(before);
  });
});

describeWithRedis()('channel subscriber counts across processes', () => {
  let pair: RedisPair;
  let a: TestServer;
  let b: TestServer;
  let carol: TestUser;
  let room: number;

  beforeAll(async () => {
    pair = await startRedisPair();
    ({ a, b } = pair);
    carol = await makeUser(a, 400);
    room = await createChannel(a, a.owner, 'counted across');
  });
  afterAll(async () => {
    await pair?.close();
  });

  test("a subscription made on A shows in B's counts once its event arrives", async () => {
    await waitUntil(async () => (await countOf(b, room)) === 1);
    assertSuccess(await client(a, a.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'counted across' }], principals: [carol.id] }));
    await waitUntil(async () => (await countOf(b, room)) === 2);
    assertSuccess(await client(a, carol).delete('/users/me/subscriptions', { subscriptions: ['counted across'] }));
    await waitUntil(async () => (await countOf(b, room)) === 1);
  });
});
