import crypto from 'node:crypto';
import { otpDecryptApiKey } from '../../src/core/accounts/otp';
import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { WebClient } from './web-client';

// A login with a password hands out the key of the user's previous password login, as Zulip hands
// out the user's one key: logging in again adds no key.
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), SERVER_HOOK_TIMEOUT);

const login = (who: TestUser, password = who.password) => client(ts, null).post('/fetch_api_key', { username: who.email, password });
const keyCount = async (who: TestUser) => Number((await ts.server.deps.knex('api_keys').where({ user_id: who.id }).count({ n: '*' }))[0].n);
const works = async (who: TestUser, apiKey: string) => assertSuccess(await client(ts, { email: who.email, apiKey }).get('/users/me')).user_id === who.id;

test('repeated logins return the same key and add no key', async () => {
  const me = await makeUser(ts, 400);
  const first = assertSuccess(await login(me)).api_key;
  const count = await keyCount(me);
  for (let i = 0; i < 3; i++) expect(assertSuccess(await login(me)).api_key).toBe(first);
  expect(await keyCount(me)).toBe(count);
  expect(await works(me, first)).toBe(true);
  // The key from account creation keeps working beside it.
  expect(await works(me, me.apiKey)).toBe(true);
  // The key is not stored readable: only its hash and a copy sealed with the password.
  const rows = await ts.server.deps.knex('api_keys').where({ user_id: me.id });
  expect(JSON.stringify(rows)).not.toContain(first);
});

test('the mobile web login hands out the same key as fetch_api_key', async () => {
  const me = await makeUser(ts, 400);
  const key = assertSuccess(await login(me)).api_key;
  const count = await keyCount(me);
  const otp = crypto.randomBytes(32).toString('hex');
  const web = new WebClient(ts);
  await web.get(`/login/?mobile_flow_otp=${otp}`);
  const res = await web.post('/login/', { username: me.email, password: me.password, mobile_flow_otp: otp });
  expect(res.status).toBe(302);
  expect(otpDecryptApiKey(new URL(res.location!).searchParams.get('otp_encrypted_api_key')!, otp)).toBe(key);
  expect(await keyCount(me)).toBe(count);
});

test('a wrong password gets nothing; a new password gets a new key once, and the old key still works', async () => {
  const me = await makeUser(ts, 400);
  const before = assertSuccess(await login(me)).api_key;
  const count = await keyCount(me);
  assertError(await login(me, 'not-the-password'), 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
  expect(await keyCount(me)).toBe(count);

  const newPassword = 'a much better passphrase 42';
  assertSuccess(await client(ts, me).patch('/settings', { old_password: me.password, new_password: newPassword }));
  const after = assertSuccess(await login(me, newPassword)).api_key;
  expect(after).not.toBe(before);
  expect(assertSuccess(await login(me, newPassword)).api_key).toBe(after);
  expect(await keyCount(me)).toBe(count + 1);
  expect(await works(me, before)).toBe(true);
});

test('after regenerating, logins share the key they are first given', async () => {
  const me = await makeUser(ts, 400);
  assertSuccess(await login(me));
  const regenerated = assertSuccess(await client(ts, me).post('/users/me/api_key/regenerate', {})).api_key;
  const next = assertSuccess(await login(me)).api_key;
  expect(assertSuccess(await login(me)).api_key).toBe(next);
  expect(await keyCount(me)).toBe(2);
  expect(await works(me, regenerated)).toBe(true);
});

test('GraphQL fetchApiKey gives the same key', async () => {
  const me = await makeUser(ts, 400);
  const key = assertSuccess(await login(me)).api_key;
  const res = await graphql(ts, null, 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey } }', {
    u: me.email,
    p: me.password,
  });
  expect(res.data).toEqual({ fetchApiKey: { apiKey: key } });
});
