import sodium from 'libsodium-wrappers';
import { assertError, assertSuccess, client } from '../helpers/api';
import { getEvents } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, startBouncer, tokenIdOf } from '../notifications/bouncer';
import { b64, newPushKey, pushServiceEnv, sealRegistration, serviceKeys } from '../notifications/helpers';

// Zulip's API changelog, feature levels 481 (idle_queue_timeout on POST /register) and 483 (an
// E2EE push registration removes the user's legacy registrations of the same token), each
// checked through the API.
jest.setTimeout(120_000);

let ts: TestServer;
let bouncer: Bouncer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  await sodium.ready;
  bouncer = await startBouncer();
  ts = await startTestServer(pushServiceEnv(await serviceKeys(), bouncer.url));
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await bouncer?.close();
}, SERVER_HOOK_TIMEOUT);

const register = async (who: TestUser, params: Record<string, unknown>) =>
  assertSuccess(await client(ts, who).post('/register', { fetch_event_types: [], ...params }));

const queues = () => ts.server.deps.realtime!.queues;
const queueIdsOf = async (who: TestUser) => (await queues().store.queueIdsForUsers(ts.server.deps.realmId, [who.id])).flat().sort();

describe('481: idle_queue_timeout', () => {
  test('the response tells the queue’s idle lifetime: the default, seconds asked for, "mobile", capped at a week', async () => {
    expect((await register(alice, {})).idle_queue_timeout_secs).toBe(600);
    expect((await register(alice, { idle_queue_timeout: 90 })).idle_queue_timeout_secs).toBe(90);
    // zulip-flutter sends the JSON string "mobile"; a bare mobile is taken too.
    expect((await register(alice, { idle_queue_timeout: JSON.stringify('mobile') })).idle_queue_timeout_secs).toBe(12 * 3600);
    expect((await register(alice, { idle_queue_timeout: 'mobile' })).idle_queue_timeout_secs).toBe(12 * 3600);
    expect((await register(alice, { idle_queue_timeout: 10 ** 9 })).idle_queue_timeout_secs).toBe(7 * 24 * 3600);
    // It replaces the older queue_lifespan_secs, and wins when both are sent.
    expect((await register(alice, { queue_lifespan_secs: 300 })).idle_queue_timeout_secs).toBe(300);
    expect((await register(alice, { queue_lifespan_secs: 300, idle_queue_timeout: 120 })).idle_queue_timeout_secs).toBe(120);
    const body = await register(alice, { idle_queue_timeout: 45 });
    expect(body).not.toHaveProperty('ignored_parameters_unsupported');
    expect((await queues().store.descriptor(body.queue_id))!.timeoutSecs).toBe(45);
  });

  test('a queue idle past its own timeout is collected and then a bad queue id; one with the default outlives it', async () => {
    const short = await register(bob, { idle_queue_timeout: 5 });
    const usual = await register(bob, {});
    const mobile = await register(bob, { idle_queue_timeout: '"mobile"' });
    expect(await getEvents(ts, bob, short.queue_id, -1, { dontBlock: true })).toEqual([]);
    // The collector's sweep as it would run 4 s from now: the queue was used just now, it stays.
    expect(await queues().collectGarbage(Date.now() + 4_000)).not.toContain(short.queue_id);
    // And 6 s from now: past its 5 s, it is collected; the others are not.
    const collected = await queues().collectGarbage(Date.now() + 6_000);
    expect(collected).toContain(short.queue_id);
    expect(collected).not.toContain(usual.queue_id);
    expect(collected).not.toContain(mobile.queue_id);
    const body = assertError(
      await client(ts, bob).get('/events', { queue_id: short.queue_id, last_event_id: -1, dont_block: true }),
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${short.queue_id}`,
    );
    expect(body.queue_id).toBe(short.queue_id);
    expect(await getEvents(ts, bob, usual.queue_id, -1, { dontBlock: true })).toEqual([]);
    // Past the default ten minutes, the default queue goes too, the "mobile" one (12 hours) stays.
    const later = await queues().collectGarbage(Date.now() + 601_000);
    expect(later).toContain(usual.queue_id);
    expect(later).not.toContain(mobile.queue_id);
    expect(await getEvents(ts, bob, mobile.queue_id, -1, { dontBlock: true })).toEqual([]);
  });

  test.each([
    [0, 'BAD_REQUEST', 'Invalid idle_queue_timeout'],
    [-30, 'BAD_REQUEST', 'Invalid idle_queue_timeout'],
    [1.5, 'BAD_REQUEST', 'Invalid idle_queue_timeout'],
    [true, 'BAD_REQUEST', 'Invalid idle_queue_timeout'],
    ['"desktop"', 'BAD_REQUEST', 'Invalid idle_queue_timeout'],
    ['[600]', 'BAD_REQUEST', 'Invalid idle_queue_timeout'],
    ['ten minutes', 'INVALID_JSON', 'Argument "idle_queue_timeout" is not valid JSON.'],
  ])('%j is refused, and no queue is made', async (value, code, msg) => {
    const before = await queueIdsOf(alice);
    assertError(await client(ts, alice).post('/register', { idle_queue_timeout: value }), code, msg);
    expect(await queueIdsOf(alice)).toEqual(before);
  });
});

/** POST /mobile_push/register of a new client device with this token; the device's id. */
async function registerE2ee(who: TestUser, kind: 'fcm' | 'apns', token: string, sealedToken = token): Promise<number> {
  const deviceId = assertSuccess(await client(ts, who).post('/register_client_device')).device_id as number;
  assertSuccess(
    await client(ts, who).post('/mobile_push/register', {
      device_id: deviceId,
      push_key: b64(newPushKey()),
      push_key_id: 7,
      token_kind: kind,
      token_id: tokenIdOf(token),
      bouncer_public_key: b64(bouncer.publicKey),
      encrypted_push_registration: sealRegistration(bouncer, {
        token: sealedToken,
        token_kind: kind,
        timestamp: Math.floor(Date.now() / 1000),
        ...(kind === 'apns' ? { ios_app_id: 'org.zulip.Zulip' } : {}),
      }),
    }),
  );
  return deviceId;
}

const device = async (id: number) => ts.server.deps.knex('client_devices').where({ id }).first();

/** The token kinds (1 APNs, 2 FCM) a legacy test notification naming this token reached, through the service. */
async function legacyKindsReached(who: TestUser, token: string): Promise<number[]> {
  const seen = bouncer.requests.length;
  const res = await client(ts, who).post('/mobile_push/test_notification', { token });
  if (res.status !== 200) return assertError(res, 'INVALID_PUSH_DEVICE_TOKEN', 'Device not recognized') && [];
  return bouncer.requests
    .slice(seen)
    .filter((r) => r.path === '/api/v1/remotes/push/test_notification')
    .map((r) => Number(r.body.token_kind))
    .sort();
}

const serviceHas = (who: TestUser, token: string, kind: number) =>
  bouncer.tokens.some((t) => t.userId === String(who.id) && t.token === token && t.tokenKind === kind);

describe('483: a successful E2EE registration removes the legacy registrations of its token', () => {
  test('the same token of the same kind goes, locally and at the service; other kinds, tokens and users stay', async () => {
    // Hex, so that it is also a valid APNs token.
    const token = 'a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const other = 'fcm-token-still-legacy';
    assertSuccess(await client(ts, alice).post('/users/me/android_gcm_reg_id', { token }));
    assertSuccess(await client(ts, alice).post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' }));
    assertSuccess(await client(ts, alice).post('/users/me/android_gcm_reg_id', { token: other }));
    assertSuccess(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token }));
    expect(await legacyKindsReached(alice, token)).toEqual([1, 2]);
    expect(serviceHas(alice, token, 2)).toBe(true);

    const deviceId = await registerE2ee(alice, 'fcm', token);
    await waitUntil(async () => (await device(deviceId)).push_token_id === tokenIdOf(token));
    // Unregistered at the service after the registration committed.
    await waitUntil(() => !serviceHas(alice, token, 2));
    const unregister = bouncer.requests.filter((r) => r.path === '/api/v1/remotes/push/unregister' && r.body.token === token);
    expect(unregister.map((r) => [r.body.user_id, Number(r.body.token_kind)])).toEqual([[String(alice.id), 2]]);

    // Alice's legacy FCM registration of the token is gone; her APNs one and her other token stay.
    expect(await legacyKindsReached(alice, token)).toEqual([1]);
    expect(await legacyKindsReached(alice, other)).toEqual([2]);
    expect(serviceHas(alice, token, 1)).toBe(true);
    // Bob's registration of the same token is his own.
    expect(await legacyKindsReached(bob, token)).toEqual([2]);
    expect(serviceHas(bob, token, 2)).toBe(true);
    expect(bouncer.violations).toEqual([]);
  });

  test('a registration the service refuses removes nothing', async () => {
    const token = 'fcm-token-refused-registration';
    assertSuccess(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token }));
    // The sealed token is not the one token_id names: the service refuses the registration.
    const deviceId = await registerE2ee(bob, 'fcm', token, 'some-other-token');
    await waitUntil(async () => (await device(deviceId)).push_registration_error_code !== null);
    expect((await device(deviceId)).push_registration_error_code).toBe('INVALID_ENCRYPTED_PUSH_REGISTRATION');
    expect(await legacyKindsReached(bob, token)).toEqual([2]);
    expect(serviceHas(bob, token, 2)).toBe(true);
  });

  test('an E2EE registration of an APNs token leaves the legacy FCM registration of the same string', async () => {
    const token = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
    assertSuccess(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token }));
    assertSuccess(await client(ts, bob).post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' }));
    const deviceId = await registerE2ee(bob, 'apns', token);
    await waitUntil(async () => (await device(deviceId)).push_token_id === tokenIdOf(token));
    await waitUntil(() => !serviceHas(bob, token, 1));
    expect(await legacyKindsReached(bob, token)).toEqual([2]);
  });
});
