import { deleteExpiredMessages } from '../../src/core/realm/retention';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents, verifyAction } from '../helpers/events';
import { systemGroups } from '../helpers/groups';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Zulip's API changelog, feature levels 448, 452, 457, 459 and 475, each checked through the API.
let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  carol = await makeUser(ts, 400);
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

async function createChannel(name: string, principals: number[], extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals, ...extra }));
  return (await ts.server.deps.knex('streams').where({ name }).first('id')).id;
}
const sendTo = async (who: TestUser, to: number | number[], topic = 'general') =>
  assertSuccess(
    await client(ts, who).post('/messages', Array.isArray(to) ? { type: 'direct', to, content: 'hello' } : { type: 'stream', to, topic, content: 'hello' }),
  ).id as number;
const exists = async (id: number) => (await ts.server.deps.knex('messages').where({ id }).first('id')) !== undefined;
const deletedIds = (events: Record<string, any>[]) => events.filter((e) => e.type === 'delete_message').flatMap((e) => e.message_ids ?? [e.message_id]);

describe('448: a channel email address only for those who may post there', () => {
  test('a subscriber who may not post is refused; one who may gets the address', async () => {
    const id = await createChannel('level-448-announce', [alice.id, admin.id], { can_send_message_group: groups['role:administrators'] });
    assertError(await client(ts, alice).get(`/streams/${id}/email_address`), 'BAD_REQUEST', 'You do not have permission to post in this channel.');
    expect(assertSuccess(await client(ts, admin).get(`/streams/${id}/email_address`)).email).toBe('');
    const res = await graphql(ts, alice, 'query($id: Int!) { channelEmailAddress(streamId: $id) }', { id });
    expect(graphqlError(res).message).toBe('You do not have permission to post in this channel.');
    expect((await graphql(ts, admin, 'query($id: Int!) { channelEmailAddress(streamId: $id) }', { id })).data?.channelEmailAddress).toBe('');
  });

  test('metadata access alone is not enough; a channel one cannot see stays invisible', async () => {
    const id = await createChannel('level-448-private', [alice.id], { invite_only: true });
    expect(assertSuccess(await client(ts, alice).get(`/streams/${id}/email_address`)).email).toBe('');
    // An administrator sees the private channel's metadata but may not post without subscribing.
    assertError(await client(ts, admin).get(`/streams/${id}/email_address`), 'BAD_REQUEST', "Not authorized to send to channel 'level-448-private'");
    assertError(await client(ts, bob).get(`/streams/${id}/email_address`), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('a bot chosen as sender must be able to post too (through its owner, as when it sends)', async () => {
    const id = await createChannel('level-448-bots', [alice.id], { can_send_message_group: { direct_members: [alice.id], direct_subgroups: [] } });
    const bot = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Mail bot 448', short_name: 'mail448' }));
    expect(assertSuccess(await client(ts, alice).get(`/streams/${id}/email_address`, { sender_id: bot.user_id })).email).toBe('');
    const adminBot = assertSuccess(await client(ts, admin).post('/bots', { full_name: 'Admin bot 448', short_name: 'admin448' }));
    // The administrator may name any bot, but neither they nor that bot may post here.
    assertError(
      await client(ts, admin).get(`/streams/${id}/email_address`, { sender_id: adminBot.user_id }),
      'BAD_REQUEST',
      'You do not have permission to post in this channel.',
    );
  });
});

describe('452: retention deletes are announced per conversation', () => {
  test('each direct-message conversation is told only of its own messages', async () => {
    const channel = await createChannel('level-452', [alice.id, bob.id]);
    const toBob = await sendTo(alice, [bob.id]);
    const toCarol = await sendTo(alice, [carol.id]);
    const inChannel = await sendTo(alice, channel, 'old topic');
    // Newer messages stay in each conversation and the channel, as clients expect.
    await sendTo(bob, [alice.id]);
    const kept = await sendTo(alice, channel, 'recent');
    const knex = ts.server.deps.knex;
    await knex('messages')
      .whereIn('id', [toBob, toCarol, inChannel])
      .update({ date_sent: new Date(Date.now() - 40 * 24 * 3600 * 1000) });
    const capture = captureEvents(ts);
    try {
      const events = await verifyAction(ts, bob, async () => {
        assertSuccess(await client(ts, ts.owner).patch('/realm', { message_retention_days: 30 }));
        await deleteExpiredMessages(ts.server.deps);
      });
      expect(events.filter((e) => e.type === 'delete_message')).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ message_type: 'private', message_id: toBob }),
          expect.objectContaining({ message_type: 'stream', stream_id: channel, topic: 'old topic', message_id: inChannel }),
        ]),
      );
      expect(deletedIds(events)).not.toContain(toCarol);
      expect(capture.recipientsOf((e) => e.type === 'delete_message' && (e.message_ids as number[]).includes(toCarol))).toEqual(
        [alice.id, carol.id].sort((a, b) => a - b),
      );
    } finally {
      capture.stop();
      assertSuccess(await client(ts, ts.owner).patch('/realm', { message_retention_days: JSON.stringify('unlimited') }));
    }
    expect(await exists(kept)).toBe(true);
    expect(await exists(toBob)).toBe(false);
  });
});

describe('457: the deleter hears only of messages they can access', () => {
  test('an administrator deleting in a public channel they never joined sees the message go', async () => {
    const channel = await createChannel('level-457-public', [alice.id]);
    const id = await sendTo(alice, channel);
    const events = await verifyAction(ts, admin, () => client(ts, admin).delete(`/messages/${id}`));
    expect(deletedIds(events)).toEqual([id]);
  });

  test('deleting a user’s messages tells the administrator of none they could not read', async () => {
    const leaver = await makeUser(ts, 400);
    const open = await createChannel('level-457-open', [leaver.id, bob.id]);
    const closed = await createChannel('level-457-closed', [leaver.id, bob.id], { invite_only: true });
    const publicId = await sendTo(leaver, open);
    const privateId = await sendTo(leaver, closed);
    const directId = await sendTo(leaver, [bob.id]);
    const capture = captureEvents(ts);
    try {
      const events = await verifyAction(ts, admin, () =>
        client(ts, admin).delete(`/users/${leaver.id}`, {
          actions: { delete_public_channel_messages: true, delete_private_channel_messages: true, delete_direct_messages: true },
        }),
      );
      expect(deletedIds(events)).toEqual([publicId]);
      expect(deletedIds(capture.for(bob.id)).sort((a, b) => a - b)).toEqual([publicId, privateId, directId]);
    } finally {
      capture.stop();
    }
  });
});

describe('459: DELETE /users/{user_id} actions', () => {
  test('only the kinds of messages asked for go; the rest stay', async () => {
    const leaver = await makeUser(ts, 400);
    const open = await createChannel('level-459-open', [leaver.id, bob.id]);
    const closed = await createChannel('level-459-closed', [leaver.id, bob.id], { invite_only: true });
    const publicId = await sendTo(leaver, open);
    const privateId = await sendTo(leaver, closed);
    const directId = await sendTo(leaver, [bob.id]);
    const fromBob = await sendTo(bob, open);
    const events = await verifyAction(ts, bob, () => client(ts, admin).delete(`/users/${leaver.id}`, { actions: { delete_public_channel_messages: true } }));
    expect(deletedIds(events)).toEqual([publicId]);
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: leaver.id, is_active: false } }));
    expect([await exists(publicId), await exists(privateId), await exists(directId), await exists(fromBob)]).toEqual([false, true, true, true]);
  });

  test('the profile and every message go, the owned bots’ too, bots first', async () => {
    const leaver = await makeUser(ts, 400);
    const channel = await createChannel('level-459-all', [leaver.id, bob.id]);
    const bot = assertSuccess(await client(ts, leaver).post('/bots', { full_name: 'Leaver bot', short_name: 'leaver459' }));
    const botEmail = (await ts.server.deps.knex('users').where({ id: bot.user_id }).first('delivery_email')).delivery_email as string;
    const botMessage = await sendTo({ ...leaver, id: bot.user_id, email: botEmail, apiKey: bot.api_key }, channel);
    const own = await sendTo(leaver, channel);
    const direct = await sendTo(leaver, [bob.id, carol.id]);
    // Later messages stay, as clients expect.
    await sendTo(bob, [leaver.id, carol.id]);
    const events = await verifyAction(ts, bob, () =>
      client(ts, ts.owner).delete(`/users/${leaver.id}`, {
        actions: { delete_profile: true, delete_public_channel_messages: true, delete_private_channel_messages: true, delete_direct_messages: true },
      }),
    );
    expect(deletedIds(events)).toEqual([botMessage, own, direct]);
    for (const userId of [bot.user_id, leaver.id]) {
      expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: userId, full_name: 'Deleted user' } }));
    }
    const shown = assertSuccess(await client(ts, bob).get(`/users/${leaver.id}`)).user;
    expect(shown).toMatchObject({ full_name: 'Deleted user', is_active: false });
  });

  test('an uploaded avatar is removed with the profile', async () => {
    const leaver = await makeUser(ts, 400);
    await ts.server.deps.knex('users').where({ id: leaver.id }).update({ avatar_source: 'U', avatar_version: 2 });
    const events = await verifyAction(ts, bob, () => client(ts, admin).delete(`/users/${leaver.id}`, { actions: { delete_profile: true } }));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'realm_user', op: 'update', person: expect.objectContaining({ user_id: leaver.id, avatar_version: 3 }) }),
    );
    expect((await ts.server.deps.knex('users').where({ id: leaver.id }).first('avatar_source')).avatar_source).not.toBe('U');
  });

  test('bad actions change nothing', async () => {
    const target = await makeUser(ts, 400);
    const id = await sendTo(target, [bob.id]);
    assertError(
      await client(ts, admin).delete(`/users/${target.id}`, { actions: { delete_direct_messages: 'yes' } }),
      'BAD_REQUEST',
      'actions["delete_direct_messages"] is not a boolean',
    );
    assertError(await client(ts, admin).delete(`/users/${target.id}`, { actions: [true] }), 'BAD_REQUEST', 'actions is not a dict');
    assertError(await client(ts, admin).delete(`/users/${target.id}`, { actions: '{oops' }), 'INVALID_JSON', 'Argument "actions" is not valid JSON.');
    assertError(await client(ts, bob).delete(`/users/${target.id}`, { actions: { delete_direct_messages: true } }), 'BAD_REQUEST', 'Insufficient permission');
    expect(await exists(id)).toBe(true);
    expect((await ts.server.deps.knex('users').where({ id: target.id }).first('is_active')).is_active).toBe(true);
  });

  test('GraphQL deactivateUser takes the same actions', async () => {
    const target = await makeUser(ts, 400);
    const id = await sendTo(target, [bob.id]);
    const kept = await sendTo(target, await createChannel('level-459-graphql', [target.id]));
    const res = await graphql(
      ts,
      admin,
      'mutation($id: Int!) { deactivateUser(id: $id, actions: { deleteDirectMessages: true, deleteProfile: true }) { isActive fullName } }',
      { id: target.id },
    );
    expect(res.data?.deactivateUser).toEqual({ isActive: false, fullName: 'Deleted user' });
    expect([await exists(id), await exists(kept)]).toEqual([false, true]);
  });
});

describe('475: date_joined moves to the first login of an account created through the API', () => {
  const longAgo = new Date('2020-01-02T03:04:05Z');

  test('the first login through POST /fetch_api_key updates it, told to everyone; later logins do not', async () => {
    const email = 'level475-rest@example.com';
    const password = 'level-475-password';
    const userId = assertSuccess(await client(ts, ts.owner).post('/users', { email, password, full_name: 'Level 475' })).user_id as number;
    await ts.server.deps.knex('users').where({ id: userId }).update({ date_joined: longAgo });
    expect(assertSuccess(await client(ts, bob).get(`/users/${userId}`)).user.date_joined).toBe('2020-01-02T03:04:05.000000+00:00');

    const before = Date.now();
    const events = await verifyAction(ts, bob, () => client(ts, null).post('/fetch_api_key', { username: email, password }));
    expect(events).toEqual([expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: userId, date_joined: expect.any(String) } })]);
    const joined = events[0].person.date_joined as string;
    expect(Date.parse(joined)).toBeGreaterThanOrEqual(before - 1000);
    expect(assertSuccess(await client(ts, bob).get(`/users/${userId}`)).user.date_joined).toBe(joined);
    const apiKey = assertSuccess(await client(ts, null).post('/fetch_api_key', { username: email, password })).api_key as string;
    expect(assertSuccess(await client(ts, { email, apiKey }).get('/users/me')).date_joined).toBe(joined);

    const capture = captureEvents(ts);
    assertSuccess(await client(ts, null).post('/fetch_api_key', { username: email, password }));
    capture.stop();
    expect(capture.events('realm_user')).toEqual([]);
  });

  test('accounts not created through the API keep their date_joined', async () => {
    const user = await makeUser(ts, 400);
    await ts.server.deps.knex('users').where({ id: user.id }).update({ date_joined: longAgo });
    const capture = captureEvents(ts);
    assertSuccess(await client(ts, null).post('/fetch_api_key', { username: user.email, password: user.password }));
    capture.stop();
    expect(capture.events('realm_user')).toEqual([]);
    expect(assertSuccess(await client(ts, bob).get(`/users/${user.id}`)).user.date_joined).toBe('2020-01-02T03:04:05.000000+00:00');
  });

  test('GraphQL createUser and fetchApiKey do the same', async () => {
    const email = 'level475-graphql@example.com';
    const password = 'level-475-graphql';
    const created = await graphql(ts, ts.owner, 'mutation($input: CreateUserInput!) { createUser(input: $input) { userId } }', {
      input: { email, password, fullName: 'Level 475 GraphQL' },
    });
    const userId = created.data?.createUser.userId as number;
    await ts.server.deps.knex('users').where({ id: userId }).update({ date_joined: longAgo });
    const events = await verifyAction(ts, bob, () =>
      graphql(ts, null, 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { userId } }', { u: email, p: password }),
    );
    expect(events).toEqual([expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: userId, date_joined: expect.any(String) } })]);
    const shown = await graphql(ts, bob, 'query($id: Int!) { user(id: $id) { dateJoined } }', { id: userId });
    expect(shown.data?.user.dateJoined).toBe(events[0].person.date_joined);
  });
});
