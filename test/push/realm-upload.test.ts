import { realmUuid } from '../../src/core/notifications/bouncer';
import { captureEvents } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { Bouncer, startBouncer } from '../notifications/bouncer';
import { sendDirect } from '../messages/helpers';
import { pushServiceEnv, registerDevice, serviceKeys, waitForPush } from '../notifications/helpers';

// The push service refuses E2EE registrations and notifications for an organization it has not
// been told of: the server uploads its organization (remotes/server/analytics) at start, hourly,
// and again when the service answers MISSING_REMOTE_REALM.
let bouncer: Bouncer;
let ts: TestServer;
let late: Bouncer;
let lateServer: TestServer;

const UPLOAD = '/api/v1/remotes/server/analytics';
const E2EE_REGISTER = '/api/v1/remotes/push/e2ee/register';
const E2EE_NOTIFY = '/api/v1/remotes/push/e2ee/notify';

beforeAll(async () => {
  bouncer = await startBouncer();
  ts = await startTestServer(pushServiceEnv(await serviceKeys(), bouncer.url));
  // This service fails the first upload: it learns of the organization only when asked again.
  late = await startBouncer();
  late.failWith.push(503);
  lateServer = await startTestServer(pushServiceEnv(await serviceKeys(), late.url));
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await lateServer?.close();
  await bouncer?.close();
  await late?.close();
}, SERVER_HOOK_TIMEOUT);

test('the organization is uploaded when the server starts, as Zulip’s server uploads it', async () => {
  await waitUntil(() => bouncer.realms.length > 0);
  const { deps } = ts.server;
  const service = deps.config.pushService!;
  const uploads = bouncer.requests.filter((r) => r.path === UPLOAD);
  expect(uploads).toHaveLength(1);
  const [upload] = uploads;
  expect(upload.contentType).toBe('application/x-www-form-urlencoded');
  expect(upload.authorization).toBe(`Basic ${Buffer.from(`${service.orgId}:${service.orgKey}`).toString('base64')}`);
  // Form fields, each a JSON value; no usage statistics are shared.
  expect(Object.keys(upload.body).sort()).toEqual(
    ['api_feature_level', 'installation_counts', 'merge_base', 'realm_counts', 'realmauditlog_rows', 'realms', 'version'].sort(),
  );
  expect(JSON.parse(upload.body.realm_counts)).toEqual([]);
  expect(JSON.parse(upload.body.installation_counts)).toEqual([]);
  expect(JSON.parse(upload.body.realmauditlog_rows)).toEqual([]);
  expect(typeof JSON.parse(upload.body.version)).toBe('string');
  expect(Number.isInteger(JSON.parse(upload.body.api_feature_level))).toBe(true);

  const realm = await deps.knex('realms').where({ id: deps.realmId }).first();
  const url = deps.config.externalUrl;
  expect(JSON.parse(upload.body.realms)).toEqual([
    {
      id: deps.realmId,
      uuid: realmUuid(service, deps.realmId),
      uuid_owner_secret: expect.stringMatching(/^zuliprealm_[0-9a-f]{32}$/),
      host: new URL(url).host,
      url,
      name: realm.name,
      org_type: 0,
      date_created: new Date(realm.date_created).getTime() / 1000,
      deactivated: false,
      is_system_bot_realm: false,
      authentication_methods: { Email: true },
    },
  ]);
  // The owner secret is stable (the same organization, the same proof) and not the server's key.
  const secret = bouncer.realms[0].uuid_owner_secret;
  expect(secret).not.toContain(service.orgKey);
  expect(bouncer.violations).toEqual([]);
});

test('a device registered before the service knows the organization becomes active after the upload', async () => {
  const alice = await makeUser(lateServer, 400);
  // The failed start-up upload left the service without the organization.
  await waitUntil(() => late.requests.some((r) => r.path === UPLOAD));
  expect(late.realms).toEqual([]);
  const events = captureEvents(lateServer);
  try {
    const device = await registerDevice(lateServer, alice, late);
    expect(late.devices.find((d) => d.tokenId === device.tokenId)?.realmUuid).toBe(late.realms[0].uuid);
    // Refused first (the organization unknown), then uploaded, then registered on the retry.
    const paths = late.requests.map((r) => r.path);
    expect(paths).toEqual([UPLOAD, E2EE_REGISTER, UPLOAD, E2EE_REGISTER]);
    const { deps } = lateServer.server;
    expect(late.realms.map((r) => r.uuid)).toEqual([realmUuid(deps.config.pushService!, deps.realmId)]);
    // Published once the transaction has committed, a moment after the row reads back.
    await waitUntil(() => events.ofType('device').length >= 3);
    expect(events.ofType('device').map((e) => e.event)).toEqual([
      { type: 'device', op: 'add', device_id: device.deviceId },
      expect.objectContaining({ type: 'device', op: 'update', device_id: device.deviceId, pending_push_token_id: device.tokenId }),
      { type: 'device', op: 'update', device_id: device.deviceId, push_token_id: device.tokenId, pending_push_token_id: null },
    ]);
  } finally {
    events.stop();
  }
  expect(late.violations).toEqual([]);
});

test('a notification refused for an organization the service lost is sent after the upload', async () => {
  const bob = await makeUser(lateServer, 400);
  const device = await registerDevice(lateServer, bob, late);
  // The service no longer knows the organization (its data was reset).
  late.realms.splice(0);
  const from = late.requests.length;
  const id = await sendDirect(lateServer, lateServer.owner, [bob], 'hello after the reset');
  await waitForPush(late, device, id);
  // The stand-in records the refused request too: wait for the retry.
  await waitUntil(() => late.requests.slice(from).filter((r) => r.path === E2EE_NOTIFY).length === 2);
  expect(late.requests.slice(from).map((r) => r.path)).toEqual([E2EE_NOTIFY, UPLOAD, E2EE_NOTIFY]);
  expect(late.realms).toHaveLength(1);
  expect(late.violations).toEqual([]);
});
