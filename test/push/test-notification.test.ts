import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { Bouncer, startBouncer } from '../notifications/bouncer';
import { pushServiceEnv, serviceKeys } from '../notifications/helpers';

// POST /mobile_push/test_notification: a test notification to the user's device tokens (or one of
// them), through the push service's push/test_notification.
let bouncer: Bouncer;
let ts: TestServer;
let unconfigured: TestServer;

const APNS_TOKEN = 'c0ffee01';
const FCM_TOKEN = 'fcm-token-1';

beforeAll(async () => {
  bouncer = await startBouncer();
  ts = await startTestServer(pushServiceEnv(await serviceKeys(), bouncer.url));
  unconfigured = await startTestServer();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await unconfigured?.close();
  await bouncer?.close();
}, SERVER_HOOK_TIMEOUT);

async function withTokens(): Promise<TestUser> {
  const me = await makeUser(ts, 400);
  assertSuccess(await client(ts, me).post('/users/me/apns_device_token', { token: APNS_TOKEN, appid: 'org.zulip.Zulip' }));
  assertSuccess(await client(ts, me).post('/users/me/android_gcm_reg_id', { token: FCM_TOKEN }));
  return me;
}

const testRequests = (userId: number) =>
  bouncer.requests.filter((r) => r.path === '/api/v1/remotes/push/test_notification' && r.body.user_id === userId).map((r) => r.body);

test('every registered token gets one, or only the token named', async () => {
  const me = await withTokens();
  assertSuccess(await client(ts, me).post('/mobile_push/test_notification', {}));
  const sent = testRequests(me.id);
  expect(sent.map((b) => [b.token, b.token_kind])).toEqual([
    [APNS_TOKEN, 1],
    [FCM_TOKEN, 2],
  ]);
  expect(sent[0].base_payload).toEqual({
    server: new URL(ts.server.deps.config.externalUrl).host,
    realm_id: ts.server.deps.realmId,
    realm_uri: ts.server.deps.config.externalUrl,
    realm_url: ts.server.deps.config.externalUrl,
    realm_name: expect.any(String),
    user_id: me.id,
  });
  assertSuccess(await client(ts, me).post('/mobile_push/test_notification', { token: FCM_TOKEN }));
  expect(testRequests(me.id).map((b) => b.token)).toEqual([APNS_TOKEN, FCM_TOKEN, FCM_TOKEN]);
  expect(bouncer.violations).toEqual([]);
});

test("Zulip's errors: unknown token here, unknown at the service, service refusing, no service", async () => {
  const me = await withTokens();
  const other = await withTokens();
  assertError(await client(ts, me).post('/mobile_push/test_notification', { token: 'never-registered' }), 'INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized');
  // The service no longer knows this user's tokens (the app was uninstalled, say).
  const before = bouncer.tokens.length;
  for (let i = bouncer.tokens.length - 1; i >= 0; i--) if (String(bouncer.tokens[i].userId) === String(other.id)) bouncer.tokens.splice(i, 1);
  expect(bouncer.tokens.length).toBe(before - 2);
  assertError(
    await client(ts, other).post('/mobile_push/test_notification', { token: APNS_TOKEN }),
    'INVALID_REMOTE_PUSH_DEVICE_TOKEN',
    'Device not recognized by the push bouncer',
  );
  bouncer.failWith.push({ status: 403, code: 'PUSH_NOTIFICATIONS_DISALLOWED', msg: 'Your plan does not allow push notifications.' });
  assertError(
    await client(ts, me).post('/mobile_push/test_notification', {}),
    'BAD_REQUEST',
    'Push notifications bouncer error: Your plan does not allow push notifications.',
    502,
  );
  const elsewhere = await makeUser(unconfigured, 400);
  assertError(
    await client(unconfigured, elsewhere).post('/mobile_push/test_notification', {}),
    'PUSH_SERVICE_NOT_CONFIGURED',
    'Server is not configured to use push notification service.',
  );
});

test('a user without tokens succeeds with nothing sent; bots are refused; GraphQL runs the same action', async () => {
  const me = await makeUser(ts, 400);
  assertSuccess(await client(ts, me).post('/mobile_push/test_notification', {}));
  expect(testRequests(me.id)).toEqual([]);
  const bot = await makeUser(ts, 400);
  await ts.server.deps.knex('users').where('id', bot.id).update({ is_bot: true, bot_type: 1 });
  assertError(await client(ts, bot).post('/mobile_push/test_notification', {}), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  const phone = await withTokens();
  const res = await graphql(ts, phone, `mutation { sendTestPushNotification(token: "${APNS_TOKEN}") { devices } }`);
  expect(res.data).toEqual({ sendTestPushNotification: { devices: 1 } });
  expect(testRequests(phone.id).map((b) => b.token)).toEqual([APNS_TOKEN]);
});
