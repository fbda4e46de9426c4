import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, startBouncer } from '../notifications/bouncer';
import { pushServiceEnv, ServiceKeys, serviceKeys } from '../notifications/helpers';

// With the push service configured, the legacy token endpoints also register each token with the
// service (and unregister it), within the request, as Zulip's server does.
let bouncer: Bouncer;
let keys: ServiceKeys;
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  bouncer = await startBouncer();
  keys = await serviceKeys();
  ts = await startTestServer(pushServiceEnv(keys, bouncer.url));
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await bouncer?.close();
}, SERVER_HOOK_TIMEOUT);

const APNS = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const stored = (who: TestUser) => ts.server.deps.knex('push_device_tokens').select('kind', 'token').where('user_id', who.id).orderBy('id');
const atService = (who: TestUser) => bouncer.tokens.filter((t) => t.userId === String(who.id)).map((t) => [t.tokenKind, t.token, t.iosAppId]);
const lastRequest = () => bouncer.requests[bouncer.requests.length - 1];

test('an APNs token is registered with the service and unregistered at logout', async () => {
  assertSuccess(await client(ts, alice).post('/users/me/apns_device_token', { token: APNS, appid: 'org.zulip.Zulip' }));
  expect(atService(alice)).toEqual([[1, APNS, 'org.zulip.Zulip']]);
  const request = lastRequest();
  expect(request.path).toBe('/api/v1/remotes/push/register');
  expect(request.contentType).toBe('application/x-www-form-urlencoded');
  expect(request.authorization).toBe(`Basic ${Buffer.from(`${keys.orgId}:${keys.orgKey}`).toString('base64')}`);
  expect(request.body).toEqual({
    server_uuid: keys.orgId,
    realm_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    user_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    user_id: String(alice.id),
    token: APNS,
    token_kind: '1',
    ios_app_id: 'org.zulip.Zulip',
  });
  expect(await stored(alice)).toEqual([{ kind: 'apns', token: APNS }]);

  assertSuccess(await client(ts, alice).delete('/users/me/apns_device_token', { token: APNS }));
  expect(lastRequest().path).toBe('/api/v1/remotes/push/unregister');
  expect(lastRequest().body).toMatchObject({ user_id: String(alice.id), token: APNS, token_kind: '1' });
  expect(atService(alice)).toEqual([]);
  expect(await stored(alice)).toEqual([]);
  // The service no longer has it: its answer is the client's.
  assertError(await client(ts, alice).delete('/users/me/apns_device_token', { token: APNS }), 'BAD_REQUEST', 'Token does not exist');
  expect(bouncer.violations).toEqual([]);
});

test('an FCM token likewise, without an app id; users are told apart', async () => {
  assertSuccess(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token: 'android-token' }));
  assertSuccess(await client(ts, alice).post('/users/me/android_gcm_reg_id', { token: 'android-token' }));
  expect(atService(bob)).toEqual([[2, 'android-token', null]]);
  expect(lastRequest().body).not.toHaveProperty('ios_app_id');
  // Registering again is harmless at both ends.
  assertSuccess(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token: 'android-token' }));
  expect(atService(bob)).toEqual([[2, 'android-token', null]]);
  assertSuccess(await client(ts, bob).delete('/users/me/android_gcm_reg_id', { token: 'android-token' }));
  expect(atService(bob)).toEqual([]);
  expect(atService(alice)).toEqual([[2, 'android-token', null]]);
  expect(bouncer.violations).toEqual([]);
});

test('bad tokens are refused before the service is asked', async () => {
  const before = bouncer.requests.length;
  assertError(await client(ts, bob).post('/users/me/apns_device_token', { token: 'abc', appid: 'org.zulip.Zulip' }), 'BAD_REQUEST', 'Invalid APNS token');
  assertError(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token: '' }), 'BAD_REQUEST', 'Empty or invalid length token');
  expect(bouncer.requests.length).toBe(before);
});

describe('regenerating the API key signs the phones out too', () => {
  const forgetRequests = (who: TestUser) =>
    bouncer.requests.filter((r) => r.path === '/api/v1/remotes/push/unregister/all' && r.body.user_id === String(who.id));
  const pendingJobs = (who: TestUser) => ts.server.deps.knex('notification_jobs').where({ user_id: who.id });

  test("the user's tokens are forgotten here and at the service; others keep theirs", async () => {
    const me = await makeUser(ts, 400);
    const other = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/users/me/apns_device_token', { token: APNS, appid: 'org.zulip.Zulip' }));
    assertSuccess(await client(ts, me).post('/users/me/android_gcm_reg_id', { token: 'my-phone' }));
    assertSuccess(await client(ts, other).post('/users/me/android_gcm_reg_id', { token: 'their-phone' }));

    const newKey = assertSuccess(await client(ts, me).post('/users/me/api_key/regenerate')).api_key;
    expect(await stored(me)).toEqual([]);
    await waitUntil(() => atService(me).length === 0);
    const [request] = forgetRequests(me);
    expect(request.contentType).toBe('application/x-www-form-urlencoded');
    expect(request.body).toEqual({
      server_uuid: keys.orgId,
      realm_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      user_id: String(me.id),
    });
    expect(atService(other)).toEqual([[2, 'their-phone', null]]);
    expect(await stored(other)).toEqual([{ kind: 'fcm', token: 'their-phone' }]);
    await waitUntil(async () => (await pendingJobs(me)).length === 0);
    // Signed in again with the new key, the app registers its token anew.
    assertSuccess(await client(ts, { ...me, apiKey: newKey }).post('/users/me/android_gcm_reg_id', { token: 'my-phone' }));
    expect(atService(me)).toEqual([[2, 'my-phone', null]]);
    expect(bouncer.violations).toEqual([]);
  });

  test('a service that fails is asked again; the new key works at once', async () => {
    const me = await makeUser(ts, 400);
    assertSuccess(await client(ts, me).post('/users/me/android_gcm_reg_id', { token: 'lost-phone' }));
    bouncer.failWith.push(503);
    const newKey = assertSuccess(await client(ts, me).post('/users/me/api_key/regenerate')).api_key;
    assertSuccess(await client(ts, { ...me, apiKey: newKey }).get('/users/me'));
    await waitUntil(() => atService(me).length === 0);
    expect(forgetRequests(me)).toHaveLength(2);
    await waitUntil(async () => (await pendingJobs(me)).length === 0);
    expect(bouncer.violations).toEqual([]);
  });
});

describe('the service failing', () => {
  test('a 5xx answer is a 502: the token is kept here, and the app registers again later', async () => {
    const me = await makeUser(ts, 400);
    bouncer.failWith.push(500);
    assertError(
      await client(ts, me).post('/users/me/android_gcm_reg_id', { token: 'retry-me' }),
      'BAD_REQUEST',
      'Received 500 from push notification bouncer',
      502,
    );
    expect(await stored(me)).toEqual([{ kind: 'fcm', token: 'retry-me' }]);
    expect(atService(me)).toEqual([]);
    assertSuccess(await client(ts, me).post('/users/me/android_gcm_reg_id', { token: 'retry-me' }));
    expect(atService(me)).toEqual([[2, 'retry-me', null]]);
  });

  test("the service refusing this server's credentials is a 502 too", async () => {
    const me = await makeUser(ts, 400);
    bouncer.failWith.push({ status: 401, code: 'INVALID_ZULIP_SERVER', msg: 'Zulip server auth failure: key does not match role' });
    assertError(
      await client(ts, me).post('/users/me/android_gcm_reg_id', { token: 'denied' }),
      'BAD_REQUEST',
      'Push notifications bouncer error: Zulip server auth failure: key does not match role',
      502,
    );
  });

  test('a refusal of the token passes the service’s message on', async () => {
    const me = await makeUser(ts, 400);
    bouncer.failWith.push({ status: 400, code: 'BAD_REQUEST', msg: 'Invalid APNS token' });
    assertError(await client(ts, me).post('/users/me/apns_device_token', { token: 'ffff', appid: 'org.zulip.Zulip' }), 'BAD_REQUEST', 'Invalid APNS token');
  });

  test('an unreachable service is a 502', async () => {
    const gone = await startBouncer();
    await gone.close();
    const offline = await startTestServer(pushServiceEnv(await serviceKeys(), gone.url));
    try {
      const me = await makeUser(offline, 400);
      assertError(
        await client(offline, me).post('/users/me/android_gcm_reg_id', { token: 'nowhere' }),
        'BAD_REQUEST',
        'ConnectionError while trying to connect to push notification bouncer',
        502,
      );
      assertError(
        await client(offline, me).delete('/users/me/android_gcm_reg_id', { token: 'nowhere' }),
        'BAD_REQUEST',
        'ConnectionError while trying to connect to push notification bouncer',
        502,
      );
    } finally {
      await offline.close();
    }
  });
});

test('GraphQL: the same registration at the service', async () => {
  const me = await makeUser(ts, 400);
  expect((await graphql(ts, me, 'mutation { addFcmRegistrationToken(token: "gql-1") { deviceToken { id } } }')).data).toEqual({
    addFcmRegistrationToken: { deviceToken: { id: 'gql-1' } },
  });
  expect(atService(me)).toEqual([[2, 'gql-1', null]]);
  bouncer.failWith.push(503);
  expect(graphqlError(await graphql(ts, me, 'mutation { removeFcmRegistrationToken(token: "gql-1") { id } }'))).toEqual({
    code: 'BAD_REQUEST',
    message: 'Received 503 from push notification bouncer',
  });
});
