import { decodesAsHex } from '../../src/core/push/tokens';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
beforeAll(async () => {
  // No push service configured: tokens are stored all the same, as Zulip does.
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
});

const APNS = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
const stored = (who: TestUser) => ts.server.deps.knex('push_device_tokens').select('kind', 'token', 'ios_app_id').where('user_id', who.id).orderBy('id');

describe('APNs device tokens', () => {
  test('the iOS app registers at start and removes at logout', async () => {
    assertSuccess(await client(ts, alice).post('/users/me/apns_device_token', { token: APNS, appid: 'org.zulip.Zulip' }));
    // Registering again changes nothing.
    assertSuccess(await client(ts, alice).post('/users/me/apns_device_token', { token: APNS, appid: 'org.zulip.Zulip' }));
    expect(await stored(alice)).toEqual([{ kind: 'apns', token: APNS, ios_app_id: 'org.zulip.Zulip' }]);
    // Another user's token of the same value is theirs alone.
    assertError(await client(ts, bob).delete('/users/me/apns_device_token', { token: APNS }), 'BAD_REQUEST', 'Token does not exist');
    assertSuccess(await client(ts, alice).delete('/users/me/apns_device_token', { token: APNS }));
    expect(await stored(alice)).toEqual([]);
    assertError(await client(ts, alice).delete('/users/me/apns_device_token', { token: APNS }), 'BAD_REQUEST', 'Token does not exist');
  });

  test("Zulip's checks", async () => {
    const add = (params: Record<string, string>) => client(ts, alice).post('/users/me/apns_device_token', params);
    assertError(await add({ token: '', appid: 'org.zulip.Zulip' }), 'BAD_REQUEST', 'Empty or invalid length token');
    assertError(await add({ token: 'a'.repeat(4097), appid: 'org.zulip.Zulip' }), 'BAD_REQUEST', 'Empty or invalid length token');
    assertError(await add({ token: 'abc', appid: 'org.zulip.Zulip' }), 'BAD_REQUEST', 'Invalid APNS token');
    assertError(await add({ token: APNS, appid: 'org/zulip' }), 'BAD_REQUEST', 'Invalid app ID');
    assertError(await add({ token: APNS }), 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument");
    assertError(await client(ts, alice).delete('/users/me/apns_device_token', { token: 'abc' }), 'BAD_REQUEST', 'Invalid APNS token');
    assertError(await client(ts, alice).delete('/users/me/apns_device_token', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'token' argument");
    // The token of Zulip's own API example: hex of any even length.
    assertSuccess(await add({ token: 'c0ffee', appid: 'org.zulip.Zulip' }));
    assertSuccess(await client(ts, alice).delete('/users/me/apns_device_token', { token: 'c0ffee' }));
    expect(await stored(alice)).toEqual([]);
  });

  test('tokens are read as Python reads hex', () => {
    // Verdicts of Python's bytes.fromhex, copied as facts.
    const accepted = ['c0ffee', 'C0FFEE00', 'c0 ff ee', ' c0ffee ', 'c0\nff', '', '   '];
    const refused = ['abc', 'c0ffe', 'c 0ffee', 'xyz0', 'ab==', 'apple-token', 'é0'];
    expect(accepted.filter((t) => !decodesAsHex(t))).toEqual([]);
    expect(refused.filter((t) => decodesAsHex(t))).toEqual([]);
  });
});

describe('FCM registration tokens', () => {
  test('the Android app registers and removes its token', async () => {
    assertSuccess(await client(ts, guest).post('/users/me/android_gcm_reg_id', { token: 'c0ffee11' }));
    expect(await stored(guest)).toEqual([{ kind: 'fcm', token: 'c0ffee11', ios_app_id: null }]);
    // An APNs removal does not touch an FCM token of the same text.
    assertError(await client(ts, guest).delete('/users/me/apns_device_token', { token: 'c0ffee11' }), 'BAD_REQUEST', 'Token does not exist');
    assertSuccess(await client(ts, guest).delete('/users/me/android_gcm_reg_id', { token: 'c0ffee11' }));
    expect(await stored(guest)).toEqual([]);
    assertError(await client(ts, guest).delete('/users/me/android_gcm_reg_id', { token: 'c0ffee11' }), 'BAD_REQUEST', 'Token does not exist');
    assertError(await client(ts, guest).post('/users/me/android_gcm_reg_id', { token: '' }), 'BAD_REQUEST', 'Empty or invalid length token');
    // appid is not a parameter here.
    expect(assertSuccess(await client(ts, guest).post('/users/me/android_gcm_reg_id', { token: 't2', appid: 'x' })).ignored_parameters_unsupported).toEqual([
      'appid',
    ]);
  });
});

test('bots may not register tokens', async () => {
  const bot = await makeUser(ts, 400);
  await ts.server.deps.knex('users').where('id', bot.id).update({ is_bot: true, bot_type: 1 });
  for (const path of ['/users/me/apns_device_token', '/users/me/android_gcm_reg_id']) {
    assertError(await client(ts, bot).post(path, {}), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    assertError(await client(ts, bot).delete(path, { token: APNS }), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  }
  expect(await stored(bot)).toEqual([]);
});

test('GraphQL: the same actions', async () => {
  const fields = '{ deviceToken { id kind appid } }';
  expect((await graphql(ts, bob, `mutation($t: String!) { addApnsDeviceToken(token: $t, appid: "com.zulip.flutter") ${fields} }`, { t: APNS })).data).toEqual({
    addApnsDeviceToken: { deviceToken: { id: APNS, kind: 'apns', appid: 'com.zulip.flutter' } },
  });
  expect((await graphql(ts, bob, `mutation { addFcmRegistrationToken(token: "fcm-1") ${fields} }`)).data).toEqual({
    addFcmRegistrationToken: { deviceToken: { id: 'fcm-1', kind: 'fcm', appid: null } },
  });
  expect(await stored(bob)).toEqual([
    { kind: 'apns', token: APNS, ios_app_id: 'com.zulip.flutter' },
    { kind: 'fcm', token: 'fcm-1', ios_app_id: null },
  ]);
  expect((await graphql(ts, bob, 'mutation($t: String!) { removeApnsDeviceToken(token: $t) { id } }', { t: APNS })).data).toEqual({
    removeApnsDeviceToken: { id: APNS },
  });
  expect((await graphql(ts, bob, 'mutation { removeFcmRegistrationToken(token: "fcm-1") { id } }')).data).toEqual({
    removeFcmRegistrationToken: { id: 'fcm-1' },
  });
  expect(graphqlError(await graphql(ts, bob, 'mutation { removeFcmRegistrationToken(token: "fcm-1") { id } }'))).toEqual({
    code: 'BAD_REQUEST',
    message: 'Token does not exist',
  });
  expect(await stored(bob)).toEqual([]);
});
