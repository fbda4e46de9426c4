import fs from 'node:fs';
import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { registerQueue, verifyAction } from '../helpers/events';
import { systemGroups } from '../helpers/groups';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { tempDataDir, upload } from '../uploads/files';

// Zulip's API changelog, feature levels 439 to 443, each checked through the API.
let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_TENOR_API_KEY: 'tenor-key-for-tests' });
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

async function createChannel(name: string, principals: number[], extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals, ...extra }));
  return (await ts.server.deps.knex('streams').where({ name }).first('id')).id;
}

test('439: no client gets update_display_settings or update_global_notifications, with or without user_settings_object', async () => {
  for (const capabilities of [{ user_settings_object: false }, { user_settings_object: true }]) {
    const events = await verifyAction(ts, alice, () => client(ts, alice).patch('/settings', { color_scheme: 3, enable_sounds: false }), { capabilities });
    expect(events.map((e) => e.type)).toEqual(['user_settings', 'user_settings']);
    assertSuccess(await client(ts, alice).patch('/settings', { color_scheme: 1, enable_sounds: true }));
  }
  // The older top-level layout is still given, and follows user_settings events.
  const { state } = await registerQueue(ts, alice, { fetchEventTypes: ['update_display_settings', 'update_global_notifications'] });
  expect(state).toMatchObject({ color_scheme: 1, enable_sounds: true });
});

test('440: GET /users/{user_id}/channels lists the channels the user is subscribed to that the viewer may see', async () => {
  const open = await createChannel('level-440-open', [alice.id]);
  const closed = await createChannel('level-440-private', [alice.id], { invite_only: true });
  const asOwner = assertSuccess(await client(ts, ts.owner).get(`/users/${alice.id}/channels`)).subscribed_channel_ids as number[];
  expect(asOwner).toEqual(expect.arrayContaining([open, closed]));
  const asBob = assertSuccess(await client(ts, bob).get(`/users/${alice.id}/channels`)).subscribed_channel_ids as number[];
  expect(asBob).toContain(open);
  expect(asBob).not.toContain(closed);
  expect(asBob).toEqual([...asBob].sort((a, b) => a - b));
  const res = await graphql(ts, bob, 'query($id: Int!) { userChannelIds(userId: $id) }', { id: alice.id });
  expect(res.data?.userChannelIds).toEqual(asBob);

  assertError(await client(ts, bob).get('/users/999999/channels'), 'BAD_REQUEST', 'No such user');
  // Bots were refused until feature level 458.
  const bot = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Level bot', short_name: 'level440' }));
  expect(assertSuccess(await client(ts, bob).get(`/users/${bot.user_id}/channels`)).subscribed_channel_ids).toEqual([]);
  const leaving = await makeUser(ts, 400);
  assertSuccess(await client(ts, ts.owner).delete(`/users/${leaving.id}`));
  assertError(await client(ts, bob).get(`/users/${leaving.id}/channels`), 'BAD_REQUEST', 'User is deactivated');
  expect((await client(ts, null).get(`/users/${alice.id}/channels`)).status).toBe(401);
});

test('441: can_create_topic_group is stored, shown, changed with an event, and enforced on new topics', async () => {
  const id = await createChannel('level-441', [alice.id, bob.id], { can_create_topic_group: groups['role:administrators'] });
  const { state } = await registerQueue(ts, alice, { fetchEventTypes: ['subscription'] });
  expect(state.subscriptions.find((s: { stream_id: number }) => s.stream_id === id).can_create_topic_group).toBe(groups['role:administrators']);

  const send = (who: TestUser, topic: string) => client(ts, who).post('/messages', { type: 'stream', to: id, topic, content: 'hello' });
  assertError(await send(alice, 'new topic'), 'BAD_REQUEST', 'You do not have permission to create new topics in this channel.');
  assertSuccess(await send(ts.owner, 'started by the owner'));
  assertSuccess(await send(alice, 'started by the owner'));

  assertError(
    await client(ts, alice).patch(`/streams/${id}`, { can_create_topic_group: { new: groups['role:everyone'] } }),
    'BAD_REQUEST',
    'You do not have permission to administer this channel.',
  );
  const events = await verifyAction(ts, alice, () =>
    client(ts, ts.owner).patch(`/streams/${id}`, { can_create_topic_group: { new: groups['role:everyone'] } }),
  );
  expect(events).toEqual([
    expect.objectContaining({ type: 'stream', op: 'update', stream_id: id, property: 'can_create_topic_group', value: groups['role:everyone'] }),
  ]);
  assertSuccess(await send(alice, 'now anyone may'));
});

test('442: the register response carries tenor_api_key and the GIF rating options', async () => {
  const { state } = await registerQueue(ts, alice, { fetchEventTypes: ['realm', 'tenor', 'giphy'] });
  expect(state.tenor_api_key).toBe('tenor-key-for-tests');
  // Renamed gif_rating_policy_options and realm_gif_rating_policy at feature level 453.
  expect(state.gif_rating_policy_options.disabled).toEqual({ name: expect.any(String), id: 0 });
  expect(state).not.toHaveProperty('giphy_rating_options');
  expect(state.realm_gif_rating_policy).toBe(2);
  const { state: without } = await registerQueue(ts, alice, { fetchEventTypes: ['realm'] });
  expect(without).not.toHaveProperty('tenor_api_key');
});

test('443: attachment times are UNIX seconds (GET /attachments, attachment events, detached_uploads)', async () => {
  const now = () => Date.now() / 1000;
  const before = Math.floor(now());
  const { url } = assertSuccess(await upload(ts, alice, [{ name: 'seconds.txt', data: 'abc' }]));
  let messageId = 0;
  const events = await verifyAction(ts, alice, async () => {
    const res = await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content: `[file](${url})` });
    messageId = assertSuccess(res).id;
    return res;
  });
  const update = events.find((e) => e.type === 'attachment')!;
  const inSeconds = (t: number) => Number.isInteger(t) && t >= before && t <= now() + 1;
  expect(inSeconds(update.attachment.create_time)).toBe(true);

  const listed = assertSuccess(await client(ts, alice).get('/attachments')).attachments.find((a: { name: string }) => a.name === 'seconds.txt');
  expect(inSeconds(listed.create_time)).toBe(true);
  expect(listed.message_ids).toEqual([messageId]);

  const edited = assertSuccess(await client(ts, alice).patch(`/messages/${messageId}`, { content: 'no file any more' }));
  expect(edited.detached_uploads).toEqual([expect.objectContaining({ name: 'seconds.txt', create_time: listed.create_time, message_ids: [] })]);
});
