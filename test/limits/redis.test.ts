import { ApiResponse, assertError, assertSuccess, client } from '../helpers/api';
import { RedisPair, startRedisPair } from '../helpers/redis-pair';
import { describeWithRedis as withRedis } from '../helpers/redis';
import { makeUser, TestServer } from '../helpers/server';

jest.setTimeout(180_000);

/** With REDIS_URL the counters live in Redis: two server processes on one database share them. */
const describeWithRedis = withRedis();

describeWithRedis('rate limits shared through Redis', () => {
  let pair: RedisPair;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    pair = await startRedisPair({ PARLEY_RATE_LIMITING: 'true', PARLEY_RATE_LIMIT_API_BY_USER: '60:10', PARLEY_RATE_LIMIT_AUTHENTICATE_BY_IP: '1800:100' });
    ({ a, b } = pair);
  });

  afterAll(async () => {
    await pair?.close();
  });

  const remaining = (res: ApiResponse) => Number(res.headers.get('x-ratelimit-remaining'));

  test('requests to either process count against one limit per user', async () => {
    const member = await makeUser(a);
    for (let i = 1; i <= 5; i++) {
      expect(remaining(await client(a, member).get('/users/me'))).toBe(10 - (2 * i - 1));
      expect(remaining(await client(b, member).get('/users/me'))).toBe(10 - 2 * i);
    }
    for (const server of [a, b]) assertError(await client(server, member).get('/users/me'), 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429);
  });

  test('login attempts per username are shared too, and a success on one process clears them on both', async () => {
    const member = await makeUser(a);
    const login = (server: TestServer, password: string) => client(server, null).post('/fetch_api_key', { username: member.email, password });
    for (let i = 0; i < 4; i++) await login(i % 2 ? a : b, 'wrong-password');
    assertSuccess(await login(a, member.password));
    for (let i = 0; i < 5; i++) await login(i % 2 ? a : b, 'wrong-password');
    assertError(await login(b, member.password), 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429);
  });
});
