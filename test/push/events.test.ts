import sodium from 'libsodium-wrappers';
import { client } from '../helpers/api';
import { verifyActionFor, withoutIds } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, startBouncer } from '../notifications/bouncer';
import { b64, newPushKey, pushServiceEnv, sealRegistration, serviceKeys } from '../notifications/helpers';

// A push device belongs to one account: every client of that account hears of it, nobody else.
// The request makes it pending; the service's answer, after commit, makes it active or failed.
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
const params = (pushAccountId: number, registration: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  token_kind: registration.token_kind,
  push_account_id: pushAccountId,
  push_key: b64(newPushKey()),
  bouncer_public_key: b64(bouncer.publicKey),
  encrypted_push_registration: sealRegistration(bouncer, registration),
  ...extra,
});
const fcm = () => ({ token: 'fcm-token-abc:123', token_kind: 'fcm', timestamp: now() });
const apns = () => ({ token: 'c0ffee00deadbeef', token_kind: 'apns', ios_app_id: 'org.example.chat', timestamp: now() });

/** Registers, and waits until the service has answered. */
function register(pushAccountId: number, body: Record<string, unknown>) {
  return async () => {
    await client(ts, alice).post('/mobile_push/register', body);
    await waitUntil(async () => {
      const row = await ts.server.deps.knex('push_devices').where({ user_id: alice.id, push_account_id: pushAccountId }).first();
      return row !== undefined && row.register_due_at === null;
    });
  };
}

async function watch(action: () => Promise<unknown>) {
  const [mine, again, other, administrator] = await verifyActionFor(ts, [alice, alice, bob, admin], action as never, { fetchEventTypes: ['push_device'] });
  expect(withoutIds(again)).toEqual(withoutIds(mine));
  expect(other).toEqual([]);
  expect(administrator).toEqual([]);
  return withoutIds(mine);
}

test('registering an Android device', async () => {
  expect(await watch(register(1111, params(1111, fcm())))).toEqual([
    { type: 'push_device', push_account_id: '1111', status: 'pending' },
    { type: 'push_device', push_account_id: '1111', status: 'active' },
  ]);
});

test('registering an iOS device', async () => {
  expect(await watch(register(2222, params(2222, apns())))).toEqual([
    { type: 'push_device', push_account_id: '2222', status: 'pending' },
    { type: 'push_device', push_account_id: '2222', status: 'active' },
  ]);
});

test('a registration the service refuses', async () => {
  const other = sodium.crypto_box_keypair();
  expect(await watch(register(3333, params(3333, fcm(), { bouncer_public_key: b64(other.publicKey) })))).toEqual([
    { type: 'push_device', push_account_id: '3333', status: 'pending' },
    { type: 'push_device', push_account_id: '3333', status: 'failed', error_code: 'INVALID_BOUNCER_PUBLIC_KEY' },
  ]);
  // Registered again, with the right key.
  expect(await watch(register(3333, params(3333, fcm())))).toEqual([
    { type: 'push_device', push_account_id: '3333', status: 'pending' },
    { type: 'push_device', push_account_id: '3333', status: 'active' },
  ]);
});

test('registering an active push account again: no change, no event', async () => {
  const [mine] = await verifyActionFor(ts, [alice], register(1111, params(1111, { ...fcm(), token: 'fcm-token-new:456' })), {
    fetchEventTypes: ['push_device'],
  });
  expect(mine).toEqual([]);
});

test('a full register stays in step too', async () => {
  await verifyActionFor(ts, [alice], register(4444, params(4444, fcm())));
});

test('only the fetched slices: a client that asked for nothing about push still stays in step', async () => {
  await verifyActionFor(ts, [alice], register(5555, params(5555, fcm())), { fetchEventTypes: ['realm_user'] });
});
