import sodium from 'libsodium-wrappers';
import { loadConfig } from '../../src/config';
import { PushDevice } from '../../src/core/push/model';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents, registerQueue } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, startBouncer } from '../notifications/bouncer';
import { b64, newPushKey, pushServiceEnv, sealRegistration, serviceKeys } from '../notifications/helpers';

// POST /mobile_push/register: the server stores the device as pending and hands the sealed
// registration to the push service, which alone can open it; the service's answer settles it.
let bouncer: Bouncer;
let ts: TestServer;
let unconfigured: TestServer;
let alice: TestUser;
let clientKey: string;

beforeAll(async () => {
  await sodium.ready;
  bouncer = await startBouncer();
  clientKey = b64(newPushKey());
  ts = await startTestServer(pushServiceEnv(await serviceKeys(), bouncer.url));
  unconfigured = await startTestServer();
  alice = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await unconfigured?.close();
  await bouncer?.close();
}, SERVER_HOOK_TIMEOUT);

const now = () => Math.floor(Date.now() / 1000);
const seal = (registration: unknown) => sealRegistration(bouncer, registration);

const fcmRegistration = (extra: Record<string, unknown> = {}) => ({ token: 'fcm-token-abc:123', token_kind: 'fcm', timestamp: now(), ...extra });
const apnsRegistration = (extra: Record<string, unknown> = {}) => ({
  token: 'c0ffee00deadbeef',
  token_kind: 'apns',
  ios_app_id: 'org.example.chat',
  timestamp: now(),
  ...extra,
});

const params = (extra: Record<string, unknown> = {}) => ({
  token_kind: 'fcm',
  push_account_id: 4242,
  push_key: clientKey,
  bouncer_public_key: b64(bouncer.publicKey),
  encrypted_push_registration: seal(fcmRegistration()),
  ...extra,
});

const devices = (userId: number) => PushDevice.query(ts.server.deps.knex).where('user_id', userId).orderBy('push_account_id');
const device = async (userId: number, pushAccountId: number) => (await devices(userId)).find((d) => d.push_account_id === pushAccountId);
const settled = (userId: number, pushAccountId: number) =>
  waitUntil(async () => {
    const d = await device(userId, pushAccountId);
    return d !== undefined && (d.bouncer_device_id !== null || d.error_code !== null);
  });
const registrationsFor = (pushAccountId: number) =>
  bouncer.requests.filter((r) => r.path === '/api/v1/remotes/push/e2ee/register' && r.body.push_account_id === String(pushAccountId));
// Events are published once their transaction has committed, a moment after the row reads back.
const pushDeviceEvents = async (events: ReturnType<typeof captureEvents>, count: number) => {
  await waitUntil(() => events.ofType('push_device').length >= count);
  return events.ofType('push_device');
};
const pushDevicesState = async (who: TestUser) => (await registerQueue(ts, who, { fetchEventTypes: ['push_device'] })).state.push_devices;

test('without push configuration the service is refused', async () => {
  const user = await makeUser(unconfigured, 400);
  assertError(
    await client(unconfigured, user).post('/mobile_push/register', params()),
    'PUSH_SERVICE_NOT_CONFIGURED',
    'Server is not configured to use push notification service.',
  );
});

test('registrations are handed to the service, which names the devices', async () => {
  const me = await makeUser(ts, 400);
  const events = captureEvents(ts);
  const fcm = params({ push_account_id: 1 });
  const apns = params({ push_account_id: 2, token_kind: 'apns', encrypted_push_registration: seal(apnsRegistration()) });
  try {
    assertSuccess(await client(ts, me).post('/mobile_push/register', fcm));
    assertSuccess(await client(ts, me).post('/mobile_push/register', apns));
    await settled(me.id, 1);
    await settled(me.id, 2);
    expect(await pushDeviceEvents(events, 4)).toEqual(
      expect.arrayContaining([
        { event: { type: 'push_device', push_account_id: '1', status: 'pending' }, userIds: [me.id] },
        { event: { type: 'push_device', push_account_id: '2', status: 'pending' }, userIds: [me.id] },
        { event: { type: 'push_device', push_account_id: '1', status: 'active' }, userIds: [me.id] },
        { event: { type: 'push_device', push_account_id: '2', status: 'active' }, userIds: [me.id] },
      ]),
    );
    expect(events.ofType('push_device')).toHaveLength(4);
  } finally {
    events.stop();
  }
  // What the service was sent: the sealed registration as the client made it, with the key it names.
  const [request] = bouncer.requests.filter(
    (r) => r.path === '/api/v1/remotes/push/e2ee/register' && r.body.encrypted_push_registration === apns.encrypted_push_registration,
  );
  expect(request.contentType).toBe('application/x-www-form-urlencoded');
  expect(request.body).toEqual({
    realm_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    push_account_id: '2',
    encrypted_push_registration: apns.encrypted_push_registration,
    bouncer_public_key: b64(bouncer.publicKey),
  });
  // The service's device ids are stored; the tokens exist only at the service.
  const stored = await devices(me.id);
  const serviceIds = stored.map((d) => bouncer.devices.find((s) => s.deviceId === d.bouncer_device_id));
  expect(serviceIds.map((s) => [s?.pushAccountId, s?.token, s?.tokenKind, s?.iosAppId])).toEqual([
    [1, 'fcm-token-abc:123', 'fcm', null],
    [2, 'c0ffee00deadbeef', 'apns', 'org.example.chat'],
  ]);
  expect(stored.map((d) => [d.token_kind, d.push_key, d.error_code, d.encrypted_push_registration])).toEqual([
    ['fcm', clientKey, null, null],
    ['apns', clientKey, null, null],
  ]);
  expect(JSON.stringify(stored)).not.toContain('fcm-token-abc');
  expect(await pushDevicesState(me)).toEqual({ '1': { status: 'active', error_code: null }, '2': { status: 'active', error_code: null } });
  expect(bouncer.violations).toEqual([]);
});

test('registering a push account again while it is pending or active changes nothing', async () => {
  const me = await makeUser(ts, 400);
  const events = captureEvents(ts);
  let before: PushDevice | undefined;
  try {
    assertSuccess(await client(ts, me).post('/mobile_push/register', params({ push_account_id: 77 })));
    await settled(me.id, 77);
    await pushDeviceEvents(events, 2);
    events.clear();
    before = await device(me.id, 77);
    assertSuccess(
      await client(ts, me).post(
        '/mobile_push/register',
        params({ push_account_id: 77, encrypted_push_registration: seal(fcmRegistration({ token: 'rotated' })) }),
      ),
    );
    // The request published its events before answering; a worker pass now would forward a registration left pending.
    await ts.server.notifications.runNow();
    expect(events.ofType('push_device')).toEqual([]);
  } finally {
    events.stop();
  }
  expect(registrationsFor(77)).toHaveLength(1);
  expect(await device(me.id, 77)).toEqual(before);
  // Another user may use the same push account id.
  assertSuccess(await client(ts, alice).post('/mobile_push/register', params({ push_account_id: 77 })));
  await settled(alice.id, 77);
  expect(await devices(me.id)).toHaveLength(1);
});

test('parameters are required and typed', async () => {
  for (const name of ['token_kind', 'push_account_id', 'push_key', 'bouncer_public_key', 'encrypted_push_registration']) {
    const p = params();
    delete (p as Record<string, unknown>)[name];
    assertError(await client(ts, alice).post('/mobile_push/register', p), 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`);
  }
  assertError(await client(ts, alice).post('/mobile_push/register', params({ token_kind: 'gcm' })), 'BAD_REQUEST', 'Invalid token_kind');
  assertError(
    await client(ts, alice).post('/mobile_push/register', params({ push_account_id: 'x1' })),
    'INVALID_JSON',
    'Argument "push_account_id" is not valid JSON.',
  );
});

test('the push key must be base64 of the secretbox tag and a 32-byte key', async () => {
  const me = await makeUser(ts, 400);
  const wrongTag = newPushKey();
  wrongTag[0] = 0x32;
  for (const key of ['not base64!', b64(new Uint8Array(16)), b64(newPushKey().subarray(1)), b64(wrongTag), 'AAAA', '']) {
    assertError(await client(ts, me).post('/mobile_push/register', params({ push_key: key })), 'BAD_REQUEST', 'Invalid `push_key`');
  }
  expect(await devices(me.id)).toHaveLength(0);
});

describe('the service refusing the registration', () => {
  async function refused(extra: Record<string, unknown>, errorCode: string) {
    const me = await makeUser(ts, 400);
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).post('/mobile_push/register', params({ push_account_id: 5, ...extra })));
      await settled(me.id, 5);
      expect((await pushDeviceEvents(events, 2)).map((d) => d.event)).toEqual([
        { type: 'push_device', push_account_id: '5', status: 'pending' },
        { type: 'push_device', push_account_id: '5', status: 'failed', error_code: errorCode },
      ]);
    } finally {
      events.stop();
    }
    expect(await pushDevicesState(me)).toEqual({ '5': { status: 'failed', error_code: errorCode } });
    // Not retried: a worker pass now, which forwards every registration due, leaves it alone.
    await ts.server.notifications.runNow();
    const row = (await device(me.id, 5))!;
    expect([row.bouncer_device_id, row.register_due_at, row.encrypted_push_registration]).toEqual([null, null, null]);
    return me;
  }

  test('sealed for another key', async () => {
    const other = sodium.crypto_box_keypair();
    await refused({ bouncer_public_key: b64(other.publicKey) }, 'INVALID_BOUNCER_PUBLIC_KEY');
    await refused(
      { encrypted_push_registration: b64(sodium.crypto_box_seal(Buffer.from(JSON.stringify(fcmRegistration())), other.publicKey)) },
      'INVALID_ENCRYPTED_PUSH_REGISTRATION',
    );
  });

  test('undecryptable or malformed', async () => {
    await refused({ encrypted_push_registration: 'not-base64' }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION');
    await refused({ encrypted_push_registration: seal('not json') }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION');
    await refused({ token_kind: 'apns', encrypted_push_registration: seal(apnsRegistration({ token: 'not-hex' })) }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION');
  });

  test('stale, then registered anew and accepted', async () => {
    const me = await refused({ encrypted_push_registration: seal(fcmRegistration({ timestamp: now() - 86401 - 5 })) }, 'REQUEST_EXPIRED');
    // A failed push account may register again: pending, then active.
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).post('/mobile_push/register', params({ push_account_id: 5 })));
      await waitUntil(async () => (await device(me.id, 5))?.bouncer_device_id !== null);
      expect((await pushDeviceEvents(events, 2)).map((d) => d.event)).toEqual([
        { type: 'push_device', push_account_id: '5', status: 'pending' },
        { type: 'push_device', push_account_id: '5', status: 'active' },
      ]);
    } finally {
      events.stop();
    }
    expect(await pushDevicesState(me)).toEqual({ '5': { status: 'active', error_code: null } });
  });
});

describe('the service failing', () => {
  test('a 5xx answer is retried until the service takes the registration', async () => {
    const me = await makeUser(ts, 400);
    bouncer.failWith.push(500, 503);
    assertSuccess(await client(ts, me).post('/mobile_push/register', params({ push_account_id: 6 })));
    await waitUntil(async () => (await device(me.id, 6))?.bouncer_device_id !== null, 20_000);
    expect(registrationsFor(6).filter((r) => r.body.push_account_id === '6')).toHaveLength(3);
    expect(await pushDevicesState(me)).toEqual({ '6': { status: 'active', error_code: null } });
  });

  test("a refusal of this server's credentials is retried too (its operator's to fix)", async () => {
    const me = await makeUser(ts, 400);
    bouncer.failWith.push({ status: 401, code: 'INVALID_ZULIP_SERVER', msg: 'Zulip server auth failure: key does not match role' });
    assertSuccess(await client(ts, me).post('/mobile_push/register', params({ push_account_id: 8 })));
    await waitUntil(async () => (await device(me.id, 8))?.bouncer_device_id !== null, 20_000);
    expect(registrationsFor(8)).toHaveLength(2);
  });

  test('an unreachable service leaves the device pending, then fails it once the registration is too old', async () => {
    const gone = await startBouncer();
    await gone.close();
    const offline = await startTestServer(pushServiceEnv(await serviceKeys(), gone.url));
    try {
      const me = await makeUser(offline, 400);
      const knex = offline.server.deps.knex;
      const row = () => knex('push_devices').where({ user_id: me.id, push_account_id: 9 }).first();
      assertSuccess(await client(offline, me).post('/mobile_push/register', params({ push_account_id: 9 })));
      await waitUntil(async () => (await row())?.register_attempts >= 2, 20_000);
      expect((await registerQueue(offline, me, { fetchEventTypes: ['push_device'] })).state.push_devices).toEqual({
        '9': { status: 'pending', error_code: null },
      });
      // A day later the service would refuse the registration anyway.
      await knex('push_devices')
        .where({ user_id: me.id, push_account_id: 9 })
        .update({ registered_at: new Date(Date.now() - 86_400_000 - 1000), register_due_at: new Date() });
      await offline.server.notifications.runNow();
      await waitUntil(async () => (await row())?.error_code !== null, 20_000);
      expect((await registerQueue(offline, me, { fetchEventTypes: ['push_device'] })).state.push_devices).toEqual({
        '9': { status: 'failed', error_code: 'REQUEST_EXPIRED' },
      });
    } finally {
      await offline.close();
    }
  });
});

test('bots cannot register push devices', async () => {
  const bot = await makeUser(ts, 400);
  await ts.server.deps.knex('users').where('id', bot.id).update({ is_bot: true, bot_type: 1 });
  assertError(await client(ts, bot).post('/mobile_push/register', params()), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
});

test('the server holds no key of the service: only its URL and registration', () => {
  const config = loadConfig({ PORT: '0' });
  expect(config.pushService).toBeNull();
  expect(Object.keys(config)).not.toContain('pushBouncer');
});

describe('GraphQL', () => {
  const mutation = `mutation($kind: String!, $id: SafeInt!, $key: String!, $bouncer: String!, $sealed: String!) {
    registerPushDevice(tokenKind: $kind, pushAccountId: $id, pushKey: $key, bouncerPublicKey: $bouncer, encryptedPushRegistration: $sealed) { tokenKind pushAccountId }
  }`;
  test('registers through the same checks', async () => {
    const me = await makeUser(ts, 400);
    const vars = { kind: 'fcm', id: 2 ** 40, key: clientKey, bouncer: b64(bouncer.publicKey), sealed: seal(fcmRegistration()) };
    expect((await graphql(ts, me, mutation, vars)).data).toEqual({ registerPushDevice: { tokenKind: 'fcm', pushAccountId: 2 ** 40 } });
    await settled(me.id, 2 ** 40);
    expect((await devices(me.id)).map((d) => [d.push_account_id, d.error_code])).toEqual([[2 ** 40, null]]);
    expect(graphqlError(await graphql(ts, me, mutation, { ...vars, kind: 'gcm' }))).toEqual({ code: 'BAD_REQUEST', message: 'Invalid token_kind' });
    expect(graphqlError(await graphql(ts, me, mutation, { ...vars, key: 'AAAA' }))).toEqual({ code: 'BAD_REQUEST', message: 'Invalid `push_key`' });
    const other = await makeUser(unconfigured, 400);
    expect(graphqlError(await graphql(unconfigured, other, mutation, vars)).code).toBe('PUSH_SERVICE_NOT_CONFIGURED');
  });
});
