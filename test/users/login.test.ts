import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, SERVER_HOOK_TIMEOUT } from '../helpers/server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer({ PARLEY_RATE_LIMITING: 'true' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);
// Every test logs in from the same address: each starts with that address's counts cleared.
beforeEach(async () => {
  const limits = ts.server.deps.rateLimits;
  await limits.clear('api_by_ip', '127.0.0.1');
  await limits.clear('authenticate_by_ip', '127.0.0.1');
});

const login = (username: string, password: string) => client(ts, null).post('/fetch_api_key', { username, password });
const FAILED = 'Your username or password is incorrect';

describe('POST /fetch_api_key', () => {
  test('returns a working key, the email and the user id', async () => {
    const member = await makeUser(ts);
    const body = assertSuccess(await login(member.email, member.password));
    expect(body).toEqual({ result: 'success', msg: '', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/), email: member.email, user_id: member.id });
    expect(assertSuccess(await client(ts, { email: member.email, apiKey: body.api_key }).get('/users/me')).user_id).toBe(member.id);
  });

  test('the username is matched case-insensitively', async () => {
    const member = await makeUser(ts);
    const body = assertSuccess(await login(member.email.toUpperCase(), member.password));
    expect(body.user_id).toBe(member.id);
    expect(body.email).toBe(member.email);
  });

  test('unknown email, wrong password and deactivated account get the same answer', async () => {
    const member = await makeUser(ts);
    const gone = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const answers = [
      await login('nobody@example.com', 'whatever-password'),
      await login(member.email, 'wrong-password'),
      await login(gone.email, gone.password),
    ];
    for (const res of answers) assertError(res, 'AUTHENTICATION_FAILED', FAILED, 401);
    expect(answers[1].body).toEqual(answers[0].body);
    expect(answers[2].body).toEqual(answers[0].body);
  });

  test('missing parameters are named', async () => {
    const res = await client(ts, null).post('/fetch_api_key', { password: 'x' });
    expect(assertError(res, 'REQUEST_VARIABLE_MISSING', "Missing 'username' argument").var_name).toBe('username');
    const res2 = await client(ts, null).post('/fetch_api_key', { username: 'x@example.com' });
    expect(assertError(res2, 'REQUEST_VARIABLE_MISSING', "Missing 'password' argument").var_name).toBe('password');
  });

  test('works as multipart/form-data, as zulip-js sends it', async () => {
    const member = await makeUser(ts);
    const res = await client(ts, null).post('/fetch_api_key', { username: member.email, password: member.password }, { multipart: true });
    expect(assertSuccess(res).user_id).toBe(member.id);
  });

  test('a second login gets the key of the first (see test/accounts/api-key-reuse.test.ts); every key works', async () => {
    const member = await makeUser(ts);
    const first = assertSuccess(await login(member.email, member.password)).api_key;
    const second = assertSuccess(await login(member.email, member.password)).api_key;
    expect(second).toBe(first);
    for (const apiKey of [member.apiKey, first]) {
      assertSuccess(await client(ts, { email: member.email, apiKey }).get('/users/me'));
    }
  });
});

describe('rate limiting of failed logins', () => {
  test('five failures per username are allowed, the sixth attempt is refused with 429', async () => {
    const member = await makeUser(ts);
    for (let i = 0; i < 5; i++) assertError(await login(member.email, `wrong-${i}`), 'AUTHENTICATION_FAILED', FAILED, 401);
    const limited = await login(member.email, member.password);
    const body = assertError(limited, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429);
    expect(typeof body['retry-after']).toBe('number');
    expect(body['retry-after']).toBeGreaterThan(0);
    expect(body['retry-after']).toBeLessThanOrEqual(30 * 60);
    expect(Number(limited.headers.get('retry-after'))).toBe(body['retry-after']);
  });

  test('the limit is per username, whatever its case', async () => {
    const member = await makeUser(ts);
    const other = await makeUser(ts);
    for (let i = 0; i < 5; i++) await login(member.email, `wrong-${i}`);
    assertError(await login(member.email.toUpperCase(), member.password), 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429);
    assertSuccess(await login(other.email, other.password));
  });

  test('a successful login clears the failures recorded so far', async () => {
    const member = await makeUser(ts);
    for (let i = 0; i < 4; i++) await login(member.email, `wrong-${i}`);
    assertSuccess(await login(member.email, member.password));
    for (let i = 0; i < 4; i++) await login(member.email, `wrong-${i}`);
    assertSuccess(await login(member.email, member.password));
  });

  test('unknown usernames are limited too', async () => {
    for (let i = 0; i < 5; i++) await login('ghost@example.com', 'nope-nope');
    assertError(await login('ghost@example.com', 'nope-nope'), 'RATE_LIMIT_HIT', 'API usage exceeded rate limit', 429);
  });
});

describe('POST /users/me/api_key/regenerate', () => {
  test('returns a new key and every earlier key stops working at once', async () => {
    const member = await makeUser(ts);
    const second = assertSuccess(await login(member.email, member.password)).api_key;
    const body = assertSuccess(await client(ts, member).post('/users/me/api_key/regenerate'));
    expect(body.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
    expect([member.apiKey, second]).not.toContain(body.api_key);
    for (const apiKey of [member.apiKey, second]) {
      assertError(await client(ts, { email: member.email, apiKey }).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
    }
    expect(assertSuccess(await client(ts, { email: member.email, apiKey: body.api_key }).get('/users/me')).user_id).toBe(member.id);
  });

  test("leaves other users' keys alone", async () => {
    const member = await makeUser(ts);
    const other = await makeUser(ts);
    assertSuccess(await client(ts, member).post('/users/me/api_key/regenerate'));
    assertSuccess(await client(ts, other).get('/users/me'));
  });
});
