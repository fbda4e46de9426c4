import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { registerQueue, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let people: Record<'owner' | 'admin' | 'alice' | 'guest', TestUser>;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  people = {
    owner: ts.owner,
    admin: await makeUser(ts, 200),
    alice: await makeUser(ts, 400, { fullName: 'Alice Liddell' }),
    guest: await makeUser(ts, 600, { fullName: 'Gus Guest' }),
  };
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const patch = (who: TestUser, params: Record<string, unknown>) => client(ts, who).patch('/realm', params);
const realmState = async (who: TestUser) => (await registerQueue(ts, who, { fetchEventTypes: ['realm', 'realm_user'] })).state;

describe('authorization', () => {
  test('members and guests may not change organization settings', async () => {
    for (const who of [people.alice, people.guest]) {
      assertError(await patch(who, { name: 'Mine now' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    expect((await realmState(people.alice)).realm_name).toBe('Test Org');
  });

  test('owner-only settings are refused to administrators', async () => {
    for (const params of [
      { waiting_period_threshold: 3 },
      { invite_required: false },
      { message_retention_days: 30 },
      { emails_restricted_to_domains: true },
      { can_invite_users_group: { new: groups['role:administrators'] } },
    ]) {
      assertError(await patch(people.admin, params), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    }
    const state = await realmState(people.admin);
    expect(state.realm_waiting_period_threshold).toBe(0);
    expect(state.realm_invite_required).toBe(true);
  });
});

describe('plain settings', () => {
  test('an administrator renames the organization; everyone hears it and register follows', async () => {
    const events = await verifySharedAction(ts, [people.alice, people.admin], async () => {
      const res = await patch(people.admin, { name: 'Renamed Org', description: 'About us' });
      expect(assertSuccess(res)).toMatchObject({ name: 'updated', description: 'updated' });
      return res;
    });
    expect(events).toEqual([
      { type: 'realm', op: 'update', property: 'name', value: 'Renamed Org' },
      // Since feature level 464, with its rendering.
      { type: 'realm', op: 'update_dict', property: 'default', data: { description: 'About us', rendered_description: '<p>About us</p>' } },
    ]);
    const state = await realmState(people.alice);
    expect(state.realm_name).toBe('Renamed Org');
    expect(state.realm_description).toBe('About us');
  });

  test('settings of every kind are stored and announced', async () => {
    const events = await verifySharedAction(ts, [people.alice], () =>
      patch(people.owner, {
        enable_read_receipts: false,
        presence_disabled: true,
        video_chat_provider: 0,
        gif_rating_policy: 3,
        default_language: 'de',
        message_edit_history_visibility_policy: 'moves',
        topics_policy: 'disable_empty_topic',
        waiting_period_threshold: 4,
        message_retention_days: 90,
        jitsi_server_url: JSON.stringify('https://meet.example.org'),
        new_stream_announcements_stream_id: -1,
      }),
    );
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'realm', op: 'update', property: 'enable_read_receipts', value: false },
        { type: 'realm', op: 'update', property: 'video_chat_provider', value: 0 },
        { type: 'realm', op: 'update', property: 'message_edit_history_visibility_policy', value: 'moves' },
        { type: 'realm', op: 'update', property: 'topics_policy', value: 'disable_empty_topic' },
        { type: 'realm', op: 'update', property: 'message_retention_days', value: 90 },
      ]),
    );
    // new_stream_announcements_stream_id was already -1: unchanged values are not announced.
    expect(events.some((e) => e.property === 'new_stream_announcements_stream_id')).toBe(false);
    const state = await realmState(people.alice);
    expect(state).toMatchObject({
      realm_enable_read_receipts: false,
      realm_presence_disabled: true,
      realm_video_chat_provider: 0,
      realm_gif_rating_policy: 3,
      realm_default_language: 'de',
      realm_allow_edit_history: true,
      realm_mandatory_topics: true,
      realm_waiting_period_threshold: 4,
      realm_message_retention_days: 90,
      realm_jitsi_server_url: 'https://meet.example.org',
      jitsi_server_url: 'https://meet.example.org',
    });
    assertSuccess(
      await patch(people.owner, {
        message_retention_days: JSON.stringify('unlimited'),
        jitsi_server_url: JSON.stringify('default'),
        topics_policy: 'allow_empty_topic',
      }),
    );
    expect(await realmState(people.alice)).toMatchObject({ realm_message_retention_days: -1, realm_jitsi_server_url: null, realm_mandatory_topics: false });
  });

  test('message editing settings use update_dict, as Zulip announces them', async () => {
    const events = await verifySharedAction(ts, [people.alice], () =>
      patch(people.admin, {
        allow_message_editing: false,
        message_content_edit_limit_seconds: JSON.stringify('unlimited'),
        message_content_delete_limit_seconds: 120,
      }),
    );
    expect(events).toHaveLength(3);
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'realm', op: 'update_dict', property: 'default', data: { allow_message_editing: false } },
        { type: 'realm', op: 'update_dict', property: 'default', data: { message_content_edit_limit_seconds: null } },
        { type: 'realm', op: 'update', property: 'message_content_delete_limit_seconds', value: 120 },
      ]),
    );
    assertSuccess(
      await patch(people.admin, { allow_message_editing: true, message_content_edit_limit_seconds: 600, message_content_delete_limit_seconds: 600 }),
    );
  });

  test('bad values are refused with Zulip errors and change nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'x'.repeat(41) }, 'name is too long (limit: 40 characters)'],
      [{ description: 'x'.repeat(1001) }, 'description is too long (limit: 1000 characters)'],
      [{ video_chat_provider: 7 }, 'Invalid video_chat_provider 7'],
      [{ gif_rating_policy: 9 }, 'Invalid gif_rating_policy 9'],
      [{ default_language: 'xx' }, "Invalid language 'xx'"],
      [{ message_content_edit_limit_seconds: 0 }, "Bad value for 'message_content_edit_limit_seconds': 0"],
      [{ move_messages_within_stream_limit_seconds: JSON.stringify('forever') }, "Bad value for 'move_messages_within_stream_limit_seconds': forever"],
      [{ enable_read_receipts: 'yes' }, 'Argument "enable_read_receipts" is not valid JSON.'],
      [{ jitsi_server_url: 'not a url' }, 'Argument "jitsi_server_url" is not valid JSON.'],
      [{ jitsi_server_url: JSON.stringify('ftp://x') }, 'jitsi_server_url is not an allowed_type'],
      [{ topics_policy: 'whatever' }, 'Invalid topics_policy'],
      [{ new_stream_announcements_stream_id: 999999 }, 'Invalid channel ID'],
      [{ can_create_groups: { new: 999999 } }, 'Invalid user group'],
      [{ can_mention_many_users_group: { new: groups['role:internet'] } }, "'can_mention_many_users_group' setting cannot be set to 'role:internet' group."],
      [{ can_add_custom_emoji_group: { new: groups['role:everyone'] } }, "'can_add_custom_emoji_group' setting cannot be set to 'role:everyone' group."],
      [{ can_manage_billing_group: 'x' }, 'Argument "can_manage_billing_group" is not valid JSON.'],
    ];
    for (const [params, msg] of cases) {
      const res = await patch(people.owner, { ...params, enable_guest_user_indicator: false });
      const body = res.body;
      expect([body.result, body.msg]).toEqual(['error', msg]);
    }
    expect((await realmState(people.alice)).realm_enable_guest_user_indicator).toBe(true);
  });

  test('can_access_all_users_group takes only role:everyone or role:members', async () => {
    const res = await patch(people.owner, { can_access_all_users_group: { new: groups['role:administrators'] } });
    assertError(res, 'BAD_REQUEST', "'can_access_all_users_group' setting cannot be set to 'role:administrators' group.");
  });

  test('can_access_all_users_group stays at everyone: restricting guests is refused as on plans without it', async () => {
    const res = await patch(people.owner, { can_access_all_users_group: { new: groups['role:members'] } });
    assertError(res, 'BAD_REQUEST', 'Available on Zulip Cloud Plus. Upgrade to access.');
    expect((await realmState(people.alice)).realm_can_access_all_users_group).toBe(groups['role:everyone']);
    assertSuccess(await patch(people.owner, { can_access_all_users_group: { new: groups['role:everyone'] } }));
  });
});

describe('group settings', () => {
  test('a change is announced as update_dict and the derived permissions follow', async () => {
    const events = await verifySharedAction(ts, [people.alice, people.admin], async () => {
      const res = await patch(people.admin, { can_create_public_channel_group: { new: groups['role:administrators'], old: groups['role:members'] } });
      expect(assertSuccess(res).can_create_public_channel_group).toBe(groups['role:administrators']);
      return res;
    });
    expect(events).toEqual([
      { type: 'realm', op: 'update_dict', property: 'default', data: { can_create_public_channel_group: groups['role:administrators'] } },
    ]);
    const state = await realmState(people.alice);
    expect(state.can_create_public_streams).toBe(false);
    expect(state.realm_create_public_stream_policy).toBe(2);

    assertError(
      await client(ts, people.alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'alice-public' }] }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    assertSuccess(await client(ts, people.admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'admin-public' }] }));
    assertSuccess(await patch(people.admin, { can_create_public_channel_group: { new: groups['role:members'] } }));
    assertSuccess(await client(ts, people.alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'alice-public' }] }));
  });

  test('anonymous values are accepted and a stale old value is refused', async () => {
    const value = { direct_members: [people.alice.id], direct_subgroups: [groups['role:administrators']] };
    const events = await verifySharedAction(ts, [people.alice], () => patch(people.admin, { can_add_custom_emoji_group: { new: value } }));
    expect(events).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { can_add_custom_emoji_group: value } }]);
    assertError(
      await patch(people.admin, { can_add_custom_emoji_group: { new: groups['role:members'], old: groups['role:moderators'] } }),
      'EXPECTATION_MISMATCH',
      "'old' value does not match the expected value.",
    );
    assertSuccess(await patch(people.admin, { can_add_custom_emoji_group: { new: groups['role:members'], old: value } }));
  });

  test('invitation permissions: can_invite_users_group and create_multiuse_invite_group', async () => {
    const invite = () => client(ts, people.alice).post('/invites', { invitee_emails: 'someone-new@example.com', stream_ids: [] });
    await verifySharedAction(ts, [people.alice], () => patch(people.owner, { can_invite_users_group: { new: groups['role:administrators'] } }));
    expect((await realmState(people.alice)).can_invite_others_to_realm).toBe(false);
    assertError(await invite(), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await patch(people.owner, { can_invite_users_group: { new: groups['role:members'] } }));
    assertSuccess(await invite());

    assertError(await client(ts, people.alice).post('/invites/multiuse', { stream_ids: [] }), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await patch(people.owner, { create_multiuse_invite_group: { new: groups['role:members'] } }));
    assertSuccess(await client(ts, people.alice).post('/invites/multiuse', { stream_ids: [] }));
    assertSuccess(await patch(people.owner, { create_multiuse_invite_group: { new: groups['role:administrators'] } }));
  });
});
