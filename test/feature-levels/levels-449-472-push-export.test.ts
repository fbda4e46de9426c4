import fs from 'node:fs';
import sodium from 'libsodium-wrappers';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { registerQueue, verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { EVENT_KINDS } from '../../src/realtime/event-kinds';
import { exportedMessages, finishedExport } from '../export/export-files';
import { sendDirect } from '../messages/helpers';
import { Bouncer, decryptPayload, startBouncer, tokenIdOf } from '../notifications/bouncer';
import { b64, Device, newPushKey, pushServiceEnv, sealRegistration, serviceKeys, waitForPush } from '../notifications/helpers';
import { tempDataDir, upload } from '../uploads/files';

// Zulip's API changelog, feature levels 449, 450, 468 and 472, each checked through the API. The
// organization's owners have access to all content (PARLEY_OWNER_FULL_CONTENT_ACCESS).
jest.setTimeout(120_000);

let ts: TestServer;
let bouncer: Bouncer;
let dataDir: string;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  await sodium.ready;
  dataDir = tempDataDir();
  bouncer = await startBouncer();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_OWNER_FULL_CONTENT_ACCESS: 'true', ...pushServiceEnv(await serviceKeys(), bouncer.url) });
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await bouncer?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

test('449: export types are strings; owners export everything where they have access to all content', async () => {
  const { state } = await registerQueue(ts, ts.owner, { fetchEventTypes: ['realm'] });
  expect(state.realm_owner_full_content_access).toBe(true);
  assertSuccess(await client(ts, ts.owner).post('/messages', { type: 'direct', to: [bob.id], content: 'Only for Bob' }));

  assertError(
    await client(ts, admin).post('/export/realm', { export_type: 'full_without_consent' }),
    'UNAUTHORIZED_PRINCIPAL',
    'Must be an organization owner',
  );
  assertError(await client(ts, ts.owner).post('/export/realm', { export_type: 1 }), 'BAD_REQUEST', 'Invalid export_type');
  assertError(await client(ts, ts.owner).post('/export/realm', { export_type: 'full' }), 'BAD_REQUEST', 'Invalid export_type');

  const queue = await registerQueue(ts, ts.owner, { eventTypes: ['realm_export'] });
  const id = assertSuccess(await client(ts, ts.owner).post('/export/realm', { export_type: 'full_without_consent' })).id;
  const done = await finishedExport(ts, ts.owner, queue, id);
  expect(done).toMatchObject({ id, export_type: 'full_without_consent', pending: false, failed_timestamp: null });
  // Bob never consented: his direct messages are in it all the same.
  expect(await exportedMessages(ts, dataDir, done.export_url)).toContain('Only for Bob');

  const listed = assertSuccess(await client(ts, admin).get('/export/realm')).exports;
  expect(listed.find((e: { id: number }) => e.id === id).export_type).toBe('full_without_consent');
  const res = await graphql(ts, admin, '{ realmExports { id exportType } }');
  expect(res.data!.realmExports).toContainEqual({ id: String(id), exportType: 'full_without_consent' });
  expect(graphqlError(await graphql(ts, ts.owner, 'mutation { startExport(exportType: "everything") { id } }')).message).toBe('Invalid export_type');
});

test('450 and 468: no push_device events nor push_devices in register any more', async () => {
  expect(Object.keys(EVENT_KINDS)).not.toContain('push_device');
  const { state } = await registerQueue(ts, alice);
  expect(state).not.toHaveProperty('push_devices');
  expect(state).toHaveProperty('devices');
});

/** Registers a client device and its push key and token as the app does; the events of the registration. */
async function registerPhone(who: TestUser, token: string): Promise<{ device: Device; events: any[] }> {
  const device: Device = { deviceId: 0, token, tokenId: tokenIdOf(token), pushKey: newPushKey(), pushKeyId: 31 };
  device.deviceId = assertSuccess(await client(ts, who).post('/register_client_device')).device_id;
  const events = await verifyAction(
    ts,
    who,
    async () => {
      assertSuccess(
        await client(ts, who).post('/mobile_push/register', {
          device_id: device.deviceId,
          push_key: b64(device.pushKey),
          push_key_id: device.pushKeyId,
          token_kind: 'fcm',
          token_id: device.tokenId,
          bouncer_public_key: b64(bouncer.publicKey),
          encrypted_push_registration: sealRegistration(bouncer, { token, token_kind: 'fcm', timestamp: Math.floor(Date.now() / 1000) }),
        }),
      );
      await waitUntil(async () => (await ts.server.deps.knex('client_devices').where({ id: device.deviceId }).first()).push_token_id === device.tokenId);
    },
    { fetchEventTypes: ['device'] },
  );
  return { device, events };
}

test('468: a device registers its push key and token; notifications name its token and key ids', async () => {
  const { device, events } = await registerPhone(alice, 'fcm-token-level-468');
  expect(events.map(({ id: _id, ...e }) => e)).toEqual([
    {
      type: 'device',
      op: 'update',
      device_id: device.deviceId,
      push_key_id: 31,
      pending_push_token_id: device.tokenId,
      push_token_last_updated_timestamp: expect.any(Number),
      push_registration_error_code: null,
    },
    { type: 'device', op: 'update', device_id: device.deviceId, push_token_id: device.tokenId, pending_push_token_id: null },
  ]);
  const register = bouncer.requests.find((r) => r.path === '/api/v1/remotes/push/e2ee/register' && r.body.token_id === device.tokenId)!;
  expect(Object.keys(register.body).sort()).toEqual(['bouncer_public_key', 'encrypted_push_registration', 'realm_uuid', 'token_id']);

  const messageId = await sendDirect(ts, bob, [alice], 'hello phone');
  expect(await waitForPush(bouncer, device, messageId)).toMatchObject({ type: 'message', message_id: messageId });
  const notify = bouncer.requests.find(
    (r) => r.path === '/api/v1/remotes/push/e2ee/notify' && r.body.push_requests.some((p: any) => p.token_id === device.tokenId),
  )!;
  expect(notify.body.push_requests[0]).toEqual({
    token_id: device.tokenId,
    fcm_priority: 'high',
    payload: { push_key_id: '31', encrypted_data: expect.any(String) },
  });

  // The test notification names the device by its id.
  assertSuccess(await client(ts, alice).post('/mobile_push/e2ee/test_notification', { device_id: device.deviceId }));
  const testPush = bouncer.requests
    .filter((r) => r.path === '/api/v1/remotes/push/e2ee/notify')
    .flatMap((r) => r.body.push_requests)
    .filter((p: any) => p.token_id === device.tokenId && p.fcm_priority === 'high')
    .at(-1);
  expect(await decryptPayload(testPush.payload.encrypted_data, device.pushKey)).toMatchObject({ type: 'test', user_id: alice.id });
  expect(bouncer.violations).toEqual([]);
});

test('468: a token the service no longer has is forgotten, with a device update event', async () => {
  const { device } = await registerPhone(bob, 'fcm-token-uninstalled');
  // The app was uninstalled: the service drops the token and says so at the next push.
  bouncer.devices.splice(
    bouncer.devices.findIndex((d) => d.tokenId === device.tokenId),
    1,
  );
  const events = await verifyAction(ts, bob, async () => {
    assertSuccess(await client(ts, bob).post('/mobile_push/e2ee/test_notification', { device_id: device.deviceId }));
  });
  expect(events.filter((e) => e.type === 'device').map(({ id: _id, ...e }) => e)).toEqual([
    { type: 'device', op: 'update', device_id: device.deviceId, push_token_id: null },
  ]);
  assertError(
    await client(ts, bob).post('/mobile_push/e2ee/test_notification', { device_id: device.deviceId }),
    'NO_ACTIVE_PUSH_DEVICE',
    'No active registered push device',
  );
});

test('472: attachments list the ids of the messages linking them', async () => {
  const { url } = assertSuccess(await upload(ts, alice, [{ name: 'linked.txt', data: 'abc' }]));
  let messageId = 0;
  const events = await verifyAction(ts, alice, async () => {
    messageId = await sendDirect(ts, alice, [bob], `[file](${url})`);
  });
  const update = events.find((e) => e.type === 'attachment')!;
  expect(update.attachment.message_ids).toEqual([messageId]);
  expect(update.attachment).not.toHaveProperty('messages');
  const listed = assertSuccess(await client(ts, alice).get('/attachments')).attachments.find((a: { name: string }) => a.name === 'linked.txt');
  expect(listed.message_ids).toEqual([messageId]);
  expect(listed).not.toHaveProperty('messages');
  const res = await graphql(ts, alice, '{ attachments { attachments { name messageIds } } }');
  expect(res.data!.attachments.attachments).toContainEqual({ name: 'linked.txt', messageIds: [String(messageId)] });
});
