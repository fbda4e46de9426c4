import { assertError, assertSuccess, client } from '../helpers/api';
import { RedisPair, startRedisPair } from '../helpers/redis-pair';
import { describeWithRedis } from '../helpers/redis';
import { makeUser, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { subscribe } from '../messages/helpers';
import { captureEvents } from './helpers';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(180_000);

/**
 * Two server processes on one database and one Redis: a typing preference changed on one is
 * followed by the other once the settings event has reached it (each process keeps who turned
 * typing off in memory).
 */
describeWithRedis()('typing preferences across processes', () => {
  let pair: RedisPair;
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let room: number;

  beforeAll(async () => {
    pair = await startRedisPair();
    ({ a, b } = pair);
    alice = await makeUser(a, 400);
    bob = await makeUser(a, 400);
    room = await subscribe(a, a.owner, 'typing across', [alice, bob]);
  });

  afterAll(async () => {
    await pair?.close();
  });

  /** Whether alice's typing, sent through B, reaches bob. */
  const bobHearsOnB = async () => {
    const capture = captureEvents(b);
    assertSuccess(await client(b, alice).post('/typing', { type: 'stream', op: 'start', stream_id: room, topic: 't' }));
    capture.stop();
    return capture.recipientsOf((e) => e.type === 'typing').includes(bob.id);
  };

  test('turning receiving off on A silences B, and turning it on again is heard there', async () => {
    expect(await bobHearsOnB()).toBe(true);
    assertSuccess(await client(a, bob).patch('/settings', { receives_typing_notifications: false }));
    await waitUntil(async () => !(await bobHearsOnB()));
    assertSuccess(await client(a, bob).patch('/settings', { receives_typing_notifications: true }));
    await waitUntil(bobHearsOnB);
  });

  test('turning sending off on A is refused on B', async () => {
    assertSuccess(await client(a, alice).patch('/settings', { send_stream_typing_notifications: false }));
    await waitUntil(async () => (await client(b, alice).post('/typing', { type: 'stream', op: 'start', stream_id: room, topic: 't' })).status === 400);
    assertError(
      await client(b, alice).post('/typing', { type: 'stream', op: 'start', stream_id: room, topic: 't' }),
      'BAD_REQUEST',
      'User has disabled typing notifications for channel messages',
    );
  });
});
