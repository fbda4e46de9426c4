import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents, registerQueue, verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer } from '../helpers/server';

// Client devices (Zulip's feature levels 468 and 470), as the mobile app uses them: at sign-in it
// POSTs /register_client_device with no parameters and keeps the device_id; at sign-out it POSTs
// /remove_client_device with that device_id. Its register asks for the `devices` map and follows
// the `device` events.
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

const noPushRegistration = {
  push_key_id: null,
  push_token_id: null,
  pending_push_token_id: null,
  push_token_last_updated_timestamp: null,
  push_registration_error_code: null,
};
const devicesOf = async (who: Parameters<typeof registerQueue>[1]) => (await registerQueue(ts, who, { fetchEventTypes: ['device'] })).state.devices;

test('a device is registered, listed in the register state and removed, with an event each', async () => {
  const me = await makeUser(ts, 400);
  expect(await devicesOf(me)).toEqual({});
  let deviceId = 0;
  const added = await verifyAction(
    ts,
    me,
    async () => {
      const body = assertSuccess(await client(ts, me).post('/register_client_device', {}));
      expect(Object.keys(body).sort()).toEqual(['device_id', 'msg', 'result']);
      deviceId = body.device_id;
    },
    { fetchEventTypes: ['device'] },
  );
  expect(added).toEqual([{ id: expect.any(Number), type: 'device', op: 'add', device_id: deviceId }]);
  expect(await devicesOf(me)).toEqual({ [deviceId]: noPushRegistration });

  // Each sign-in makes another device.
  const second = assertSuccess(await client(ts, me).post('/register_client_device', {})).device_id;
  expect(second).not.toBe(deviceId);
  expect(
    Object.keys(await devicesOf(me))
      .map(Number)
      .sort((a, b) => a - b),
  ).toEqual([deviceId, second]);

  const removed = await verifyAction(ts, me, () => client(ts, me).post('/remove_client_device', { device_id: deviceId }), { fetchEventTypes: ['device'] });
  expect(removed).toEqual([{ id: expect.any(Number), type: 'device', op: 'remove', device_id: deviceId }]);
  expect(await devicesOf(me)).toEqual({ [second]: noPushRegistration });
});

test("only one's own devices can be removed, and only once", async () => {
  const me = await makeUser(ts, 400);
  const other = await makeUser(ts, 400);
  const mine = assertSuccess(await client(ts, me).post('/register_client_device', {})).device_id;
  const events = captureEvents(ts);
  try {
    assertError(await client(ts, other).post('/remove_client_device', { device_id: mine }), 'BAD_REQUEST', 'Invalid `device_id`');
    assertError(await client(ts, me).post('/remove_client_device', { device_id: mine + 1000000 }), 'BAD_REQUEST', 'Invalid `device_id`');
    assertError(await client(ts, me).post('/remove_client_device', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'device_id' argument");
    assertError(await client(ts, me).post('/remove_client_device', { device_id: 'first' }), 'INVALID_JSON', 'Argument "device_id" is not valid JSON.');
    expect(events.ofType('device')).toEqual([]);
  } finally {
    events.stop();
  }
  expect(Object.keys(await devicesOf(me))).toEqual([String(mine)]);
  assertSuccess(await client(ts, me).post('/remove_client_device', { device_id: mine }));
  assertError(await client(ts, me).post('/remove_client_device', { device_id: mine }), 'BAD_REQUEST', 'Invalid `device_id`');
  // The other user's devices are theirs alone.
  expect(await devicesOf(other)).toEqual({});
});

test('GraphQL registers and removes devices through the same actions', async () => {
  const me = await makeUser(ts, 400);
  const made = await graphql(ts, me, 'mutation { registerClientDevice { deviceId } }');
  const deviceId = made.data?.registerClientDevice.deviceId;
  expect(await devicesOf(me)).toEqual({ [deviceId]: noPushRegistration });
  const other = await makeUser(ts, 400);
  const remove = 'mutation ($id: Int!) { removeClientDevice(deviceId: $id) { id } }';
  expect(graphqlError(await graphql(ts, other, remove, { id: deviceId }))).toEqual({ code: 'BAD_REQUEST', message: 'Invalid `device_id`' });
  expect((await graphql(ts, me, remove, { id: deviceId })).data).toEqual({ removeClientDevice: { id: String(deviceId) } });
  expect(await devicesOf(me)).toEqual({});
});
