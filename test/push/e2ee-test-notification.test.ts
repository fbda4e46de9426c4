import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer } from '../helpers/server';
import { Bouncer, decryptPayload, startBouncer } from '../notifications/bouncer';
import { Device, pushServiceEnv, registerDevice, serviceKeys } from '../notifications/helpers';

// POST /mobile_push/e2ee/test_notification (feature level 420): a test notification, sealed to the
// device's key, to one of the user's E2EE devices (by device id since feature level 468) or to all of them.
let bouncer: Bouncer;
let ts: TestServer;
let unconfigured: TestServer;

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

// The app shows no test notification (it skips payload types it does not know), so these are
// opened here rather than read as the app reads a message.
async function testPushes(device: Device): Promise<any[]> {
  const out: any[] = [];
  for (const request of bouncer.requests) {
    if (!request.path.endsWith('/e2ee/notify')) continue;
    for (const push of request.body.push_requests) {
      if (push.token_id !== device.tokenId) continue;
      const json = await decryptPayload(push.payload.encrypted_data, device.pushKey);
      if (json.type === 'test') out.push(json);
    }
  }
  return out;
}

test('a test notification reaches the named device only, or every device', async () => {
  const me = await makeUser(ts, 400);
  const phone = await registerDevice(ts, me, bouncer);
  const tablet = await registerDevice(ts, me, bouncer);
  const before = Math.floor(Date.now() / 1000);
  assertSuccess(await client(ts, me).post('/mobile_push/e2ee/test_notification', { device_id: phone.deviceId }));
  const [payload] = await testPushes(phone);
  expect(payload).toEqual({
    realm_name: expect.any(String),
    realm_url: ts.server.deps.config.externalUrl,
    time: expect.any(Number),
    type: 'test',
    user_id: me.id,
  });
  expect(payload.time).toBeGreaterThanOrEqual(before);
  expect(await testPushes(tablet)).toEqual([]);

  assertSuccess(await client(ts, me).post('/mobile_push/e2ee/test_notification', {}));
  expect(await testPushes(phone)).toHaveLength(2);
  expect(await testPushes(tablet)).toHaveLength(1);
  expect(bouncer.violations).toEqual([]);
});

test('without an active device the request fails', async () => {
  const me = await makeUser(ts, 400);
  const other = await makeUser(ts, 400);
  const theirs = await registerDevice(ts, other, bouncer);
  const noDevice = ['NO_ACTIVE_PUSH_DEVICE', 'No active registered push device'] as const;
  assertError(await client(ts, me).post('/mobile_push/e2ee/test_notification', {}), ...noDevice);
  // Another user's device is not the requester's.
  assertError(await client(ts, me).post('/mobile_push/e2ee/test_notification', { device_id: theirs.deviceId }), ...noDevice);
  const mine = await registerDevice(ts, me, bouncer);
  assertError(await client(ts, me).post('/mobile_push/e2ee/test_notification', { device_id: mine.deviceId + 100000 }), ...noDevice);
  expect(await testPushes(theirs)).toEqual([]);
});

test('bots, bad parameters and a server without push service are refused', async () => {
  const bot = await makeUser(ts, 400);
  await ts.server.deps.knex('users').where('id', bot.id).update({ is_bot: true, bot_type: 1 });
  assertError(await client(ts, bot).post('/mobile_push/e2ee/test_notification', {}), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  const me = await makeUser(ts, 400);
  assertError(await client(ts, me).post('/mobile_push/e2ee/test_notification', { device_id: 'x' }), 'INVALID_JSON', 'Argument "device_id" is not valid JSON.');
  const user = await makeUser(unconfigured, 400);
  assertError(
    await client(unconfigured, user).post('/mobile_push/e2ee/test_notification', {}),
    'PUSH_SERVICE_NOT_CONFIGURED',
    'Server is not configured to use push notification service.',
  );
});

test('a service that cannot be reached is reported as a bad gateway', async () => {
  const me = await makeUser(ts, 400);
  const device = await registerDevice(ts, me, bouncer);
  bouncer.failWith.push(503);
  const res = await client(ts, me).post('/mobile_push/e2ee/test_notification', { device_id: device.deviceId });
  expect(res.status).toBe(502);
  expect(res.body).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
});

test('GraphQL sends the same test notification', async () => {
  const me = await makeUser(ts, 400);
  const device = await registerDevice(ts, me, bouncer);
  const send = 'mutation ($id: Int) { sendE2eeTestNotification(deviceId: $id) }';
  expect((await graphql(ts, me, send, { id: device.deviceId })).data).toEqual({ sendE2eeTestNotification: true });
  expect(await testPushes(device)).toHaveLength(1);
  expect(graphqlError(await graphql(ts, me, send, { id: device.deviceId + 100000 }))).toEqual({
    code: 'NO_ACTIVE_PUSH_DEVICE',
    message: 'No active registered push device',
  });
});
