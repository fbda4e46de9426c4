import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { createChannel } from './helpers';

let ts: TestServer;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let guest: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  other = await makeUser(ts, 400);
  admin = await makeUser(ts, 200);
  guest = await makeUser(ts, 600);
  groups = await systemGroups(ts);
}, 120_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

const stream = async (id: number) => assertSuccess(await client(ts, ts.owner).get(`/streams/${id}`)).stream;
const mySub = async (who: TestUser, id: number) =>
  assertSuccess(await client(ts, who).get('/users/me/subscriptions')).subscriptions.find((s: any) => s.stream_id === id);
const patch = (who: TestUser, id: number, params: Record<string, unknown>) => client(ts, who).patch(`/streams/${id}`, params);

describe('DELETE /users/me/subscriptions', () => {
  test('unsubscribing oneself, then again', async () => {
    await createChannel(ts, member, 'leave-me');
    expect(assertSuccess(await client(ts, member).delete('/users/me/subscriptions', { subscriptions: ['leave-me'] }))).toEqual({
      result: 'success',
      msg: '',
      removed: ['leave-me'],
      not_removed: [],
    });
    expect(assertSuccess(await client(ts, member).delete('/users/me/subscriptions', { subscriptions: [' LEAVE-ME '] }))).toMatchObject({
      removed: [],
      not_removed: ['leave-me'],
    });
  });

  test('missing channels are named', async () => {
    assertError(await client(ts, member).delete('/users/me/subscriptions', { subscriptions: ['nope'] }), 'BAD_REQUEST', 'Channel(s) (nope) do not exist');
    assertError(
      await client(ts, member).delete('/users/me/subscriptions', { subscriptions: ['nope', 'nada'] }),
      'BAD_REQUEST',
      'Channel(s) (nope, nada) do not exist',
    );
    assertError(await client(ts, member).delete('/users/me/subscriptions', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'subscriptions' argument");
    assertError(await client(ts, member).delete('/users/me/subscriptions', { subscriptions: [''] }), 'BAD_REQUEST', "Channel name can't be empty.");
  });

  test('removing others: organization administrators and the channel’s administrators', async () => {
    await createChannel(ts, member, 'removals', { principals: [member.id, other.id, guest.id] });
    // A plain member may not remove someone else…
    assertError(
      await client(ts, other).delete('/users/me/subscriptions', { subscriptions: ['removals'], principals: [guest.id] }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
    // …but the channel's creator administers it, and an administrator may too.
    expect(assertSuccess(await client(ts, member).delete('/users/me/subscriptions', { subscriptions: ['removals'], principals: [guest.id] })).removed).toEqual([
      'removals',
    ]);
    expect(
      assertSuccess(await client(ts, admin).delete('/users/me/subscriptions', { subscriptions: ['removals'], principals: [other.email] })).removed,
    ).toEqual(['removals']);
    const members = assertSuccess(await client(ts, member).get(`/streams/${await idOf('removals')}/members`)).subscribers;
    expect(members).toEqual([member.id]);
  });

  test('principals are validated', async () => {
    assertError(await client(ts, admin).delete('/users/me/subscriptions', { subscriptions: ['removals'], principals: [99999] }), 'BAD_REQUEST', 'No such user');
  });

  test('guests may leave channels', async () => {
    await createChannel(ts, member, 'guest-leaves', { principals: [member.id, guest.id] });
    expect(assertSuccess(await client(ts, guest).delete('/users/me/subscriptions', { subscriptions: ['guest-leaves'] })).removed).toEqual(['guest-leaves']);
  });

  test('after leaving a private channel it is gone for the user', async () => {
    const id = await createChannel(ts, member, 'private-leave', { invite_only: true, principals: [member.id, other.id] });
    assertSuccess(await client(ts, other).delete('/users/me/subscriptions', { subscriptions: ['private-leave'] }));
    assertError(await client(ts, other).get(`/streams/${id}`), 'BAD_REQUEST', 'Invalid channel ID');
  });
});

async function idOf(name: string): Promise<number> {
  return assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: name })).stream_id;
}

describe('POST /users/me/subscriptions/properties', () => {
  let id: number;
  beforeAll(async () => {
    id = await createChannel(ts, member, 'settings-room');
  });
  const set = (data: unknown, who = member) => client(ts, who).post('/users/me/subscriptions/properties', { subscription_data: data });

  test('every property', async () => {
    assertSuccess(
      await set([
        { stream_id: id, property: 'color', value: '#abcdef' },
        { stream_id: id, property: 'pin_to_top', value: true },
        { stream_id: id, property: 'desktop_notifications', value: true },
        { stream_id: id, property: 'audible_notifications', value: false },
        { stream_id: id, property: 'push_notifications', value: true },
        { stream_id: id, property: 'email_notifications', value: false },
        { stream_id: id, property: 'wildcard_mentions_notify', value: true },
        { stream_id: id, property: 'is_muted', value: true },
      ]),
    );
    expect(await mySub(member, id)).toMatchObject({
      color: '#abcdef',
      pin_to_top: true,
      desktop_notifications: true,
      audible_notifications: false,
      push_notifications: true,
      email_notifications: false,
      wildcard_mentions_notify: true,
      is_muted: true,
      in_home_view: false,
    });
    assertSuccess(await set([{ stream_id: id, property: 'in_home_view', value: true }]));
    expect(await mySub(member, id)).toMatchObject({ is_muted: false, in_home_view: true });
  });

  test('value and property checks', async () => {
    assertError(await set([{ stream_id: id, property: 'color', value: 'blue' }]), 'BAD_REQUEST', 'color is not a valid hex color code');
    assertError(await set([{ stream_id: id, property: 'pin_to_top', value: 'yes' }]), 'BAD_REQUEST', 'pin_to_top is not a boolean');
    assertError(await set([{ stream_id: id, property: 'volume', value: true }]), 'BAD_REQUEST', 'Unknown subscription property: volume');
    assertError(await set([{ stream_id: id, property: 'color' }]), 'BAD_REQUEST', 'value key is missing from subscription_data[0]');
    assertError(await set({ stream_id: id }), 'BAD_REQUEST', 'subscription_data is not a list');
    assertError(await set([{ stream_id: 'x', property: 'color', value: '#fff' }]), 'BAD_REQUEST', 'subscription_data[0]["stream_id"] is not an integer');
  });

  test('only for channels one is subscribed to and can see', async () => {
    assertError(await set([{ stream_id: id, property: 'pin_to_top', value: true }], other), 'BAD_REQUEST', `Not subscribed to channel ID ${id}`);
    assertError(await set([{ stream_id: 99999, property: 'pin_to_top', value: true }]), 'BAD_REQUEST', 'Invalid channel ID');
    const secret = await createChannel(ts, member, 'settings-secret', { invite_only: true });
    assertError(await set([{ stream_id: secret, property: 'pin_to_top', value: true }], other), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('one property at a time through POST /users/me/subscriptions/{stream_id}', async () => {
    assertSuccess(await client(ts, member).post(`/users/me/subscriptions/${id}`, { property: 'pin_to_top', value: 'false' }));
    assertSuccess(await client(ts, member).post(`/users/me/subscriptions/${id}`, { property: 'color', value: '#a1b2c3' }));
    expect(await mySub(member, id)).toMatchObject({ pin_to_top: false, color: '#a1b2c3' });
    assertError(
      await client(ts, member).post(`/users/me/subscriptions/${id}`, { property: 'pin_to_top', value: 'maybe' }),
      'BAD_REQUEST',
      'pin_to_top is not a boolean',
    );
    assertError(await client(ts, member).post(`/users/me/subscriptions/${id}`, { property: 'color' }), 'REQUEST_VARIABLE_MISSING', "Missing 'value' argument");
    assertSuccess(await client(ts, member).post(`/users/me/subscriptions/${id}`, { property: 'color', value: '#abcdef' }));
  });

  test('all changes apply or none', async () => {
    assertError(
      await set([
        { stream_id: id, property: 'color', value: '#000000' },
        { stream_id: 99999, property: 'pin_to_top', value: true },
      ]),
      'BAD_REQUEST',
      'Invalid channel ID',
    );
    expect((await mySub(member, id)).color).toBe('#abcdef');
  });
});

describe('PATCH /streams/{stream_id}', () => {
  test('renaming', async () => {
    const id = await createChannel(ts, member, 'old-name');
    assertSuccess(await patch(member, id, { new_name: '  new-name  ' }));
    expect((await stream(id)).name).toBe('new-name');
    assertSuccess(await patch(member, id, { new_name: 'New-Name' }));
    expect((await stream(id)).name).toBe('New-Name');
    assertError(await patch(member, id, { new_name: 'New-Name' }), 'BAD_REQUEST', 'Channel already has that name.');
    assertError(await patch(member, id, { new_name: ' ' }), 'BAD_REQUEST', "Channel name can't be empty.");
    assertError(await patch(member, id, { new_name: 'z'.repeat(61) }), 'BAD_REQUEST', 'Channel name too long (limit: 60 characters).');
    await createChannel(ts, member, 'taken');
    const res = assertError(await patch(member, id, { new_name: 'TAKEN' }), 'CHANNEL_ALREADY_EXISTS', "Channel 'TAKEN' already exists");
    expect(res.channel_name).toBe('TAKEN');
  });

  test('a name taken by a channel the caller cannot see is not revealed', async () => {
    await createChannel(ts, admin, 'hidden-name', { invite_only: true });
    const id = await createChannel(ts, member, 'wants-hidden-name');
    assertError(await patch(member, id, { new_name: 'hidden-name' }), 'BAD_REQUEST', 'Permission denied');
  });

  test('description', async () => {
    const id = await createChannel(ts, member, 'described');
    assertSuccess(await patch(member, id, { description: 'Line one\nline *two* <b>' }));
    expect(await stream(id)).toMatchObject({
      description: 'Line one line *two* <b>',
      rendered_description: '<p>Line one line <em>two</em> &lt;b&gt;</p>',
    });
    // Channel links resolve to channels the writer can see; others stay text.
    await createChannel(ts, admin, 'described-secret', { invite_only: true });
    assertSuccess(await patch(member, id, { description: 'See #**described** :smile: #**described-secret**' }));
    expect((await stream(id)).rendered_description).toBe(
      `<p>See <a class="stream" data-stream-id="${id}" href="/#narrow/channel/${id}-described">#described</a> ` +
        '<span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> #<strong>described-secret</strong></p>',
    );
    assertSuccess(await patch(member, id, { description: '' }));
    expect(await stream(id)).toMatchObject({ description: '', rendered_description: '' });
    assertError(await patch(member, id, { description: 'd'.repeat(1025) }), 'BAD_REQUEST', 'description is too long (limit: 1024 characters)');
  });

  test('who may change a channel', async () => {
    const id = await createChannel(ts, member, 'guarded');
    const secret = await createChannel(ts, member, 'guarded-secret', { invite_only: true });
    assertError(await patch(other, id, { description: 'x' }), 'BAD_REQUEST', 'You do not have permission to administer this channel.');
    assertError(await patch(other, secret, { description: 'x' }), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await patch(guest, id, { description: 'x' }), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await patch(other, 99999, { description: 'x' }), 'BAD_REQUEST', 'Invalid channel ID');
    // Organization administrators administer every channel, even private ones they are not in.
    assertSuccess(await patch(admin, id, { description: 'by admin' }));
    assertSuccess(await patch(admin, secret, { new_name: 'guarded-secret-2' }));
    expect((await stream(secret)).name).toBe('guarded-secret-2');
    // Channel administrators through can_administer_channel_group.
    assertSuccess(await patch(member, id, { can_administer_channel_group: { new: { direct_members: [member.id, other.id], direct_subgroups: [] } } }));
    assertSuccess(await patch(other, id, { description: 'by a channel administrator' }));
  });

  test('privacy', async () => {
    const id = await createChannel(ts, member, 'privacy');
    assertSuccess(await patch(member, id, { is_private: true }));
    expect(await stream(id)).toMatchObject({ invite_only: true, history_public_to_subscribers: false });
    assertSuccess(await patch(member, id, { history_public_to_subscribers: true }));
    expect(await stream(id)).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
    assertSuccess(await patch(member, id, { is_private: false }));
    expect(await stream(id)).toMatchObject({ invite_only: false, history_public_to_subscribers: true });
    assertError(await patch(member, id, { history_public_to_subscribers: false }), 'BAD_REQUEST', 'Invalid parameters');
    assertError(await patch(member, id, { is_private: false, history_public_to_subscribers: false }), 'BAD_REQUEST', 'Invalid parameters');
    assertError(await patch(member, id, { is_web_public: true }), 'BAD_REQUEST', 'Web-public channels are not enabled.');
    assertError(await patch(member, id, { is_web_public: true, is_private: true }), 'BAD_REQUEST', 'Invalid parameters');
  });

  test('changing privacy needs access to the content', async () => {
    const secret = await createChannel(ts, member, 'content-only', { invite_only: true });
    assertError(await patch(admin, secret, { is_private: false }), 'BAD_REQUEST', 'Channel content access is required.');
    assertError(await patch(admin, secret, { can_subscribe_group: { new: groups['role:members'] } }), 'BAD_REQUEST', 'Channel content access is required.');
  });

  test('retention is for owners', async () => {
    const id = await createChannel(ts, member, 'retention');
    assertError(await patch(admin, id, { message_retention_days: 5 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    assertSuccess(await patch(ts.owner, id, { message_retention_days: 5 }));
    expect((await stream(id)).message_retention_days).toBe(5);
    assertSuccess(await patch(ts.owner, id, { message_retention_days: 'realm_default' }));
    expect((await stream(id)).message_retention_days).toBe(null);
    assertError(await patch(ts.owner, id, { message_retention_days: -5 }), 'REQUEST_VARIABLE_INVALID', "Bad value for 'message_retention_days': -5");
  });

  test('topics policy', async () => {
    const id = await createChannel(ts, member, 'topics');
    assertSuccess(await patch(member, id, { topics_policy: 'disable_empty_topic' }));
    expect((await stream(id)).topics_policy).toBe('disable_empty_topic');
    // Allowed while every message (there are none) is in the empty topic.
    assertSuccess(await patch(member, id, { topics_policy: 'empty_topic_only' }));
    expect((await stream(id)).topics_policy).toBe('empty_topic_only');
    assertError(await patch(member, id, { topics_policy: 'never' }), 'BAD_REQUEST', 'Invalid topics_policy');
  });

  test('folders', async () => {
    const [row] = await ts.server.deps.knex('channel_folders').insert({ realm_id: ts.server.deps.realmId, name: 'Teams' }).returning('id');
    const folderId = typeof row === 'object' ? row.id : row;
    const id = await createChannel(ts, member, 'foldered');
    assertSuccess(await patch(member, id, { folder_id: folderId }));
    expect((await stream(id)).folder_id).toBe(folderId);
    assertSuccess(await patch(member, id, { folder_id: null }));
    expect((await stream(id)).folder_id).toBe(null);
    assertError(await patch(member, id, { folder_id: 99999 }), 'BAD_REQUEST', 'Invalid channel folder ID');
  });

  test('permission settings with the expected current value', async () => {
    const id = await createChannel(ts, member, 'perms');
    assertSuccess(await patch(member, id, { can_send_message_group: { new: groups['role:moderators'], old: groups['role:everyone'] } }));
    expect(await stream(id)).toMatchObject({ can_send_message_group: groups['role:moderators'], stream_post_policy: 4 });
    const res = assertError(
      await patch(member, id, { can_send_message_group: { new: groups['role:members'], old: groups['role:everyone'] } }),
      'EXPECTATION_MISMATCH',
      "'old' value does not match the expected value.",
    );
    expect(res.code).toBe('EXPECTATION_MISMATCH');
    assertError(
      await patch(member, id, { can_subscribe_group: { new: groups['role:everyone'] } }),
      'BAD_REQUEST',
      "'can_subscribe_group' setting cannot be set to 'role:everyone' group.",
    );
    assertError(await patch(member, id, { can_send_message_group: { old: 1 } }), 'BAD_REQUEST', 'new key is missing from can_send_message_group');
    assertError(
      await patch(member, id, { is_private: true, can_create_topic_group: { new: groups['role:members'] } }),
      'BAD_REQUEST',
      'Unsupported parameter combination: history_public_to_subscribers, can_create_topic_group',
    );
    // Nothing was changed by the refused requests.
    expect((await stream(id)).invite_only).toBe(false);
  });
});

describe('archiving', () => {
  test('DELETE /streams/{id} archives and keeps the subscribers', async () => {
    const id = await createChannel(ts, member, 'to-archive', { principals: [member.id, other.id] });
    assertError(await client(ts, other).delete(`/streams/${id}`), 'BAD_REQUEST', 'You do not have permission to administer this channel.');
    assertSuccess(await client(ts, member).delete(`/streams/${id}`));
    assertError(await client(ts, member).delete(`/streams/${id}`), 'BAD_REQUEST', 'Channel is already deactivated');
    const archived = assertSuccess(await client(ts, member).get('/streams', { exclude_archived: false })).streams.find((s: any) => s.stream_id === id);
    expect(archived).toMatchObject({ is_archived: true, subscriber_count: 2 });
    const count = await ts.server.deps.knex('subscriptions').where({ stream_id: id, active: true }).count('* as n').first();
    expect(Number(count!.n)).toBe(2);
  });

  test('unarchiving through PATCH is_archived=false', async () => {
    const id = await createChannel(ts, member, 'comeback');
    assertError(await patch(member, id, { is_archived: false }), 'BAD_REQUEST', 'Channel is not currently deactivated');
    assertSuccess(await client(ts, admin).delete(`/streams/${id}`));
    assertSuccess(await patch(admin, id, { is_archived: false }));
    expect((await stream(id)).is_archived).toBe(false);
  });

  test('a private channel without subscribers cannot come back', async () => {
    const id = await createChannel(ts, member, 'lonely', { invite_only: true });
    assertSuccess(await client(ts, member).delete(`/streams/${id}`));
    assertSuccess(await client(ts, member).delete('/users/me/subscriptions', { subscriptions: ['lonely'] }));
    assertError(await patch(admin, id, { is_archived: false }), 'BAD_REQUEST', 'Channel is private and have no subscribers');
  });
});
