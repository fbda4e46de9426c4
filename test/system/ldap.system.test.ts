import path from 'node:path';
import { otpDecryptApiKey } from '../../src/core/accounts/otp';
import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer } from '../helpers/server';
import { Directory, startDirectory } from '../helpers/slapd';
import { WebClient } from '../accounts/web-client';
import { captureLog } from '../helpers/log';

/** fetch_api_key and the login page against a real slapd, loaded from fixtures/directory.ldif. */
let directory: Directory;
let ts: TestServer;
const logged: string[] = [];
let restoreLog: () => void;
let serverLog: ReturnType<typeof captureLog>;
/** Every line logged so far: console lines as written, log lines by their message and in full. */
const allLogged = () => [...logged, ...serverLog.records().map((r) => String(r.msg)), ...serverLog.lines];

beforeAll(async () => {
  directory = await startDirectory(path.join(__dirname, 'fixtures', 'directory.ldif'));
  ts = await startTestServer({
    PARLEY_LDAP_URL: directory.url,
    PARLEY_LDAP_BIND_DN: directory.adminDn,
    PARLEY_LDAP_BIND_PASSWORD: directory.adminPassword,
    PARLEY_LDAP_SEARCH_BASE: `ou=people,${directory.suffix}`,
    PARLEY_LDAP_FILTER: '(&(objectClass=inetOrgPerson)(uid=%(user)s))',
    PARLEY_LDAP_ATTR_MAP: 'full_name=cn,email=mail',
    PARLEY_LDAP_CREATE_USERS: 'true',
  });
  // Everything the server logs (its log and the console), to check no secret appears in it.
  const original = { error: console.error, log: console.log, warn: console.warn };
  for (const name of ['error', 'log', 'warn'] as const) console[name] = (...args: unknown[]) => logged.push(args.map(String).join(' '));
  const captured = captureLog('debug');
  restoreLog = () => {
    Object.assign(console, original);
    captured.restore();
  };
  serverLog = captured;
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  restoreLog?.();
  await ts?.close();
  await directory?.stop();
});

const fetchKey = (username: string, password: string) => client(ts, null).post('/fetch_api_key', { username, password });

test('server_settings: LDAP on, usernames are not addresses', async () => {
  const res = assertSuccess(await client(ts, null).get('/server_settings'));
  expect(res.authentication_methods).toMatchObject({ password: true, ldap: true });
  expect(res.require_email_format_usernames).toBe(false);
});

test("the organization's domain rules keep a directory user outside them from getting an account", async () => {
  const owner = client(ts, ts.owner);
  // invite_required stays on (its default) in this file: as in Zulip, the directory vouches for its people.
  expect(assertSuccess(await owner.post('/register', { fetch_event_types: ['realm'] })).realm_invite_required).toBe(true);
  assertSuccess(await owner.post('/realm/domains', { domain: 'parley.test', allow_subdomains: false }));
  assertSuccess(await owner.patch('/realm', { emails_restricted_to_domains: true }));
  try {
    assertError(await fetchKey('bob', 'bob-directory-secret'), 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
    expect(await ts.server.deps.knex('users').whereRaw('lower(delivery_email) = ?', ['bob@example.com']).first()).toBeUndefined();
  } finally {
    assertSuccess(await owner.patch('/realm', { emails_restricted_to_domains: false }));
  }
});

test('a directory user logs in with uid and password; the account is created at first login', async () => {
  const before = await ts.server.deps.knex('users').whereRaw('lower(delivery_email) = ?', ['bob@example.com']).first();
  expect(before).toBeUndefined();
  const res = assertSuccess(await fetchKey('bob', 'bob-directory-secret'));
  expect(res.email).toBe('bob@example.com');
  const me = assertSuccess(await client(ts, { email: res.email, apiKey: res.api_key }).get('/users/me'));
  expect(me.full_name).toBe('Bob Builder');
  // The account has no password of its own.
  const row = await ts.server.deps.knex('users').where({ id: res.user_id }).first();
  expect(row.password_hash).toBeNull();
  // A second login opens the same account.
  expect(assertSuccess(await fetchKey('bob', 'bob-directory-secret')).user_id).toBe(res.user_id);
});

test('an existing account is opened by its directory entry', async () => {
  const alice = await makeUser(ts, 400, { email: 'alice@example.com', fullName: 'Alice Here' });
  const res = assertSuccess(await fetchKey('alice', 'alice-directory-secret'));
  expect(res.user_id).toBe(alice.id);
  // Its own password still works too.
  expect(assertSuccess(await fetchKey(alice.email, alice.password)).user_id).toBe(alice.id);
});

test('refusals: wrong password, empty password, unknown user, a user outside the search base, filter syntax', async () => {
  const failed = (res: Awaited<ReturnType<typeof fetchKey>>) => assertError(res, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
  failed(await fetchKey('alice', 'not-her-password'));
  failed(await fetchKey('alice', ''));
  failed(await fetchKey('nobody', 'whatever-secret'));
  failed(await fetchKey('mallory', 'mallory-directory-secret'));
  failed(await fetchKey('*', 'alice-directory-secret'));
  failed(await fetchKey('alice)(uid=*', 'alice-directory-secret'));
  expect(await ts.server.deps.knex('users').whereRaw('lower(delivery_email) = ?', ['mallory@example.com']).first()).toBeUndefined();
});

test('a deactivated account stays closed to its directory entry', async () => {
  const login = assertSuccess(await fetchKey('bob', 'bob-directory-secret'));
  assertSuccess(await client(ts, ts.owner).delete(`/users/${login.user_id}`));
  assertError(await fetchKey('bob', 'bob-directory-secret'), 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
  assertSuccess(await client(ts, ts.owner).post(`/users/${login.user_id}/reactivate`));
});

test('the login page logs directory users in, mobile flow included', async () => {
  const web = new WebClient(ts);
  const page = await web.get('/login/?mobile_flow_otp=' + 'ab'.repeat(32));
  expect(page.html).toContain('<label for="username">Username</label>');
  const res = await web.post('/login/', { username: 'alice', password: 'alice-directory-secret', mobile_flow_otp: 'ab'.repeat(32) });
  expect(res.status).toBe(302);
  const location = new URL(res.location!);
  expect(location.searchParams.get('email')).toBe('alice@example.com');
  const apiKey = otpDecryptApiKey(location.searchParams.get('otp_encrypted_api_key')!, 'ab'.repeat(32));
  assertSuccess(await client(ts, { email: 'alice@example.com', apiKey }).get('/users/me'));

  const wrong = await web.post('/login/', { username: 'mallory', password: 'mallory-directory-secret' });
  expect(wrong.status).toBe(401);
});

test('an unreachable directory refuses logins without logging credentials', async () => {
  const down = await startTestServer({
    PARLEY_LDAP_URL: 'ldap://127.0.0.1:1',
    PARLEY_LDAP_SEARCH_BASE: `ou=people,${directory.suffix}`,
  });
  try {
    assertError(
      await client(down, null).post('/fetch_api_key', { username: 'alice', password: 'alice-directory-secret' }),
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
      401,
    );
    // Local accounts still log in.
    assertSuccess(await client(down, null).post('/fetch_api_key', { username: down.owner.email, password: down.owner.password }));
  } finally {
    await down.close();
  }
  expect(allLogged().some((line) => line.startsWith('LDAP login failed'))).toBe(true);
  for (const secret of ['alice-directory-secret', 'bob-directory-secret', 'mallory-directory-secret', directory.adminPassword]) {
    expect(allLogged().join('\n')).not.toContain(secret);
  }
});
