import { alertWordsCache } from '../../src/core/alert-words/store';
import { mutersCache } from '../../src/core/muted-users/store';
import { assertSuccess, client } from '../helpers/api';
import { RedisPair, startRedisPair } from '../helpers/redis-pair';
import { makeUser, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { describeWithRedis } from '../helpers/redis';
import { messageFlags, sendToChannel, subscribe } from '../messages/helpers';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(180_000);

/**
 * Two server processes on one database and one Redis: a mute or an alert word added on one is
 * used by the other's next send once its event has arrived there (on PostgreSQL each server has
 * its own connections, so only the bus can tell the other one).
 */
describeWithRedis()('caches of muted users and alert words across processes', () => {
  let pair: RedisPair;
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: number;

  beforeAll(async () => {
    pair = await startRedisPair();
    ({ a, b } = pair);
    alice = await makeUser(a, 400);
    bob = await makeUser(a, 400);
    channelId = await subscribe(a, a.owner, 'across', [alice, bob]);
  });

  afterAll(async () => {
    await pair?.close();
  });

  test('a mute made on one process marks the next message read on the other', async () => {
    // B has read (and keeps) the organization's mutes.
    expect(await messageFlags(b, alice, await sendToChannel(b, bob, channelId, 't', 'before'))).toEqual([]);
    const cache = mutersCache(b.server.deps);
    expect(cache.current()).toBeDefined();
    assertSuccess(await client(a, alice).post(`/users/me/muted_users/${bob.id}`));
    await waitUntil(() => cache.current() === undefined);
    expect(await messageFlags(b, alice, await sendToChannel(b, bob, channelId, 't', 'after'))).toEqual(['read']);
  });

  test('an alert word added on one process flags the next message on the other', async () => {
    expect(await messageFlags(b, bob, await sendToChannel(b, alice, channelId, 't', 'kiwi'))).toEqual([]);
    const cache = alertWordsCache(b.server.deps);
    expect(cache.current()).toBeDefined();
    assertSuccess(await client(a, bob).post('/users/me/alert_words', { alert_words: ['kiwi'] }));
    await waitUntil(() => cache.current() === undefined);
    expect(await messageFlags(b, bob, await sendToChannel(b, alice, channelId, 't', 'kiwi'))).toEqual(['has_alert_word']);
  });
});
