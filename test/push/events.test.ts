import sodium from 'libsodium-wrappers';
import { client } from '../helpers/api';
import { verifyActionFor, withoutIds } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';

// A push device belongs to one account: every client of that account hears of it, nobody else.
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

let bouncer: { publicKey: Uint8Array; privateKey: Uint8Array };
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  await sodium.ready;
  bouncer = sodium.crypto_box_keypair();
  ts = await startTestServer({
    PARLEY_PUSH_BOUNCER_PUBLIC_KEY: b64(bouncer.publicKey),
    PARLEY_PUSH_BOUNCER_SECRET_KEY: b64(bouncer.privateKey),
  });
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  admin = await makeUser(ts, 200);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const now = () => Math.floor(Date.now() / 1000);
const seal = (registration: unknown) => b64(sodium.crypto_box_seal(Buffer.from(JSON.stringify(registration)), bouncer.publicKey));
const params = (pushAccountId: number, registration: Record<string, unknown>) => ({
  token_kind: registration.token_kind,
  push_account_id: pushAccountId,
  push_public_key: b64(sodium.crypto_box_keypair().publicKey),
  bouncer_public_key: b64(bouncer.publicKey),
  encrypted_push_registration: seal(registration),
});
const fcm = () => ({ token: 'fcm-token-abc:123', token_kind: 'fcm', timestamp: now() });
const apns = () => ({ token: 'c0ffee00deadbeef', token_kind: 'apns', ios_app_id: 'org.example.chat', timestamp: now() });

async function watch(action: () => Promise<unknown>) {
  const [mine, again, other, administrator] = await verifyActionFor(ts, [alice, alice, bob, admin], action as never);
  expect(withoutIds(again)).toEqual(withoutIds(mine));
  expect(other).toEqual([]);
  expect(administrator).toEqual([]);
  return withoutIds(mine);
}

test('registering an Android device', async () => {
  expect(await watch(() => client(ts, alice).post('/mobile_push/register', params(1111, fcm())))).toEqual([
    { type: 'push_device', push_account_id: '1111', status: 'active' },
  ]);
});

test('registering an iOS device', async () => {
  expect(await watch(() => client(ts, alice).post('/mobile_push/register', params(2222, apns())))).toEqual([
    { type: 'push_device', push_account_id: '2222', status: 'active' },
  ]);
});

test('registering the same push account again, with a new token', async () => {
  expect(await watch(() => client(ts, alice).post('/mobile_push/register', params(1111, { ...fcm(), token: 'fcm-token-new:456' })))).toEqual([
    { type: 'push_device', push_account_id: '1111', status: 'active' },
  ]);
});

test('only the fetched slices: a client that asked for nothing about push still stays in step', async () => {
  await verifyActionFor(ts, [alice], () => client(ts, alice).post('/mobile_push/register', params(3333, fcm())), { fetchEventTypes: ['realm_user'] });
});
