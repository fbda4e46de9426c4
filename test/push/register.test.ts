import sodium from 'libsodium-wrappers';
import { loadConfig } from '../../src/config';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents, registerQueue } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, startBouncer, tokenIdOf } from '../notifications/bouncer';
import { b64, newPushKey, pushServiceEnv, sealRegistration, serviceKeys } from '../notifications/helpers';

// POST /mobile_push/register (feature level 468): a client device's push key and token. The server
// keeps the token pending and hands the sealed registration to the push service, which alone can
// open it; the service's answer makes it the device's registered token, or leaves its error code.
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
const FCM_TOKEN = 'fcm-token-abc:123';
const fcmRegistration = (extra: Record<string, unknown> = {}) => ({ token: FCM_TOKEN, token_kind: 'fcm', timestamp: now(), ...extra });
const apnsRegistration = (extra: Record<string, unknown> = {}) => ({
  token: 'c0ffee00deadbeef',
  token_kind: 'apns',
  ios_app_id: 'org.example.chat',
  timestamp: now(),
  ...extra,
});

const params = (deviceId: number, extra: Record<string, unknown> = {}) => ({
  device_id: deviceId,
  push_key: clientKey,
  push_key_id: 2408,
  token_kind: 'fcm',
  token_id: tokenIdOf(FCM_TOKEN),
  bouncer_public_key: b64(bouncer.publicKey),
  encrypted_push_registration: seal(fcmRegistration()),
  ...extra,
});

const newDevice = async (server: TestServer, who: TestUser) => assertSuccess(await client(server, who).post('/register_client_device')).device_id as number;
const row = (id: number, server = ts) => server.server.deps.knex('client_devices').where({ id }).first();
const settled = (id: number, server = ts) => waitUntil(async () => (await row(id, server))?.register_due_at === null, 20_000);
const registrationsOf = (tokenId: string) => bouncer.requests.filter((r) => r.path === '/api/v1/remotes/push/e2ee/register' && r.body.token_id === tokenId);
const devicesState = async (who: TestUser, server = ts) => (await registerQueue(server, who, { fetchEventTypes: ['device'] })).state.devices;

test('without push configuration the service is refused', async () => {
  const user = await makeUser(unconfigured, 400);
  const id = await newDevice(unconfigured, user);
  assertError(
    await client(unconfigured, user).post('/mobile_push/register', params(id)),
    'PUSH_SERVICE_NOT_CONFIGURED',
    'Server is not configured to use push notification service.',
  );
});

test('registrations are handed to the service by token id; the device keeps the ids, never the token', async () => {
  const me = await makeUser(ts, 400);
  const phone = await newDevice(ts, me);
  const tablet = await newDevice(ts, me);
  const apnsTokenId = tokenIdOf('c0ffee00deadbeef');
  const apns = params(tablet, { token_kind: 'apns', token_id: apnsTokenId, push_key_id: 4294967295, encrypted_push_registration: seal(apnsRegistration()) });
  assertSuccess(await client(ts, me).post('/mobile_push/register', params(phone)));
  assertSuccess(await client(ts, me).post('/mobile_push/register', apns));
  await settled(phone);
  await settled(tablet);
  const [request] = registrationsOf(apnsTokenId);
  expect(request.contentType).toBe('application/x-www-form-urlencoded');
  expect(request.body).toEqual({
    realm_uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    token_id: apnsTokenId,
    encrypted_push_registration: apns.encrypted_push_registration,
    bouncer_public_key: b64(bouncer.publicKey),
  });
  expect(bouncer.devices.filter((d) => [tokenIdOf(FCM_TOKEN), apnsTokenId].includes(d.tokenId)).map((d) => [d.token, d.tokenKind, d.iosAppId])).toEqual(
    expect.arrayContaining([
      [FCM_TOKEN, 'fcm', null],
      ['c0ffee00deadbeef', 'apns', 'org.example.chat'],
    ]),
  );
  const stored = [await row(phone), await row(tablet)];
  expect(stored.map((d) => [d.push_token_kind, d.push_key, d.push_registration_error_code, d.encrypted_push_registration, d.bouncer_public_key])).toEqual([
    ['fcm', clientKey, null, null, null],
    ['apns', clientKey, null, null, null],
  ]);
  expect(JSON.stringify(stored)).not.toContain(FCM_TOKEN);
  const state = await devicesState(me);
  expect(state[String(phone)]).toEqual({
    push_key_id: 2408,
    push_token_id: tokenIdOf(FCM_TOKEN),
    pending_push_token_id: null,
    push_token_last_updated_timestamp: expect.any(Number),
    push_registration_error_code: null,
  });
  expect(state[String(tablet)]).toMatchObject({ push_key_id: 4294967295, push_token_id: apnsTokenId, pending_push_token_id: null });
  // The same registration again changes nothing and reaches the service no more.
  const events = captureEvents(ts);
  try {
    assertSuccess(await client(ts, me).post('/mobile_push/register', params(phone)));
    await ts.server.notifications.runNow();
    expect(events.ofType('device')).toEqual([]);
  } finally {
    events.stop();
  }
  expect(registrationsOf(tokenIdOf(FCM_TOKEN)).length).toBeGreaterThanOrEqual(1);
  expect(bouncer.violations).toEqual([]);
});

test('parameters: the device, the groups of fields, their types', async () => {
  const me = await makeUser(ts, 400);
  const id = await newDevice(ts, me);
  const other = await newDevice(ts, alice);
  assertError(await client(ts, me).post('/mobile_push/register', params(other)), 'BAD_REQUEST', 'Invalid `device_id`');
  assertError(await client(ts, me).post('/mobile_push/register', params(999999)), 'BAD_REQUEST', 'Invalid `device_id`');
  assertError(await client(ts, me).post('/mobile_push/register', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'device_id' argument");
  const missing = 'Missing parameters: must provide either all push key fields, all token fields, or both.';
  assertError(await client(ts, me).post('/mobile_push/register', { device_id: id }), 'BAD_REQUEST', missing);
  const { push_key_id: _a, token_id: _b, ...partial } = params(id);
  assertError(await client(ts, me).post('/mobile_push/register', partial), 'BAD_REQUEST', missing);
  assertError(await client(ts, me).post('/mobile_push/register', params(id, { token_kind: 'gcm' })), 'BAD_REQUEST', 'Invalid token_kind');
  assertError(await client(ts, me).post('/mobile_push/register', params(id, { device_id: 'x1' })), 'INVALID_JSON', 'Argument "device_id" is not valid JSON.');
  for (const keyId of [-1, 4294967296]) {
    assertError(
      await client(ts, me).post('/mobile_push/register', params(id, { push_key_id: keyId })),
      'BAD_REQUEST',
      'Invalid push_key_id: Value error, Not a valid unsigned 32-bit integer',
    );
  }
  assertError(await client(ts, me).post('/mobile_push/register', params(id, { token_id: '@abcdefg' })), 'BAD_REQUEST', '`token_id` is not Base64 encoded');
  assertError(await client(ts, me).post('/mobile_push/register', params(id, { token_id: 'AAAA' })), 'BAD_REQUEST', 'Invalid `token_id`');
  // Rotating needs a registration to rotate.
  assertError(
    await client(ts, me).post('/mobile_push/register', { device_id: id, push_key: clientKey, push_key_id: 1 }),
    'BAD_REQUEST',
    'No push registration exists to rotate key for.',
  );
  const { push_key: _c, push_key_id: _d, ...tokenOnly } = params(id);
  assertError(await client(ts, me).post('/mobile_push/register', tokenOnly), 'BAD_REQUEST', 'No push registration exists to rotate token for.');
  expect(await row(id)).toMatchObject({ push_key: null, push_key_id: null, pending_push_token_id: null });
});

test('the push key must be base64 of the secretbox tag and a 32-byte key', async () => {
  const me = await makeUser(ts, 400);
  const id = await newDevice(ts, me);
  const wrongTag = newPushKey();
  wrongTag[0] = 0x32;
  for (const key of ['not base64!', b64(new Uint8Array(16)), b64(newPushKey().subarray(1)), b64(wrongTag), 'AAAA', '']) {
    assertError(await client(ts, me).post('/mobile_push/register', params(id, { push_key: key })), 'BAD_REQUEST', 'Invalid `push_key`');
  }
  expect((await row(id)).push_key).toBeNull();
});

describe('the service refusing the registration', () => {
  async function refused(extra: Record<string, unknown>, errorCode: string) {
    const me = await makeUser(ts, 400);
    const id = await newDevice(ts, me);
    assertSuccess(await client(ts, me).post('/mobile_push/register', params(id, extra)));
    await settled(id);
    expect((await devicesState(me))[String(id)]).toMatchObject({ push_token_id: null, push_registration_error_code: errorCode });
    // Not retried: a worker pass now, which forwards every registration due, leaves it alone.
    await ts.server.notifications.runNow();
    const stored = await row(id);
    expect([stored.push_token_id, stored.register_due_at, stored.encrypted_push_registration]).toEqual([null, null, null]);
    return { me, id };
  }

  test('sealed for another key', async () => {
    const other = sodium.crypto_box_keypair();
    await refused({ bouncer_public_key: b64(other.publicKey) }, 'INVALID_BOUNCER_PUBLIC_KEY');
    await refused(
      { encrypted_push_registration: b64(sodium.crypto_box_seal(Buffer.from(JSON.stringify(fcmRegistration())), other.publicKey)) },
      'INVALID_ENCRYPTED_PUSH_REGISTRATION',
    );
  });

  test('undecryptable, malformed, or not the token named', async () => {
    await refused({ encrypted_push_registration: 'not-base64' }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION');
    await refused({ encrypted_push_registration: seal('not json') }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION');
    await refused({ token_kind: 'apns', encrypted_push_registration: seal(apnsRegistration({ token: 'not-hex' })) }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION');
    await refused({ token_id: tokenIdOf('another token') }, 'INVALID_ENCRYPTED_PUSH_REGISTRATION');
  });

  test('stale, then registered anew and accepted', async () => {
    const { me, id } = await refused({ encrypted_push_registration: seal(fcmRegistration({ timestamp: now() - 86401 - 5 })) }, 'REQUEST_EXPIRED');
    assertSuccess(await client(ts, me).post('/mobile_push/register', params(id)));
    await settled(id);
    expect((await devicesState(me))[String(id)]).toMatchObject({ push_token_id: tokenIdOf(FCM_TOKEN), push_registration_error_code: null });
  });
});

describe('the service failing', () => {
  test('a 5xx answer is retried until the service takes the registration; meanwhile another is refused', async () => {
    const me = await makeUser(ts, 400);
    const id = await newDevice(ts, me);
    const tokenId = tokenIdOf('retried-token');
    bouncer.failWith.push(500, 503);
    const body = params(id, { token_id: tokenId, encrypted_push_registration: seal(fcmRegistration({ token: 'retried-token' })) });
    assertSuccess(await client(ts, me).post('/mobile_push/register', body));
    assertError(await client(ts, me).post('/mobile_push/register', body), 'BAD_REQUEST', 'A registration for the device already in progress.');
    await settled(id);
    expect(registrationsOf(tokenId)).toHaveLength(3);
    expect((await devicesState(me))[String(id)]).toMatchObject({ push_token_id: tokenId, pending_push_token_id: null });
  });

  test("a refusal of this server's credentials is retried too (its operator's to fix)", async () => {
    const me = await makeUser(ts, 400);
    const id = await newDevice(ts, me);
    const tokenId = tokenIdOf('credentials-token');
    bouncer.failWith.push({ status: 401, code: 'INVALID_ZULIP_SERVER', msg: 'Zulip server auth failure: key does not match role' });
    const body = params(id, { token_id: tokenId, encrypted_push_registration: seal(fcmRegistration({ token: 'credentials-token' })) });
    assertSuccess(await client(ts, me).post('/mobile_push/register', body));
    await settled(id);
    expect(registrationsOf(tokenId)).toHaveLength(2);
  });

  test('an unreachable service leaves the token pending, then fails it once the registration is too old', async () => {
    const gone = await startBouncer();
    await gone.close();
    const offline = await startTestServer(pushServiceEnv(await serviceKeys(), gone.url));
    try {
      const me = await makeUser(offline, 400);
      const id = await newDevice(offline, me);
      const knex = offline.server.deps.knex;
      assertSuccess(await client(offline, me).post('/mobile_push/register', params(id)));
      await waitUntil(async () => (await row(id, offline))?.register_attempts >= 2, 20_000);
      expect((await devicesState(me, offline))[String(id)]).toMatchObject({ pending_push_token_id: tokenIdOf(FCM_TOKEN), push_token_id: null });
      // A day later the service would refuse the registration anyway.
      await knex('client_devices')
        .where({ id })
        .update({ push_token_updated_at: new Date(Date.now() - 86_400_000 - 1000), register_due_at: new Date() });
      await offline.server.notifications.runNow();
      await waitUntil(async () => (await row(id, offline))?.push_registration_error_code !== null, 20_000);
      expect((await devicesState(me, offline))[String(id)]).toMatchObject({ push_registration_error_code: 'REQUEST_EXPIRED' });
    } finally {
      await offline.close();
    }
  });
});

test('bots cannot register push devices', async () => {
  const bot = await makeUser(ts, 400);
  await ts.server.deps.knex('users').where('id', bot.id).update({ is_bot: true, bot_type: 1 });
  assertError(await client(ts, bot).post('/mobile_push/register', params(1)), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
});

test('the server holds no key of the service: only its URL and registration', () => {
  const config = loadConfig({ PORT: '0' });
  expect(config.pushService).toBeNull();
  expect(Object.keys(config)).not.toContain('pushBouncer');
});

describe('GraphQL', () => {
  const mutation = `mutation($device: Int!, $kind: String, $tokenId: String, $keyId: SafeInt, $key: String, $bouncer: String, $sealed: String) {
    registerPushDevice(deviceId: $device, tokenKind: $kind, tokenId: $tokenId, pushKeyId: $keyId, pushKey: $key, bouncerPublicKey: $bouncer, encryptedPushRegistration: $sealed) {
      deviceId pushKeyId pushTokenId pendingPushTokenId pushRegistrationErrorCode
    }
  }`;
  test('registers through the same checks', async () => {
    const me = await makeUser(ts, 400);
    const id = await newDevice(ts, me);
    const tokenId = tokenIdOf('graphql-token');
    const vars = {
      device: id,
      kind: 'fcm',
      tokenId,
      keyId: 9,
      key: clientKey,
      bouncer: b64(bouncer.publicKey),
      sealed: seal(fcmRegistration({ token: 'graphql-token' })),
    };
    expect((await graphql(ts, me, mutation, vars)).data).toEqual({
      registerPushDevice: { deviceId: id, pushKeyId: 9, pushTokenId: null, pendingPushTokenId: tokenId, pushRegistrationErrorCode: null },
    });
    await settled(id);
    expect((await row(id)).push_token_id).toBe(tokenId);
    expect(graphqlError(await graphql(ts, me, mutation, { ...vars, kind: 'gcm' }))).toEqual({ code: 'BAD_REQUEST', message: 'Invalid token_kind' });
    expect(graphqlError(await graphql(ts, me, mutation, { ...vars, key: 'AAAA' }))).toEqual({ code: 'BAD_REQUEST', message: 'Invalid `push_key`' });
    const other = await makeUser(unconfigured, 400);
    expect(graphqlError(await graphql(unconfigured, other, mutation, vars)).code).toBe('PUSH_SERVICE_NOT_CONFIGURED');
  });
});
