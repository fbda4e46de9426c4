import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { createChannel } from './helpers';

let ts: TestServer;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let guest: TestUser;
let publicId: number;
let privateId: number;
let guestsId: number;
let archivedId: number;

const names = (streams: { name: string }[]) => streams.map((s) => s.name);

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  other = await makeUser(ts, 400);
  admin = await makeUser(ts, 200);
  guest = await makeUser(ts, 600);
  publicId = await createChannel(ts, member, 'lobby');
  privateId = await createChannel(ts, member, 'vault', { invite_only: true });
  guestsId = await createChannel(ts, member, 'guest-room', { principals: [member.id, guest.id] });
  archivedId = await createChannel(ts, member, 'attic');
  assertSuccess(await client(ts, member).delete(`/streams/${archivedId}`));
}, 120_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

describe('GET /streams', () => {
  test('by default: public channels and the caller’s subscriptions, sorted by name, no archived ones', async () => {
    expect(names(assertSuccess(await client(ts, member).get('/streams')).streams)).toEqual(['guest-room', 'lobby', 'vault']);
    expect(names(assertSuccess(await client(ts, other).get('/streams')).streams)).toEqual(['guest-room', 'lobby']);
  });

  test('channel objects carry the documented fields', async () => {
    const [lobby] = assertSuccess(await client(ts, other).get('/streams')).streams.filter((s: any) => s.name === 'lobby');
    expect(Object.keys(lobby).sort()).toEqual(
      [
        'can_add_subscribers_group',
        'can_administer_channel_group',
        'can_create_topic_group',
        'can_delete_any_message_group',
        'can_delete_own_message_group',
        'can_move_messages_out_of_channel_group',
        'can_move_messages_within_channel_group',
        'can_remove_subscribers_group',
        'can_resolve_topics_group',
        'can_send_message_group',
        'can_subscribe_group',
        'creator_id',
        'date_created',
        'description',
        'first_message_id',
        'folder_id',
        'history_public_to_subscribers',
        'invite_only',
        'is_announcement_only',
        'is_archived',
        'is_recently_active',
        'is_web_public',
        'message_retention_days',
        'name',
        'rendered_description',
        'stream_id',
        'stream_post_policy',
        'stream_weekly_traffic',
        'subscriber_count',
        'topics_policy',
      ].sort(),
    );
    expect(lobby).toMatchObject({ stream_id: publicId, description: 'About lobby', rendered_description: '<p>About lobby</p>', subscriber_count: 1 });
  });

  test('guests see only the channels they are subscribed to', async () => {
    expect(names(assertSuccess(await client(ts, guest).get('/streams')).streams)).toEqual(['guest-room']);
    expect(names(assertSuccess(await client(ts, guest).get('/streams', { include_all: true })).streams)).toEqual(['guest-room']);
  });

  test('include_all: administrators see every channel, others what they can see exists', async () => {
    expect(names(assertSuccess(await client(ts, admin).get('/streams', { include_all: true })).streams)).toEqual(['guest-room', 'lobby', 'vault']);
    expect(names(assertSuccess(await client(ts, admin).get('/streams', { include_all_active: true })).streams)).toEqual(['guest-room', 'lobby', 'vault']);
    expect(names(assertSuccess(await client(ts, other).get('/streams', { include_all: true })).streams)).toEqual(['guest-room', 'lobby']);
    // Without include_all an administrator gets the default selection.
    expect(names(assertSuccess(await client(ts, admin).get('/streams')).streams)).toEqual(['guest-room', 'lobby']);
  });

  test('the include_* switches combine as a union', async () => {
    const get = async (who: TestUser, params: Record<string, unknown>) => names(assertSuccess(await client(ts, who).get('/streams', params)).streams);
    expect(await get(member, { include_public: false })).toEqual(['guest-room', 'lobby', 'vault']);
    expect(await get(other, { include_public: false })).toEqual([]);
    expect(await get(member, { include_public: false, include_subscribed: false })).toEqual([]);
    expect(await get(member, { exclude_archived: false })).toEqual(['attic', 'guest-room', 'lobby', 'vault']);
    expect(await get(other, { include_can_access_content: true, include_public: false, include_subscribed: false })).toEqual(['guest-room', 'lobby']);
    expect(await get(member, { include_web_public: true, include_public: false, include_subscribed: false })).toEqual([]);
  });

  test('archived channels say so', async () => {
    const attic = assertSuccess(await client(ts, member).get('/streams', { exclude_archived: false })).streams.find((s: any) => s.name === 'attic');
    expect(attic).toMatchObject({ stream_id: archivedId, is_archived: true });
  });

  test('include_default marks default channels (there are none yet)', async () => {
    const streams = assertSuccess(await client(ts, member).get('/streams', { include_default: true })).streams;
    expect(streams.every((s: any) => s.is_default === false)).toBe(true);
    expect('is_default' in assertSuccess(await client(ts, member).get('/streams')).streams[0]).toBe(false);
  });

  test('boolean parameters must be JSON booleans', async () => {
    assertError(await client(ts, member).get('/streams', { include_all: 'yes' }), 'INVALID_JSON', 'Argument "include_all" is not valid JSON.');
    assertError(await client(ts, member).get('/streams', { include_all: 1 }), 'BAD_REQUEST', 'include_all is not a boolean');
  });
});

describe('GET /streams/{stream_id}', () => {
  test('any channel the caller can see exists', async () => {
    expect(assertSuccess(await client(ts, other).get(`/streams/${publicId}`)).stream).toMatchObject({ stream_id: publicId, name: 'lobby' });
    expect(assertSuccess(await client(ts, member).get(`/streams/${privateId}`)).stream).toMatchObject({ name: 'vault', invite_only: true });
    // Administrators see private channels' metadata without being subscribed.
    expect(assertSuccess(await client(ts, admin).get(`/streams/${privateId}`)).stream.name).toBe('vault');
    expect(assertSuccess(await client(ts, guest).get(`/streams/${guestsId}`)).stream.name).toBe('guest-room');
  });

  test('a private channel is indistinguishable from a missing one', async () => {
    assertError(await client(ts, other).get(`/streams/${privateId}`), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await client(ts, other).get('/streams/99999'), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await client(ts, guest).get(`/streams/${publicId}`), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('an archived channel is found, and says it is archived (feature level 480)', async () => {
    expect(assertSuccess(await client(ts, member).get(`/streams/${archivedId}`)).stream).toMatchObject({ stream_id: archivedId, is_archived: true });
  });

  test('a malformed id is not a route', async () => {
    assertError(await client(ts, member).get('/streams/abc'), 'NOT_FOUND', 'Not Found', 404);
  });
});

describe('GET /get_stream_id', () => {
  test('finds visible channels by name in any letter case', async () => {
    expect(assertSuccess(await client(ts, other).get('/get_stream_id', { stream: 'LOBBY' })).stream_id).toBe(publicId);
    expect(assertSuccess(await client(ts, member).get('/get_stream_id', { stream: 'vault' })).stream_id).toBe(privateId);
  });

  test('invisible, archived and missing channels all answer the same', async () => {
    assertError(await client(ts, other).get('/get_stream_id', { stream: 'vault' }), 'BAD_REQUEST', "Invalid channel name 'vault'");
    assertError(await client(ts, other).get('/get_stream_id', { stream: 'nope' }), 'BAD_REQUEST', "Invalid channel name 'nope'");
    assertError(await client(ts, member).get('/get_stream_id', { stream: 'attic' }), 'BAD_REQUEST', "Invalid channel name 'attic'");
    assertError(await client(ts, member).get('/get_stream_id'), 'REQUEST_VARIABLE_MISSING', "Missing 'stream' argument");
  });
});

describe('GET /streams/{stream_id}/members', () => {
  test('subscribers of a public channel, for any member', async () => {
    expect(assertSuccess(await client(ts, other).get(`/streams/${guestsId}/members`)).subscribers).toEqual([member.id, guest.id].sort((a, b) => a - b));
  });

  test('private channels: subscribers and administrators only', async () => {
    expect(assertSuccess(await client(ts, member).get(`/streams/${privateId}/members`)).subscribers).toEqual([member.id]);
    expect(assertSuccess(await client(ts, admin).get(`/streams/${privateId}/members`)).subscribers).toEqual([member.id]);
    assertError(await client(ts, other).get(`/streams/${privateId}/members`), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('guests only for channels they are in', async () => {
    expect(assertSuccess(await client(ts, guest).get(`/streams/${guestsId}/members`)).subscribers).toContain(guest.id);
    assertError(await client(ts, guest).get(`/streams/${publicId}/members`), 'BAD_REQUEST', 'Invalid channel ID');
  });
});

describe('GET /users/{user_id}/subscriptions/{stream_id}', () => {
  test('reports whether a user is subscribed', async () => {
    expect(assertSuccess(await client(ts, other).get(`/users/${member.id}/subscriptions/${publicId}`)).is_subscribed).toBe(true);
    expect(assertSuccess(await client(ts, other).get(`/users/${other.id}/subscriptions/${publicId}`)).is_subscribed).toBe(false);
    expect(assertSuccess(await client(ts, admin).get(`/users/${member.id}/subscriptions/${privateId}`)).is_subscribed).toBe(true);
  });

  test('errors for unknown users and channels the caller cannot see', async () => {
    assertError(await client(ts, other).get(`/users/99999/subscriptions/${publicId}`), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, other).get(`/users/${member.id}/subscriptions/${privateId}`), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await client(ts, other).get(`/users/${member.id}/subscriptions/99999`), 'BAD_REQUEST', 'Invalid channel ID');
  });
});

describe('GET /users/me/subscriptions', () => {
  test('subscribed channels, with subscribers only when asked, without archived ones', async () => {
    const plain = assertSuccess(await client(ts, member).get('/users/me/subscriptions')).subscriptions;
    expect(names(plain)).toEqual(['guest-room', 'lobby', 'vault']);
    expect(plain.every((s: any) => !('subscribers' in s))).toBe(true);
    const withSubs = assertSuccess(await client(ts, member).get('/users/me/subscriptions', { include_subscribers: true })).subscriptions;
    expect(withSubs.find((s: any) => s.name === 'guest-room').subscribers).toEqual([member.id, guest.id].sort((a, b) => a - b));
    expect(names(assertSuccess(await client(ts, guest).get('/users/me/subscriptions')).subscriptions)).toEqual(['guest-room']);
  });

  test('needs authentication', async () => {
    assertError(await client(ts, null).get('/users/me/subscriptions'), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});
