import sodium from 'libsodium-wrappers';
import { loadConfig, ConfigError } from '../../src/config';
import { PushDevice } from '../../src/core/push/model';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let bouncer: { publicKey: Uint8Array; privateKey: Uint8Array };
let ts: TestServer;
let unconfigured: TestServer;
let alice: TestUser;
let clientKey: string;

beforeAll(async () => {
  await sodium.ready;
  bouncer = sodium.crypto_box_keypair();
  clientKey = b64(sodium.crypto_box_keypair().publicKey);
  ts = await startTestServer({
    PARLEY_PUSH_BOUNCER_PUBLIC_KEY: b64(bouncer.publicKey),
    PARLEY_PUSH_BOUNCER_SECRET_KEY: b64(bouncer.privateKey),
  });
  unconfigured = await startTestServer();
  alice = await makeUser(ts, 400);
}, 120_000);
afterAll(async () => {
  await ts.close();
  await unconfigured.close();
});

const now = () => Math.floor(Date.now() / 1000);
const seal = (registration: unknown, key: Uint8Array = bouncer.publicKey) =>
  b64(sodium.crypto_box_seal(Buffer.from(typeof registration === 'string' ? registration : JSON.stringify(registration)), key));

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
  push_public_key: clientKey,
  bouncer_public_key: b64(bouncer.publicKey),
  encrypted_push_registration: seal(fcmRegistration()),
  ...extra,
});

const devices = (userId: number) => PushDevice.query(ts.server.deps.knex).where('user_id', userId).orderBy('push_account_id');

test('without push configuration the service is refused', async () => {
  const user = await makeUser(unconfigured, 400);
  assertError(
    await client(unconfigured, user).post('/mobile_push/register', params()),
    'PUSH_SERVICE_NOT_CONFIGURED',
    'Server is not configured to use push notification service.',
  );
});

test('registers an FCM device and an APNs device, with an event to the user', async () => {
  const me = await makeUser(ts, 400);
  const events = captureEvents(ts);
  try {
    assertSuccess(await client(ts, me).post('/mobile_push/register', params({ push_account_id: 1 })));
    assertSuccess(
      await client(ts, me).post(
        '/mobile_push/register',
        params({ push_account_id: 2, token_kind: 'apns', encrypted_push_registration: seal(apnsRegistration()) }),
      ),
    );
    expect(events.ofType('push_device')).toEqual([
      { event: { type: 'push_device', push_account_id: '1', status: 'active' }, userIds: [me.id] },
      { event: { type: 'push_device', push_account_id: '2', status: 'active' }, userIds: [me.id] },
    ]);
  } finally {
    events.stop();
  }
  const stored = await devices(me.id);
  expect(stored.map((d) => [d.push_account_id, d.token_kind, d.token, d.ios_app_id, d.push_public_key])).toEqual([
    [1, 'fcm', 'fcm-token-abc:123', null, clientKey],
    [2, 'apns', 'c0ffee00deadbeef', 'org.example.chat', clientKey],
  ]);
});

test('registering the same push account again replaces the device', async () => {
  const me = await makeUser(ts, 400);
  assertSuccess(await client(ts, me).post('/mobile_push/register', params()));
  const newKey = b64(sodium.crypto_box_keypair().publicKey);
  assertSuccess(
    await client(ts, me).post(
      '/mobile_push/register',
      params({ push_public_key: newKey, encrypted_push_registration: seal(fcmRegistration({ token: 'rotated' })) }),
    ),
  );
  const stored = await devices(me.id);
  expect(stored.map((d) => [d.push_account_id, d.token, d.push_public_key])).toEqual([[4242, 'rotated', newKey]]);
  // Another user may use the same push account id.
  assertSuccess(await client(ts, alice).post('/mobile_push/register', params()));
  expect(await devices(me.id)).toHaveLength(1);
});

test('parameters are required and typed', async () => {
  for (const name of ['token_kind', 'push_account_id', 'push_public_key', 'bouncer_public_key', 'encrypted_push_registration']) {
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

test('the client public key must be base64 of a NaCl public key', async () => {
  for (const key of ['not base64!', b64(new Uint8Array(16)), 'AAAA', '']) {
    assertError(await client(ts, alice).post('/mobile_push/register', params({ push_public_key: key })), 'BAD_REQUEST', 'Invalid push_public_key');
  }
});

test('a registration sealed for another bouncer key is refused', async () => {
  const other = sodium.crypto_box_keypair();
  assertError(
    await client(ts, alice).post('/mobile_push/register', params({ bouncer_public_key: b64(other.publicKey) })),
    'INVALID_BOUNCER_PUBLIC_KEY',
    'Invalid bouncer_public_key',
  );
  assertError(
    await client(ts, alice).post('/mobile_push/register', params({ bouncer_public_key: 'zzz' })),
    'INVALID_BOUNCER_PUBLIC_KEY',
    'Invalid bouncer_public_key',
  );
  assertError(
    await client(ts, alice).post('/mobile_push/register', params({ encrypted_push_registration: seal(fcmRegistration(), other.publicKey) })),
    'INVALID_ENCRYPTED_PUSH_REGISTRATION',
    'Invalid encrypted_push_registration',
  );
});

test('undecryptable or malformed registrations are refused', async () => {
  const me = await makeUser(ts, 400);
  const invalid = async (encrypted: string, tokenKind = 'fcm') =>
    assertError(
      await client(ts, me).post('/mobile_push/register', params({ encrypted_push_registration: encrypted, token_kind: tokenKind })),
      'INVALID_ENCRYPTED_PUSH_REGISTRATION',
      'Invalid encrypted_push_registration',
    );
  await invalid('not-base64');
  await invalid(b64(new Uint8Array(80)));
  await invalid(seal('not json'));
  await invalid(seal([1, 2]));
  await invalid(seal(fcmRegistration({ token: '' })));
  await invalid(seal(fcmRegistration({ token: 'x'.repeat(4097) })));
  await invalid(seal(fcmRegistration({ timestamp: 'now' })));
  await invalid(seal({ token: 'abc', token_kind: 'fcm' }));
  await invalid(seal(fcmRegistration({ token_kind: 'gcm' })));
  // The sealed token kind must match the parameter.
  await invalid(seal(fcmRegistration()), 'apns');
  // APNs needs an app id and a hex token; FCM must not name an app.
  await invalid(seal(apnsRegistration({ ios_app_id: undefined })), 'apns');
  await invalid(seal(apnsRegistration({ token: 'not-hex' })), 'apns');
  await invalid(seal(apnsRegistration({ ios_app_id: 'bad id' })), 'apns');
  await invalid(seal(fcmRegistration({ ios_app_id: 'org.example.chat' })));
  expect(await devices(me.id)).toHaveLength(0);
});

test('a stale registration is refused; one just inside the window is accepted', async () => {
  const me = await makeUser(ts, 400);
  assertError(
    await client(ts, me).post('/mobile_push/register', params({ encrypted_push_registration: seal(fcmRegistration({ timestamp: now() - 86401 - 5 })) })),
    'REQUEST_EXPIRED',
    'Request expired',
  );
  expect(await devices(me.id)).toHaveLength(0);
  assertSuccess(
    await client(ts, me).post('/mobile_push/register', params({ encrypted_push_registration: seal(fcmRegistration({ timestamp: now() - 86400 + 60 })) })),
  );
  expect(await devices(me.id)).toHaveLength(1);
});

test('bots cannot register push devices', async () => {
  const bot = await makeUser(ts, 400);
  await ts.server.deps.knex('users').where('id', bot.id).update({ is_bot: true, bot_type: 1 });
  assertError(await client(ts, bot).post('/mobile_push/register', params()), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
});

describe('configuration', () => {
  const base = { PORT: '0' };
  test('the key pair must be complete, base64, 32 bytes and matching', () => {
    const pub = b64(bouncer.publicKey);
    const sec = b64(bouncer.privateKey);
    expect(loadConfig({ ...base }).pushBouncer).toBeNull();
    const keys = loadConfig({ ...base, PARLEY_PUSH_BOUNCER_PUBLIC_KEY: pub, PARLEY_PUSH_BOUNCER_SECRET_KEY: sec }).pushBouncer!;
    expect(Buffer.from(keys.publicKey).equals(Buffer.from(bouncer.publicKey))).toBe(true);
    expect(() => loadConfig({ ...base, PARLEY_PUSH_BOUNCER_PUBLIC_KEY: pub })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, PARLEY_PUSH_BOUNCER_PUBLIC_KEY: 'abc', PARLEY_PUSH_BOUNCER_SECRET_KEY: sec })).toThrow(/32-byte key in standard base64/);
    const other = b64(sodium.crypto_box_keypair().publicKey);
    expect(() => loadConfig({ ...base, PARLEY_PUSH_BOUNCER_PUBLIC_KEY: other, PARLEY_PUSH_BOUNCER_SECRET_KEY: sec })).toThrow(/not the public half/);
  });
});

describe('GraphQL', () => {
  const mutation = `mutation($kind: String!, $id: SafeInt!, $key: String!, $bouncer: String!, $sealed: String!) {
    registerPushDevice(tokenKind: $kind, pushAccountId: $id, pushPublicKey: $key, bouncerPublicKey: $bouncer, encryptedPushRegistration: $sealed) { tokenKind pushAccountId }
  }`;
  test('registers through the same checks', async () => {
    const me = await makeUser(ts, 400);
    const vars = { kind: 'fcm', id: 2 ** 40, key: clientKey, bouncer: b64(bouncer.publicKey), sealed: seal(fcmRegistration()) };
    expect((await graphql(ts, me, mutation, vars)).data).toEqual({ registerPushDevice: { tokenKind: 'fcm', pushAccountId: 2 ** 40 } });
    expect((await devices(me.id)).map((d) => d.push_account_id)).toEqual([2 ** 40]);
    expect(graphqlError(await graphql(ts, me, mutation, { ...vars, kind: 'gcm' }))).toEqual({ code: 'BAD_REQUEST', message: 'Invalid token_kind' });
    expect(graphqlError(await graphql(ts, me, mutation, { ...vars, sealed: seal(fcmRegistration({ timestamp: 5 })) }))).toEqual({
      code: 'REQUEST_EXPIRED',
      message: 'Request expired',
    });
    const other = await makeUser(unconfigured, 400);
    expect(graphqlError(await graphql(unconfigured, other, mutation, vars)).code).toBe('PUSH_SERVICE_NOT_CONFIGURED');
  });
});
