import { assertSuccess, client, graphql } from '../helpers/api';
import { registerQueue, verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Changes of Zulip's API changelog above feature level 419 that show in the register response,
// the settings and the realm settings, each checked through the API.
let ts: TestServer;
let member: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

test('the server announces the level it implements', async () => {
  const settings = assertSuccess(await client(ts, member).get('/server_settings'));
  const { state } = await registerQueue(ts, member, { fetchEventTypes: ['realm'] });
  expect(settings.zulip_feature_level).toBe(state.zulip_feature_level);
  expect(state.zulip_feature_level).toBe(485);
});

test('426: the register response has no realm_is_zephyr_mirror_realm', async () => {
  const { state } = await registerQueue(ts, member);
  expect(state).toHaveProperty('realm_name');
  expect(state).not.toHaveProperty('realm_is_zephyr_mirror_realm');
});

test('427: a channel setting defaulting to its creator names channel_creator', async () => {
  const { state } = await registerQueue(ts, member, { fetchEventTypes: ['realm'] });
  const stream = state.server_supported_permission_settings.stream;
  expect(stream.can_administer_channel_group.default_group_name).toBe('channel_creator');
  expect(JSON.stringify(state.server_supported_permission_settings)).not.toContain('stream_creator_or_nobody');
});

test.each(['web_left_sidebar_unreads_count_summary', 'web_left_sidebar_show_channel_folders', 'web_inbox_show_channel_folders'])(
  '398, 411, 431: the display setting %s, on by default, is the user’s to change and the organization’s to default',
  async (name) => {
    const user = await makeUser(ts, 400);
    const { state } = await registerQueue(ts, user, { fetchEventTypes: ['user_settings', 'realm_user_settings_defaults'] });
    expect(state.user_settings[name]).toBe(true);
    expect(state.realm_user_settings_defaults[name]).toBe(true);
    const events = await verifyAction(ts, user, () => client(ts, user).patch('/settings', { [name]: false }), {
      fetchEventTypes: ['user_settings'],
    });
    expect(events).toEqual([expect.objectContaining({ type: 'user_settings', op: 'update', property: name, value: false })]);
    assertSuccess(await client(ts, ts.owner).patch('/realm/user_settings_defaults', { [name]: false }));
    const after = await registerQueue(ts, await makeUser(ts, 400), { fetchEventTypes: ['user_settings'] });
    expect(after.state.user_settings[name]).toBe(false);
    assertSuccess(await client(ts, ts.owner).patch('/realm/user_settings_defaults', { [name]: true }));
    expect((await client(ts, user).patch('/settings', { [name]: 'maybe' })).body).toMatchObject({ result: 'error', code: 'INVALID_JSON' });
  },
);

test('434: send_channel_events_messages is a realm setting, off by default', async () => {
  const { state } = await registerQueue(ts, member, { fetchEventTypes: ['realm'] });
  expect(state.realm_send_channel_events_messages).toBe(false);
  const events = await verifyAction(ts, ts.owner, () => client(ts, ts.owner).patch('/realm', { send_channel_events_messages: true }), {
    fetchEventTypes: ['realm'],
  });
  expect(events).toEqual([expect.objectContaining({ type: 'realm', op: 'update', property: 'send_channel_events_messages', value: true })]);
  expect((await client(ts, member).patch('/realm', { send_channel_events_messages: false })).status).toBe(400);
  assertSuccess(await client(ts, ts.owner).patch('/realm', { send_channel_events_messages: false }));
});

test('435: the register response lists the report types', async () => {
  const { state } = await registerQueue(ts, member, { fetchEventTypes: ['realm'] });
  expect(state.server_report_message_types.map((t: { key: string }) => t.key)).toEqual(
    expect.arrayContaining(['spam', 'harassment', 'inappropriate', 'norms', 'other']),
  );
  for (const type of state.server_report_message_types) expect(type).toEqual({ key: expect.any(String), name: expect.any(String) });
});

test('433: user objects say whether the account is an imported stub (none is, here)', async () => {
  const them = assertSuccess(await client(ts, member).get(`/users/${ts.owner.id}`)).user;
  expect(them.is_imported_stub).toBe(false);
  const everyone = assertSuccess(await client(ts, member).get('/users')).members;
  expect(everyone.every((u: { is_imported_stub: unknown }) => u.is_imported_stub === false)).toBe(true);
  expect(assertSuccess(await client(ts, member).get('/users/me')).is_imported_stub).toBe(false);
  const { state } = await registerQueue(ts, member, { fetchEventTypes: ['realm_user'] });
  expect(state.realm_users.length).toBeGreaterThan(1);
  for (const user of [...state.realm_users, ...state.cross_realm_bots]) expect(user.is_imported_stub).toBe(false);
  const res = await graphql(ts, member, `query ($id: Int!) { user(id: $id) { isImportedStub } }`, { id: ts.owner.id });
  expect(res.data).toEqual({ user: { isImportedStub: false } });
});

test('430: each export consent says who may see the member’s email address', async () => {
  const user = await makeUser(ts, 400);
  assertSuccess(await client(ts, user).patch('/settings', { email_address_visibility: 3 }));
  const consents = assertSuccess(await client(ts, ts.owner).get('/export/realm/consents')).export_consents;
  expect(consents.find((c: { user_id: number }) => c.user_id === user.id)).toEqual({ user_id: user.id, consented: false, email_address_visibility: 3 });
  const res = await graphql(ts, ts.owner, '{ exportConsents { userId emailAddressVisibility } }');
  expect(res.data?.exportConsents).toContainEqual({ userId: user.id, emailAddressVisibility: 3 });
});
