import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { deactivateUser } from '../../src/core/users/actions';
import { createChannel } from './helpers';

let ts: TestServer;
let member: TestUser;
let other: TestUser;
let moderator: TestUser;
let admin: TestUser;
let guest: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  other = await makeUser(ts, 400);
  moderator = await makeUser(ts, 300);
  admin = await makeUser(ts, 200);
  guest = await makeUser(ts, 600);
  groups = await systemGroups(ts);
}, 120_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

const sub = (who: TestUser | null, params: Record<string, unknown>) => client(ts, who ?? ts.owner).post('/users/me/subscriptions', params);
const getStream = async (id: number, who: TestUser = ts.owner) => assertSuccess(await client(ts, who).get(`/streams/${id}`)).stream;
const mySubs = async (who: TestUser) => assertSuccess(await client(ts, who).get('/users/me/subscriptions', { include_subscribers: true })).subscriptions;

describe('creating channels on first use', () => {
  test('a member creates a public channel with Zulip defaults and is subscribed', async () => {
    const res = assertSuccess(await sub(member, { subscriptions: [{ name: 'design', description: 'Shapes & <colors>' }] }));
    expect(res).toEqual({ result: 'success', msg: '', subscribed: { [String(member.id)]: ['design'] }, already_subscribed: {} });
    const [mine] = (await mySubs(member)).filter((s: any) => s.name === 'design');
    expect(mine).toMatchObject({
      name: 'design',
      description: 'Shapes & <colors>',
      rendered_description: '<p>Shapes &amp; &lt;colors&gt;</p>',
      invite_only: false,
      is_web_public: false,
      is_archived: false,
      history_public_to_subscribers: true,
      creator_id: member.id,
      topics_policy: 'inherit',
      message_retention_days: null,
      first_message_id: null,
      folder_id: null,
      stream_weekly_traffic: null,
      is_recently_active: true,
      stream_post_policy: 1,
      is_announcement_only: false,
      subscriber_count: 1,
      subscribers: [member.id],
      is_muted: false,
      in_home_view: true,
      pin_to_top: false,
      desktop_notifications: null,
      audible_notifications: null,
      push_notifications: null,
      email_notifications: null,
      wildcard_mentions_notify: null,
      can_administer_channel_group: { direct_members: [member.id], direct_subgroups: [] },
      can_add_subscribers_group: groups['role:nobody'],
      can_subscribe_group: groups['role:nobody'],
      can_remove_subscribers_group: groups['role:administrators'],
      can_send_message_group: groups['role:everyone'],
      can_create_topic_group: groups['role:everyone'],
      can_delete_any_message_group: groups['role:nobody'],
      can_delete_own_message_group: groups['role:nobody'],
      can_move_messages_out_of_channel_group: groups['role:nobody'],
      can_move_messages_within_channel_group: groups['role:nobody'],
      can_resolve_topics_group: groups['role:nobody'],
    });
    expect(mine.color).toMatch(/^#[0-9a-f]{6}$/);
    expect(Math.abs(mine.date_created - Date.now() / 1000)).toBeLessThan(120);
  });

  test('subscribing again reports already_subscribed; names match in any letter case', async () => {
    const res = assertSuccess(await sub(member, { subscriptions: [{ name: '  DESIGN ' }] }));
    expect(res.subscribed).toEqual({});
    expect(res.already_subscribed).toEqual({ [String(member.id)]: ['design'] });
  });

  test('several channels in one request, with their own colors', async () => {
    const res = assertSuccess(await sub(other, { subscriptions: [{ name: 'alpha', color: '#123456' }, { name: 'beta' }, { name: 'Alpha' }] }));
    expect(res.subscribed).toEqual({ [String(other.id)]: ['alpha', 'beta'] });
    const colors = Object.fromEntries((await mySubs(other)).map((s: any) => [s.name, s.color]));
    expect(colors.alpha).toBe('#123456');
    expect(colors.beta).not.toBe('#123456');
  });

  test('new subscriptions get colors the user does not use yet', async () => {
    const user = await makeUser(ts, 400);
    assertSuccess(await sub(user, { subscriptions: [{ name: 'color-a' }, { name: 'color-b' }, { name: 'color-c' }] }));
    const colors = (await mySubs(user)).map((s: any) => s.color);
    expect(new Set(colors).size).toBe(3);
  });

  test('a private channel has protected history unless asked otherwise', async () => {
    assertSuccess(await sub(member, { subscriptions: [{ name: 'secret-a' }], invite_only: true }));
    assertSuccess(await sub(member, { subscriptions: [{ name: 'secret-b' }], invite_only: true, history_public_to_subscribers: true }));
    const subs = await mySubs(member);
    expect(subs.find((s: any) => s.name === 'secret-a')).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    expect(subs.find((s: any) => s.name === 'secret-b')).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
  });

  test('a public channel always has public history', async () => {
    const id = await createChannel(ts, member, 'open-history', { history_public_to_subscribers: false });
    expect((await getStream(id)).history_public_to_subscribers).toBe(true);
  });

  test('topics_policy, folder and permission groups apply to new channels', async () => {
    const [folder] = await ts.server.deps.knex('channel_folders').insert({ realm_id: ts.server.deps.realmId, name: 'Projects' }).returning('id');
    const folderId = typeof folder === 'object' ? folder.id : folder;
    const id = await createChannel(ts, member, 'configured', {
      topics_policy: JSON.stringify('disable_empty_topic'),
      folder_id: folderId,
      can_send_message_group: groups['role:administrators'],
      can_add_subscribers_group: { direct_members: [other.id], direct_subgroups: [groups['role:moderators']] },
      can_remove_subscribers_group: { direct_members: [], direct_subgroups: [groups['role:moderators']] },
    });
    expect(await getStream(id)).toMatchObject({
      topics_policy: 'disable_empty_topic',
      folder_id: folderId,
      can_send_message_group: groups['role:administrators'],
      stream_post_policy: 2,
      is_announcement_only: true,
      can_add_subscribers_group: { direct_members: [other.id], direct_subgroups: [groups['role:moderators']] },
      // A lone subgroup is stored as the group itself.
      can_remove_subscribers_group: groups['role:moderators'],
    });
  });

  test('organization owners may set a retention period', async () => {
    const days = await createChannel(ts, ts.owner, 'kept-30', { message_retention_days: 30 });
    const forever = await createChannel(ts, ts.owner, 'kept-forever', { message_retention_days: 'unlimited' });
    const inherit = await createChannel(ts, ts.owner, 'kept-default', { message_retention_days: 'realm_default' });
    expect((await getStream(days)).message_retention_days).toBe(30);
    expect((await getStream(forever)).message_retention_days).toBe(-1);
    expect((await getStream(inherit)).message_retention_days).toBe(null);
  });
});

describe('refusals', () => {
  test('guests: channels they cannot access are unauthorized, the others are subscribed', async () => {
    await createChannel(ts, ts.owner, 'guest-open');
    await createChannel(ts, ts.owner, 'guest-mine', { principals: [ts.owner.id, guest.id] });
    assertError(await sub(guest, { subscriptions: [{ name: 'guest-open' }] }), 'BAD_REQUEST', 'Unable to access channel (guest-open).');
    const res = assertSuccess(await sub(guest, { subscriptions: [{ name: 'guest-open' }, { name: 'guest-mine' }], authorization_errors_fatal: false }));
    expect(res).toMatchObject({ subscribed: {}, already_subscribed: { [guest.id]: ['guest-mine'] }, unauthorized: ['guest-open'] });
    assertSuccess(await client(ts, ts.owner).delete('/users/me/subscriptions', { subscriptions: ['guest-mine'], principals: [guest.id] }));
    // Unsubscribed, the guest no longer has access to the channel.
    assertError(await sub(guest, { subscriptions: [{ name: 'guest-mine' }] }), 'BAD_REQUEST', 'Unable to access channel (guest-mine).');
    assertError(await sub(guest, { subscriptions: [{ name: 'guest-new-channel' }] }), 'BAD_REQUEST', 'Insufficient permission');
  });

  test('channel names', async () => {
    assertError(await sub(member, { subscriptions: [{ name: '   ' }] }), 'BAD_REQUEST', "Channel name can't be empty.");
    assertError(await sub(member, { subscriptions: [{ name: 'x'.repeat(61) }] }), 'BAD_REQUEST', 'Channel name too long (limit: 60 characters).');
    assertError(await sub(member, { subscriptions: [{ name: 'bad\u0001name' }] }), 'BAD_REQUEST', 'Invalid character in channel name, at position 4.');
    assertError(await sub(member, { subscriptions: [{ name: 'ok\uFFFE' }] }), 'BAD_REQUEST', 'Invalid character in channel name, at position 3.');
    // 60 characters is allowed.
    assertSuccess(await sub(member, { subscriptions: [{ name: 'y'.repeat(60) }] }));
  });

  test('parameter shapes', async () => {
    assertError(await sub(member, {}), 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument");
    assertError(await sub(member, { subscriptions: 'design' }), 'INVALID_JSON', 'Argument "subscriptions" is not valid JSON.');
    assertError(await sub(member, { subscriptions: { name: 'x' } }), 'BAD_REQUEST', 'subscriptions is not a list');
    assertError(await sub(member, { subscriptions: [{ description: 'x' }] }), 'BAD_REQUEST', 'name key is missing from subscriptions[0]');
    assertError(
      await sub(member, { subscriptions: [{ name: 'long-desc', description: 'd'.repeat(1025) }] }),
      'BAD_REQUEST',
      'subscriptions[0]["description"] is too long (limit: 1024 characters)',
    );
    assertError(await sub(member, { subscriptions: [{ name: 'c', color: 'red' }] }), 'BAD_REQUEST', 'add.color is not a valid hex color code');
    assertError(
      await sub(member, { subscriptions: [{ name: 'p' }], principals: [1, 'a@b.c'] }),
      'BAD_REQUEST',
      'principals is not a string or an integer list',
    );
    assertError(await sub(member, { subscriptions: [{ name: 'p' }], invite_only: 'yes' }), 'INVALID_JSON', 'Argument "invite_only" is not valid JSON.');
  });

  test('web-public channels are not available on this server', async () => {
    assertError(await sub(ts.owner, { subscriptions: [{ name: 'spectators' }], is_web_public: true }), 'BAD_REQUEST', 'Web-public channels are not enabled.');
  });

  test('retention periods are for owners, with Zulip’s value checks', async () => {
    assertError(
      await sub(admin, { subscriptions: [{ name: 'retained' }], message_retention_days: 10 }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    const bad = await sub(ts.owner, { subscriptions: [{ name: 'retained' }], message_retention_days: 'forever' });
    assertError(bad, 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_retention_days': forever");
    expect(bad.body).toMatchObject({ var_name: 'message_retention_days', bad_value: 'forever' });
    assertError(
      await sub(ts.owner, { subscriptions: [{ name: 'retained' }], message_retention_days: 0 }),
      'REQUEST_VARIABLE_INVALID',
      "Bad value for 'message_retention_days': 0",
    );
  });

  test('topics_policy must be a known JSON-encoded value', async () => {
    assertError(await sub(member, { subscriptions: [{ name: 'tp' }], topics_policy: JSON.stringify('sometimes') }), 'BAD_REQUEST', 'Invalid topics_policy');
    assertError(
      await sub(member, { subscriptions: [{ name: 'tp' }], topics_policy: 'inherit' }),
      'INVALID_JSON',
      'Argument "topics_policy" is not valid JSON.',
    );
  });

  test('an unknown folder', async () => {
    assertError(await sub(member, { subscriptions: [{ name: 'foldered' }], folder_id: 99999 }), 'BAD_REQUEST', 'Invalid channel folder ID');
  });

  test('permission group values', async () => {
    const s = { subscriptions: [{ name: 'perm' }] };
    assertError(
      await sub(member, { ...s, can_add_subscribers_group: groups['role:everyone'] }),
      'BAD_REQUEST',
      "'can_add_subscribers_group' setting cannot be set to 'role:everyone' group.",
    );
    assertError(
      await sub(member, { ...s, can_send_message_group: groups['role:internet'] }),
      'BAD_REQUEST',
      "'can_send_message_group' setting cannot be set to 'role:internet' group.",
    );
    assertError(await sub(member, { ...s, can_send_message_group: 99999 }), 'BAD_REQUEST', 'Invalid user group');
    assertError(
      await sub(member, { ...s, can_send_message_group: { direct_members: [99999], direct_subgroups: [] } }),
      'BAD_REQUEST',
      'Invalid user ID: 99999',
    );
    assertError(
      await sub(member, { ...s, can_send_message_group: { direct_members: [], direct_subgroups: [99999, 99998] } }),
      'BAD_REQUEST',
      'Invalid user group ID: 99999',
    );
    assertError(
      await sub(member, { ...s, can_send_message_group: { direct_members: [] } }),
      'BAD_REQUEST',
      'direct_subgroups key is missing from can_send_message_group',
    );
    assertError(await sub(member, { ...s, can_send_message_group: 'admins' }), 'INVALID_JSON', 'Argument "can_send_message_group" is not valid JSON.');
    // Granting message deletion needs the organization's delete-policy permission (moderators).
    assertError(await sub(member, { ...s, can_delete_any_message_group: groups['role:members'] }), 'BAD_REQUEST', 'Insufficient permission');
    const id = await createChannel(ts, moderator, 'moderated-deletes', { can_delete_own_message_group: groups['role:members'] });
    expect((await getStream(id)).can_delete_own_message_group).toBe(groups['role:members']);
    // With protected history, everyone must be able to start topics.
    assertError(
      await sub(member, { ...s, invite_only: true, can_create_topic_group: groups['role:members'] }),
      'BAD_REQUEST',
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    const rows = await ts.server.deps.knex('streams').whereRaw("lower(name) = 'perm'");
    expect(rows).toHaveLength(0);
  });

  test('a failed request creates nothing', async () => {
    assertError(await sub(member, { subscriptions: [{ name: 'rolled-back' }], principals: [99999] }), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, member).get('/get_stream_id', { stream: 'rolled-back' }), 'BAD_REQUEST', "Invalid channel name 'rolled-back'");
  });
});

describe('private channels and subscribing others', () => {
  let secret: number;
  beforeAll(async () => {
    secret = await createChannel(ts, member, 'inner-circle', { invite_only: true });
  });

  test('a non-subscriber cannot join a private channel', async () => {
    assertError(await sub(other, { subscriptions: [{ name: 'inner-circle' }] }), 'BAD_REQUEST', 'Unable to access channel (inner-circle).');
    // Even organization administrators need to be added.
    assertError(await sub(admin, { subscriptions: [{ name: 'inner-circle' }] }), 'BAD_REQUEST', 'Unable to access channel (inner-circle).');
  });

  test('authorization_errors_fatal=false lists the refused channels instead', async () => {
    const res = assertSuccess(await sub(other, { subscriptions: [{ name: 'inner-circle' }, { name: 'design' }], authorization_errors_fatal: false }));
    expect(res).toMatchObject({ subscribed: { [String(other.id)]: ['design'] }, already_subscribed: {}, unauthorized: ['inner-circle'] });
  });

  test('subscribers add others by id or email; responses are keyed by user id', async () => {
    const third = await makeUser(ts, 400);
    const res = assertSuccess(await sub(member, { subscriptions: [{ name: 'inner-circle' }], principals: [other.id, third.id] }));
    expect(res.subscribed).toEqual({ [String(other.id)]: ['inner-circle'], [String(third.id)]: ['inner-circle'] });
    const again = assertSuccess(await sub(member, { subscriptions: [{ name: 'inner-circle' }], principals: [third.email.toUpperCase()] }));
    expect(again.already_subscribed).toEqual({ [String(third.id)]: ['inner-circle'] });
    expect(assertSuccess(await client(ts, member).get(`/streams/${secret}/members`)).subscribers).toEqual(
      [member.id, other.id, third.id].sort((a, b) => a - b),
    );
  });

  test('principals must be active users of the organization', async () => {
    const gone = await makeUser(ts, 400);
    await deactivateUser(ts.server.deps, null, gone.id);
    assertError(await sub(member, { subscriptions: [{ name: 'design' }], principals: [gone.id] }), 'BAD_REQUEST', 'User is deactivated');
    assertError(await sub(member, { subscriptions: [{ name: 'design' }], principals: ['nobody@example.com'] }), 'BAD_REQUEST', 'No such user');
    assertError(await sub(member, { subscriptions: [{ name: 'design' }], principals: [99999] }), 'BAD_REQUEST', 'No such user');
  });

  test('a guest can be subscribed by others', async () => {
    const res = assertSuccess(await sub(member, { subscriptions: [{ name: 'design' }], principals: [guest.id] }));
    expect(res.subscribed).toEqual({ [String(guest.id)]: ['design'] });
  });

  test('creating a channel for someone else leaves the creator unsubscribed but its administrator', async () => {
    const res = assertSuccess(await sub(member, { subscriptions: [{ name: 'for-other' }], principals: [other.id] }));
    expect(res.subscribed).toEqual({ [String(other.id)]: ['for-other'] });
    const stream = (await mySubs(other)).find((s: any) => s.name === 'for-other');
    expect(stream.subscribers).toEqual([other.id]);
    expect(stream.can_administer_channel_group).toEqual({ direct_members: [member.id], direct_subgroups: [] });
  });

  test('can_subscribe_group lets its members join a private channel; can_add_subscribers_group lets them add others', async () => {
    const joiner = await makeUser(ts, 400);
    const adder = await makeUser(ts, 400);
    const outsider = await makeUser(ts, 400);
    await createChannel(ts, member, 'by-invitation', {
      invite_only: true,
      can_subscribe_group: { direct_members: [joiner.id], direct_subgroups: [] },
      can_add_subscribers_group: { direct_members: [adder.id], direct_subgroups: [] },
    });
    assertSuccess(await sub(joiner, { subscriptions: [{ name: 'by-invitation' }] }));
    const res = assertSuccess(await sub(adder, { subscriptions: [{ name: 'by-invitation' }], principals: [outsider.id] }));
    expect(res.subscribed).toEqual({ [String(outsider.id)]: ['by-invitation'] });
  });

  test('subscribing oneself by id is not subscribing others', async () => {
    const res = assertSuccess(await sub(member, { subscriptions: [{ name: 'self-by-id' }], principals: [member.id] }));
    expect(res.subscribed).toEqual({ [String(member.id)]: ['self-by-id'] });
  });
});
