import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { RedisQueueStore } from '../../src/realtime/redis-store';
import { assertError, assertSuccess, basicAuth, client } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { freshOwnUser } from '../helpers/own-user';
import { RedisPair, startRedisPair } from '../helpers/redis-pair';
import { describeWithRedis as withRedis } from '../helpers/redis';
import { makeUser, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(180_000);

/**
 * Two server processes (two servers in this test process, each with its own Redis connections)
 * on one database and one Redis: queues and events are shared.
 */
const describeWithRedis = withRedis();

describeWithRedis('several processes sharing Redis', () => {
  let pair: RedisPair;
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    pair = await startRedisPair();
    ({ a, b } = pair);
    alice = await makeUser(a, 400);
    bob = await makeUser(b, 400);
  });

  afterAll(async () => {
    await pair?.close();
  });

  const rename = (on: TestServer, user: TestUser, name: string) => client(on, on.owner).patch(`/users/${user.id}`, { full_name: name });
  const quiet = (on: TestServer, user: TestUser, extra: Record<string, unknown> = {}) =>
    registerQueue(on, user, { fetchEventTypes: [], eventTypes: ['realm_user'], extra });

  test('a queue registered on one process is read on the other, with events caused on either', async () => {
    const reg = await quiet(a, alice);
    assertSuccess(await rename(b, bob, 'Bob From B'));
    assertSuccess(await rename(a, bob, 'Bob From A'));
    const events = await getEvents(b, alice, reg.queueId, -1);
    expect(events).toEqual([
      { id: 0, type: 'realm_user', op: 'update', person: { user_id: bob.id, full_name: 'Bob From B' } },
      { id: 1, type: 'realm_user', op: 'update', person: { user_id: bob.id, full_name: 'Bob From A' } },
    ]);
    expect(await getEvents(a, alice, reg.queueId, 1, { dontBlock: true })).toEqual([]);
  });

  test('events from both processes at once arrive once each, with consecutive ids', async () => {
    const reg = await quiet(b, alice);
    const names = Array.from({ length: 10 }, (_, i) => `Concurrent ${i}`);
    await Promise.all(names.map((name, i) => rename(i % 2 ? a : b, bob, name).then(assertSuccess)));
    const events = await getEvents(a, alice, reg.queueId, -1);
    expect(events.map((e) => e.id)).toEqual([...Array(10).keys()]);
    expect(events.map((e) => e.person.full_name).sort()).toEqual([...names].sort());
  });

  test('a request waiting on one process wakes for an event caused on the other', async () => {
    const reg = await quiet(a, alice);
    const waiting = getEvents(b, alice, reg.queueId, -1);
    await waitUntil(() => b.server.deps.realtime!.queues.waitingCount > 0);
    assertSuccess(await rename(a, bob, 'Bob Wakes'));
    expect(await waiting).toEqual([{ id: 0, type: 'realm_user', op: 'update', person: { user_id: bob.id, full_name: 'Bob Wakes' } }]);
  });

  test('a newer request on the other process ends the waiting one', async () => {
    const reg = await quiet(a, alice);
    const first = getEvents(a, alice, reg.queueId, -1);
    await waitUntil(() => a.server.deps.realtime!.queues.waitingCount > 0);
    const second = getEvents(b, alice, reg.queueId, -1);
    expect(await first).toEqual([]);
    await waitUntil(() => b.server.deps.realtime!.queues.waitingCount > 0);
    assertSuccess(await rename(a, bob, 'Bob Second'));
    expect((await second).map((e) => e.person.full_name)).toEqual(['Bob Second']);
  });

  test('a GraphQL subscription on one process receives events caused on the other', async () => {
    const ws = createClient({
      url: `${b.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: basicAuth(alice) },
      retryAttempts: 0,
    });
    const received: any[] = [];
    const before = b.server.deps.bus.listenerCount ?? 0;
    const stop = ws.subscribe(
      { query: 'subscription { zulipEvents(eventTypes: ["realm_user"]) }' },
      { next: (v) => received.push(v), error: () => {}, complete: () => {} },
    );
    try {
      await waitUntil(() => (b.server.deps.bus.listenerCount ?? 0) > before);
      assertSuccess(await rename(a, bob, 'Bob Subscribed'));
      await waitUntil(() => received.length === 1);
      expect(received[0].data.zulipEvents).toEqual({ id: 0, type: 'realm_user', op: 'update', person: { user_id: bob.id, full_name: 'Bob Subscribed' } });
    } finally {
      stop();
      await ws.dispose();
    }
  });

  test('deleting and ownership are enforced on whichever process answers', async () => {
    const reg = await quiet(a, alice);
    assertError(await client(b, bob).get('/events', { queue_id: reg.queueId, last_event_id: -1 }), 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${reg.queueId}`);
    assertError(await client(b, bob).delete('/events', { queue_id: reg.queueId }), 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${reg.queueId}`);
    assertSuccess(await client(b, alice).delete('/events', { queue_id: reg.queueId }));
    assertError(
      await client(a, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 }),
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${reg.queueId}`,
    );
  });

  test('a request waiting on one process learns that the queue was deleted on the other', async () => {
    const reg = await quiet(a, alice);
    const waiting = client(b, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 });
    await waitUntil(() => b.server.deps.realtime!.queues.waitingCount > 0);
    assertSuccess(await client(a, alice).delete('/events', { queue_id: reg.queueId }));
    assertError(await waiting, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${reg.queueId}`);
  });

  test('idle queues are collected by any process, held ones are not', async () => {
    const idle = await quiet(a, alice, { queue_lifespan_secs: 1 });
    const held = await quiet(a, alice, { queue_lifespan_secs: 1 });
    const waiting = getEvents(b, alice, held.queueId, -1);
    await waitUntil(() => b.server.deps.realtime!.queues.waitingCount > 0);
    // As a collection run 1.5 s from now, when both are idle past their lifespan of 1 s, would find them.
    const collected = await a.server.deps.realtime!.queues.collectGarbage(Date.now() + 1500);
    expect(collected).toContain(idle.queueId);
    expect(collected).not.toContain(held.queueId);
    assertError(
      await client(b, alice).get('/events', { queue_id: idle.queueId, last_event_id: -1 }),
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${idle.queueId}`,
    );
    assertSuccess(await rename(a, bob, 'Bob Held'));
    expect((await waiting).map((e) => e.person.full_name)).toEqual(['Bob Held']);
  });

  test('a queue that falls too far behind is dropped, whichever process appends', async () => {
    const store = a.server.deps.realtime!.queues.store as RedisQueueStore;
    const saved = store.maxEvents;
    store.maxEvents = 2;
    try {
      const reg = await quiet(b, alice);
      for (const name of ['Bob One', 'Bob Two', 'Bob Three']) assertSuccess(await rename(a, bob, name));
      assertError(
        await client(b, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 }),
        'BAD_EVENT_QUEUE_ID',
        `Bad event queue ID: ${reg.queueId}`,
      );
    } finally {
      store.maxEvents = saved;
    }
  });

  test('GET /users/me on one process follows changes made on the other', async () => {
    const exactOn = async (on: TestServer, who: TestUser) => {
      const fresh = await freshOwnUser(on, who.id);
      const served = assertSuccess(await client(on, who).get('/users/me'));
      return JSON.stringify(served) === JSON.stringify(fresh);
    };
    const field = assertSuccess(await client(a, a.owner).post('/realm/profile_fields', { name: 'Desk', field_type: 1 })).id;
    expect(await exactOn(b, bob)).toBe(true);
    const changes: (() => Promise<unknown>)[] = [
      () => client(a, alice).post('/messages', { type: 'direct', to: JSON.stringify([bob.id]), content: 'from a' }),
      () => rename(a, bob, 'Bob Renamed On A'),
      () => client(a, bob).patch('/users/me/profile_data', { data: JSON.stringify([{ id: field, value: 'B-12' }]) }),
      () => client(a, bob).patch('/settings', { timezone: 'Asia/Tokyo' }),
      () => client(a, a.owner).patch(`/users/${bob.id}`, { role: 300 }),
      () => client(a, a.owner).delete(`/realm/profile_fields/${field}`),
    ];
    // Within 2 s, less than the entries' lifetime on PostgreSQL: the bus, not expiry, brought the change.
    for (const change of changes) {
      assertSuccess((await change()) as never);
      await waitUntil(() => exactOn(b, bob), 2_000);
    }
    const latest = assertSuccess(await client(b, bob).get('/users/me'));
    expect(latest).toMatchObject({ full_name: 'Bob Renamed On A', timezone: 'Asia/Tokyo', role: 300, profile_data: {} });
    expect(latest.max_message_id).toBeGreaterThan(0);
    // Deleting the message on the first process steps the second one's answer back.
    assertSuccess(await client(a, alice).delete(`/messages/${latest.max_message_id}`));
    await waitUntil(() => exactOn(b, bob), 2_000);
    expect(assertSuccess(await client(b, bob).get('/users/me')).max_message_id).toBeLessThan(latest.max_message_id);
  });

  test('a user past the queue bound loses the longest-idle queue, whichever process registers', async () => {
    const quinn = await makeUser(a, 400);
    const first = await quiet(a, quinn);
    const waiting = getEvents(b, quinn, first.queueId, -1);
    await waitUntil(() => b.server.deps.realtime!.queues.waitingCount > 0);
    const idle = await quiet(b, quinn);
    const later: string[] = [];
    // The default bound is 50: 48 more fill it, one more evicts `idle` (the waiting queue goes last).
    for (let i = 0; i < 49; i++) later.push((await quiet(i % 2 === 0 ? a : b, quinn)).queueId);
    assertError(
      await client(a, quinn).get('/events', { queue_id: idle.queueId, last_event_id: -1 }),
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${idle.queueId}`,
    );
    const store = a.server.deps.realtime!.queues.store;
    expect((await store.queueIdsForUsers(a.server.deps.realmId, [quinn.id]))[0]).toHaveLength(50);
    // One more evicts the longest idle of the rest, then the waiting one is last of all.
    await quiet(a, quinn);
    assertError(await client(b, quinn).get('/events', { queue_id: later[0], last_event_id: -1 }), 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${later[0]}`);
    assertSuccess(await client(a, quinn).delete('/events', { queue_id: first.queueId }));
    await expect(waiting).rejects.toThrow(/BAD_EVENT_QUEUE_ID/);
  });

  test('a key regenerated on one process closes the other’s sockets and is refused there at once', async () => {
    const rita = await makeUser(a, 400);
    assertSuccess(await client(b, rita).get('/users/me')); // cached on b
    const ws = new WebSocket(`${b.url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    let closeCode: number | null = null;
    const messages: any[] = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    ws.on('close', (code) => (closeCode = code));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: basicAuth(rita) } }));
    await waitUntil(() => messages.some((m) => m.type === 'connection_ack'));
    const old = { ...rita };
    const { api_key } = assertSuccess(await client(a, rita).post('/users/me/api_key/regenerate'));
    assertError(await client(b, old).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
    await waitUntil(() => closeCode !== null);
    expect(closeCode).toBe(4403);
    assertSuccess(await client(b, { ...rita, apiKey: api_key }).get('/users/me'));
  });

  test('a process that goes away takes no queue with it', async () => {
    const reg = await quiet(a, alice);
    assertSuccess(await rename(a, bob, 'Bob Before'));
    await a.close();
    // Nothing was saved for a restart: the queues live in Redis.
    expect(Number((await b.server.deps.knex('saved_event_queues').count('* as n').first())!.n)).toBe(0);
    assertSuccess(await rename(b, bob, 'Bob After'));
    const events = await getEvents(b, alice, reg.queueId, -1);
    expect(events.map((e) => [e.id, e.person.full_name])).toEqual([
      [0, 'Bob Before'],
      [1, 'Bob After'],
    ]);
  });
});
