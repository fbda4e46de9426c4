import { toPng } from 'jdenticon';
import { renameStoredValues } from '../../migrations/20261206111000_realm_uuid_and_renamed_settings';
import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { registerQueue, verifyAction } from '../helpers/events';
import { systemGroups } from '../helpers/groups';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Zulip's API changelog, feature levels 453 to 477: the organization settings among them.
let ts: TestServer;
let alice: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

const patchRealm = (params: Record<string, unknown>) => client(ts, ts.owner).patch('/realm', params);
const realmState = async (who: TestUser = alice) => (await registerQueue(ts, who, { fetchEventTypes: ['realm', 'realm_user'] })).state;
const knex = () => ts.server.deps.knex;

/** Width and height from a PNG's header. */
const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];
const fetchImage = async (path: string) => {
  const res = await fetch(`${ts.url}${path}`);
  return { status: res.status, type: res.headers.get('content-type'), body: Buffer.from(await res.arrayBuffer()) };
};

test('453: the GIF rating is gif_rating_policy in register, events and PATCH /realm', async () => {
  const state = await realmState();
  expect(state.realm_gif_rating_policy).toBe(2);
  expect(state.gif_rating_policy_options.pg).toEqual({ name: expect.any(String), id: 3 });
  expect(state).not.toHaveProperty('realm_giphy_rating');
  expect(state).not.toHaveProperty('gif_rating_options');

  const events = await verifyAction(ts, alice, () => patchRealm({ gif_rating_policy: 3 }));
  expect(events).toEqual([{ type: 'realm', op: 'update', property: 'gif_rating_policy', value: 3, id: expect.any(Number) }]);
  assertError(await patchRealm({ gif_rating_policy: 7 }), 'BAD_REQUEST', 'Invalid gif_rating_policy 7');
  const res = await graphql(ts, ts.owner, 'mutation { updateRealmSettings(settings: { gifRatingPolicy: 1 }) { settings { gifRatingPolicy } } }');
  expect(res.data?.updateRealmSettings.settings.gifRatingPolicy).toBe(1);

  // A value stored under the old name is found under the new one.
  const realmId = ts.server.deps.realmId;
  await knex()('realm_settings').where({ realm_id: realmId, name: 'gif_rating_policy' }).update({ name: 'giphy_rating' });
  await renameStoredValues(knex());
  expect((await knex()('realm_settings').where({ realm_id: realmId, name: 'gif_rating_policy' }).first('value')).value).toBeDefined();
});

test('454: the Recent conversations home view is "recent"; stored "recent_topics" values follow', async () => {
  const events = await verifyAction(ts, alice, () => client(ts, alice).patch('/settings', { web_home_view: 'recent' }), {
    capabilities: { user_settings_object: true },
  });
  expect(events).toEqual([expect.objectContaining({ type: 'user_settings', op: 'update', property: 'web_home_view', value: 'recent' })]);
  assertError(await client(ts, alice).patch('/settings', { web_home_view: 'recent_topics' }), 'BAD_REQUEST', 'Invalid web_home_view');
  assertSuccess(await client(ts, ts.owner).patch('/realm/user_settings_defaults', { web_home_view: 'recent' }));
  expect((await registerQueue(ts, alice, { fetchEventTypes: ['realm_user_settings_defaults'] })).state.realm_user_settings_defaults.web_home_view).toBe(
    'recent',
  );
  assertError(await client(ts, ts.owner).patch('/realm/user_settings_defaults', { web_home_view: 'recent_topics' }), 'BAD_REQUEST', 'Invalid web_home_view');

  await knex()('user_settings').where({ user_id: alice.id }).update({ web_home_view: 'recent_topics' });
  await knex()('realm_user_default_settings').where({ realm_id: ts.server.deps.realmId }).update({ web_home_view: 'recent_topics' });
  await renameStoredValues(knex());
  expect((await knex()('user_settings').where({ user_id: alice.id }).first('web_home_view')).web_home_view).toBe('recent');
  expect((await knex()('realm_user_default_settings').where({ realm_id: ts.server.deps.realmId }).first('web_home_view')).web_home_view).toBe('recent');
  assertSuccess(await client(ts, ts.owner).patch('/realm/user_settings_defaults', { web_home_view: 'inbox' }));
});

test('456 and 466: default_avatar_source gives new accounts a generated picture, drawn from realm_uuid and the user id', async () => {
  const before = await realmState();
  expect(before.realm_default_avatar_source).toBe('G');
  expect(before.realm_uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(before.realm_uuid).toBe((await knex()('realms').where({ id: ts.server.deps.realmId }).first('uuid')).uuid);
  const gravatarUser = await makeUser(ts, 400);
  expect((await realmState(gravatarUser)).avatar_source).toBe('G');

  const events = await verifyAction(ts, alice, () => patchRealm({ default_avatar_source: 'J' }));
  expect(events).toEqual([{ type: 'realm', op: 'update', property: 'default_avatar_source', value: 'J', id: expect.any(Number) }]);
  assertError(await patchRealm({ default_avatar_source: 'U' }), 'BAD_REQUEST', 'Invalid default_avatar_source');

  // A new account starts with the generated picture, which everyone hears about.
  let bob!: TestUser;
  const added = await verifyAction(ts, alice, async () => {
    bob = await makeUser(ts, 400);
  });
  const person = added.find((e) => e.type === 'realm_user' && e.op === 'add')!.person;
  expect(person.avatar_url).toBe(`/user_avatars/${bob.id}?version=1`);
  const own = await realmState(bob);
  expect(own.avatar_source).toBe('J');
  expect(own.realm_users.find((u: { user_id: number }) => u.user_id === bob.id).avatar_url).toBe(`/user_avatars/${bob.id}?version=1`);

  // The picture is Jdenticon's for "<realm_uuid>:<user id>", as clients may compute it themselves.
  const style = { padding: 0, lightness: { color: [0.3, 0.7], grayscale: [0.3, 0.7] } };
  const small = await fetchImage(`/user_avatars/${bob.id}?version=1`);
  expect(small).toMatchObject({ status: 200, type: 'image/png' });
  expect(small.body.equals(toPng(`${own.realm_uuid}:${bob.id}`, 100, style))).toBe(true);
  const medium = await fetchImage(`/user_avatars/${bob.id}/medium?version=1`);
  expect(pngSize(medium.body)).toEqual([500, 500]);
  expect(pngSize(small.body)).toEqual([100, 100]);

  // Removing one's picture returns to the organization's default; bots keep gravatars.
  const reset = await verifyAction(ts, alice, () => client(ts, gravatarUser).delete('/users/me/avatar'));
  expect(reset.find((e) => e.type === 'realm_user')!.person).toMatchObject({ avatar_source: 'J', avatar_url: `/user_avatars/${gravatarUser.id}?version=2` });
  const bot = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Picture bot', short_name: 'picture' }));
  expect(bot.avatar_url).toContain('gravatar.com');

  assertSuccess(await patchRealm({ default_avatar_source: 'G' }));
  expect((await realmState(await makeUser(ts, 400))).avatar_source).toBe('G');
});

test('462 and 464: a new description is announced as update_dict with its rendering', async () => {
  const events = await verifyAction(ts, alice, () => patchRealm({ description: 'We **build** things' }));
  expect(events).toEqual([
    {
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: { description: 'We **build** things', rendered_description: '<p>We <strong>build</strong> things</p>' },
      id: expect.any(Number),
    },
  ]);
  expect((await realmState()).realm_description).toBe('We **build** things');
  expect((await verifyAction(ts, alice, () => patchRealm({ description: '' })))[0].data).toEqual({ description: '', rendered_description: '' });
});

test('469: media_preview_size is 100, 150 or 200', async () => {
  expect((await realmState()).realm_media_preview_size).toBe(100);
  const events = await verifyAction(ts, alice, () => patchRealm({ media_preview_size: 150 }));
  expect(events).toEqual([{ type: 'realm', op: 'update', property: 'media_preview_size', value: 150, id: expect.any(Number) }]);
  assertError(await patchRealm({ media_preview_size: 120 }), 'BAD_REQUEST', 'Invalid media_preview_size');
  assertError(await client(ts, alice).patch('/realm', { media_preview_size: 200 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  const res = await graphql(ts, alice, '{ realmSettings { mediaPreviewSize } }');
  expect(res.data?.realmSettings.mediaPreviewSize).toBe(150);
});

test('477: workplace_users_group is a group setting, members by default', async () => {
  const state = await realmState();
  expect(state.realm_workplace_users_group).toBe(groups['role:members']);
  expect(state.server_supported_permission_settings.realm.workplace_users_group).toMatchObject({ default_group_name: 'role:members' });

  const events = await verifyAction(ts, alice, () => patchRealm({ workplace_users_group: { new: groups['role:administrators'] } }));
  expect(events).toEqual([
    { type: 'realm', op: 'update_dict', property: 'default', data: { workplace_users_group: groups['role:administrators'] }, id: expect.any(Number) },
  ]);
  const collection = { direct_members: [alice.id], direct_subgroups: [groups['role:moderators']] };
  const res = await graphql(ts, ts.owner, 'mutation($s: JSON!) { updateRealmSettings(settings: $s) { settings { workplaceUsersGroup } } }', {
    s: { workplaceUsersGroup: { new: collection, old: groups['role:administrators'] } },
  });
  expect(res.data?.updateRealmSettings.settings.workplaceUsersGroup).toEqual(collection);
  assertError(
    await patchRealm({ workplace_users_group: { new: groups['role:members'], old: groups['role:administrators'] } }),
    'EXPECTATION_MISMATCH',
    "'old' value does not match the expected value.",
  );
});
