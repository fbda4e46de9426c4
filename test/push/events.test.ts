import sodium from 'libsodium-wrappers';
import { assertSuccess, client } from '../helpers/api';
import { verifyActionFor, withoutIds } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, startBouncer, tokenIdOf } from '../notifications/bouncer';
import { b64, newPushKey, pushServiceEnv, sealRegistration, serviceKeys } from '../notifications/helpers';

// A client device belongs to one account: every client of that account hears of its push
// registration (`device` update events), nobody else. The request makes the token pending; the
// service's answer, after commit, makes it the device's registered token, or leaves its error code.
let bouncer: Bouncer;
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  await sodium.ready;
  bouncer = await startBouncer();
  ts = await startTestServer(pushServiceEnv(await serviceKeys(), bouncer.url));
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  admin = await makeUser(ts, 200);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await bouncer?.close();
}, SERVER_HOOK_TIMEOUT);

const now = () => Math.floor(Date.now() / 1000);
const newDevice = async () => assertSuccess(await client(ts, alice).post('/register_client_device')).device_id as number;
const params = (deviceId: number, registration: Record<string, any>, extra: Record<string, unknown> = {}) => ({
  device_id: deviceId,
  push_key: b64(newPushKey()),
  push_key_id: 7,
  token_kind: registration.token_kind,
  token_id: tokenIdOf(registration.token),
  bouncer_public_key: b64(bouncer.publicKey),
  encrypted_push_registration: sealRegistration(bouncer, registration),
  ...extra,
});
const fcm = (token = 'fcm-token-abc:123') => ({ token, token_kind: 'fcm', timestamp: now() });
const apns = () => ({ token: 'c0ffee00deadbeef', token_kind: 'apns', ios_app_id: 'org.example.chat', timestamp: now() });

/** Registers, and waits until the service has answered. */
function register(deviceId: number, body: Record<string, unknown>) {
  return async () => {
    assertSuccess(await client(ts, alice).post('/mobile_push/register', body));
    await waitUntil(async () => (await ts.server.deps.knex('client_devices').where({ id: deviceId }).first()).register_due_at === null);
  };
}

async function watch(action: () => Promise<unknown>) {
  const [mine, again, other, administrator] = await verifyActionFor(ts, [alice, alice, bob, admin], action as never, { fetchEventTypes: ['device'] });
  expect(withoutIds(again)).toEqual(withoutIds(mine));
  expect(other).toEqual([]);
  expect(administrator).toEqual([]);
  return withoutIds(mine);
}

const pending = (deviceId: number, tokenId: string, extra: Record<string, unknown> = { push_key_id: 7 }) => ({
  type: 'device',
  op: 'update',
  device_id: deviceId,
  ...extra,
  pending_push_token_id: tokenId,
  push_token_last_updated_timestamp: expect.any(Number),
  push_registration_error_code: null,
});
const registered = (deviceId: number, tokenId: string) => ({
  type: 'device',
  op: 'update',
  device_id: deviceId,
  push_token_id: tokenId,
  pending_push_token_id: null,
});

test('registering an Android device', async () => {
  const id = await newDevice();
  const tokenId = tokenIdOf(fcm().token);
  expect(await watch(register(id, params(id, fcm())))).toEqual([pending(id, tokenId), registered(id, tokenId)]);
});

test('registering an iOS device', async () => {
  const id = await newDevice();
  const tokenId = tokenIdOf(apns().token);
  expect(await watch(register(id, params(id, apns())))).toEqual([pending(id, tokenId), registered(id, tokenId)]);
});

test('a registration the service refuses, then registered again', async () => {
  const id = await newDevice();
  const tokenId = tokenIdOf(fcm().token);
  const other = sodium.crypto_box_keypair();
  expect(await watch(register(id, params(id, fcm(), { bouncer_public_key: b64(other.publicKey) })))).toEqual([
    pending(id, tokenId),
    { type: 'device', op: 'update', device_id: id, push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY' },
  ]);
  expect(await watch(register(id, params(id, fcm())))).toEqual([pending(id, tokenId), registered(id, tokenId)]);
});

test('rotating the token, then the key; repeating either changes nothing', async () => {
  const id = await newDevice();
  const first = params(id, fcm('fcm-token-first'));
  await register(id, first)();
  const rotated = fcm('fcm-token-rotated');
  const { push_key: _key, push_key_id: _keyId, ...tokenOnly } = params(id, rotated);
  const tokenId = tokenIdOf(rotated.token);
  expect(await watch(register(id, tokenOnly))).toEqual([pending(id, tokenId, {}), registered(id, tokenId)]);
  expect(await watch(register(id, tokenOnly))).toEqual([]);
  const key = { device_id: id, push_key: b64(newPushKey()), push_key_id: 8 };
  expect(await watch(() => client(ts, alice).post('/mobile_push/register', key))).toEqual([{ type: 'device', op: 'update', device_id: id, push_key_id: 8 }]);
  expect(await watch(() => client(ts, alice).post('/mobile_push/register', key))).toEqual([]);
});

test('a full register stays in step too', async () => {
  const id = await newDevice();
  await verifyActionFor(ts, [alice], register(id, params(id, fcm('fcm-token-full'))));
});

test('only the fetched slices: a client that asked for nothing about devices still stays in step', async () => {
  const id = await newDevice();
  await verifyActionFor(ts, [alice], register(id, params(id, fcm('fcm-token-other'))), { fetchEventTypes: ['realm_user'] });
});
