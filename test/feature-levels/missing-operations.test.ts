import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyAction, verifyActionFor } from '../helpers/events';
import { systemGroups } from '../helpers/groups';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Operations of Zulip feature levels 416 and 417 that clients written against them call.
let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

const subscribedIds = async (who: TestUser): Promise<number[]> =>
  (assertSuccess(await client(ts, who).get('/users/me/subscriptions')).subscriptions as { stream_id: number }[]).map((s) => s.stream_id);

describe('417: POST /channels/create', () => {
  test('creates a channel with exactly the listed subscribers, announced by events to everyone concerned', async () => {
    let id = 0;
    const [aliceEvents, bobEvents] = await verifyActionFor(ts, [alice, bob], async () => {
      const res = await client(ts, alice).post('/channels/create', { name: 'music_group', description: 'All things **music**', subscribers: [bob.id] });
      id = assertSuccess(res).id;
      return res;
    });
    expect(typeof id).toBe('number');
    expect(aliceEvents.map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/peer_add']);
    expect(bobEvents.map((e) => `${e.type}/${e.op}`)).toEqual(expect.arrayContaining(['stream/create', 'subscription/add']));
    expect(await subscribedIds(bob)).toContain(id);
    expect(await subscribedIds(alice)).not.toContain(id);
    const channel = assertSuccess(await client(ts, alice).get(`/streams/${id}`)).stream;
    expect(channel).toMatchObject({ name: 'music_group', description: 'All things **music**', invite_only: false, creator_id: alice.id });
    expect(channel.rendered_description).toContain('<strong>music</strong>');
  });

  test('an empty subscriber list creates a channel nobody is subscribed to; settings are applied', async () => {
    const res = await client(ts, admin).post('/channels/create', {
      name: 'level-417-private',
      subscribers: [],
      invite_only: true,
      history_public_to_subscribers: true,
      can_send_message_group: groups['role:administrators'],
    });
    const id = assertSuccess(res).id;
    expect(assertSuccess(await client(ts, admin).get(`/streams/${id}/members`)).subscribers).toEqual([]);
    const channel = assertSuccess(await client(ts, admin).get(`/streams/${id}`)).stream;
    expect(channel).toMatchObject({ invite_only: true, history_public_to_subscribers: true, can_send_message_group: groups['role:administrators'] });
    // Members do not learn of a private channel they are not in.
    assertError(await client(ts, alice).get(`/streams/${id}`), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('is_default_stream makes it a default channel (administrators only), with a default_streams event', async () => {
    let id = 0;
    const events = await verifyAction(ts, alice, async () => {
      const res = await client(ts, admin).post('/channels/create', { name: 'level-417-default', subscribers: [], is_default_stream: true });
      id = assertSuccess(res).id;
      return res;
    });
    expect(events.find((e) => e.type === 'default_streams')?.default_streams).toContain(id);
    assertError(
      await client(ts, alice).post('/channels/create', { name: 'level-417-not-default', subscribers: [], is_default_stream: true }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    assertError(
      await client(ts, admin).post('/channels/create', { name: 'level-417-private-default', subscribers: [], is_default_stream: true, invite_only: true }),
      'BAD_REQUEST',
      'Private channels cannot be made default.',
    );
  });

  test('announce: the notification bot announces the channel where the organization wants new channels announced', async () => {
    const target = assertSuccess(await client(ts, admin).post('/channels/create', { name: 'level-417-announcements', subscribers: [admin.id] })).id;
    assertSuccess(await client(ts, admin).patch('/realm', { new_stream_announcements_stream_id: target }));
    assertSuccess(await client(ts, alice).post('/channels/create', { name: 'level-417-announced', subscribers: [], announce: true }));
    const narrow = JSON.stringify([{ operator: 'channel', operand: target }]);
    const { messages } = assertSuccess(
      await client(ts, admin).get('/messages', { anchor: 'newest', num_before: 1, num_after: 0, narrow, apply_markdown: 'false' }),
    );
    expect(messages[0].sender_email).toBe('notification-bot@zulip.com');
    expect(messages[0].content).toContain('#**level-417-announced**');
  });

  test('refusals change nothing', async () => {
    const before = Number((await ts.server.deps.knex('streams').count('id as n').first())!.n);
    assertError(
      await client(ts, bob).post('/channels/create', { name: 'MUSIC_group', subscribers: [] }),
      'CHANNEL_ALREADY_EXISTS',
      "Channel 'MUSIC_group' already exists",
    );
    assertError(await client(ts, bob).post('/channels/create', { name: 'level-417-nobody', subscribers: [999999] }), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, bob).post('/channels/create', { name: '  ', subscribers: [] }), 'BAD_REQUEST', "Channel name can't be empty.");
    expect((await client(ts, bob).post('/channels/create', { name: 'level-417-no-subscribers' })).status).toBe(400);
    assertError(await client(ts, guest).post('/channels/create', { name: 'level-417-guest', subscribers: [] }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(
      await client(ts, bob).post('/channels/create', { name: 'level-417-retention', subscribers: [], message_retention_days: 30 }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expect(Number((await ts.server.deps.knex('streams').count('id as n').first())!.n)).toBe(before);
  });

  test('GraphQL createChannel', async () => {
    const mutation = 'mutation($input: CreateChannelInput!) { createChannel(input: $input) }';
    const res = await graphql(ts, alice, mutation, { input: { name: 'level-417-graphql', subscriberIds: [alice.id], inviteOnly: true } });
    const id = res.data?.createChannel as number;
    expect(await subscribedIds(alice)).toContain(id);
    expect(assertSuccess(await client(ts, alice).get(`/streams/${id}`)).stream.invite_only).toBe(true);
    const again = await graphql(ts, alice, mutation, { input: { name: 'level-417-graphql', subscriberIds: [] } });
    expect(graphqlError(again)).toEqual({ message: "Channel 'level-417-graphql' already exists", code: 'CHANNEL_ALREADY_EXISTS' });
  });
});

describe('416: POST /realm/test_welcome_bot_custom_message', () => {
  test('the Welcome Bot sends the administrator the custom text, with the message events', async () => {
    let messageId = 0;
    const events = await verifyAction(ts, admin, async () => {
      const res = await client(ts, admin).post('/realm/test_welcome_bot_custom_message', { welcome_message_custom_text: 'Read #**general** first.' });
      messageId = assertSuccess(res).message_id;
      return res;
    });
    expect(events.find((e) => e.type === 'message')?.message.id).toBe(messageId);
    const { message } = assertSuccess(await client(ts, admin).get(`/messages/${messageId}`, { apply_markdown: 'false' }));
    expect(message.sender_email).toBe('welcome-bot@zulip.com');
    expect(message.type).toBe('private');
    expect(message.content).toContain('Read #**general** first.');
    const bots = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: '["realm_user"]' })).cross_realm_bots;
    expect(bots.map((b: { email: string }) => b.email)).toEqual(expect.arrayContaining(['notification-bot@zulip.com', 'welcome-bot@zulip.com']));
  });

  test('administrators only; the text must be given, not empty and at most 8000 characters', async () => {
    const send = (who: TestUser, params: Record<string, unknown>) => client(ts, who).post('/realm/test_welcome_bot_custom_message', params);
    assertError(await send(alice, { welcome_message_custom_text: 'hi' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(await send(admin, { welcome_message_custom_text: '' }), 'BAD_REQUEST', 'Message must not be empty');
    assertError(await send(admin, {}), 'REQUEST_VARIABLE_MISSING', "Missing 'welcome_message_custom_text' argument");
    assertError(
      await send(admin, { welcome_message_custom_text: 'x'.repeat(8001) }),
      'BAD_REQUEST',
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
  });

  test('GraphQL testWelcomeBotMessage', async () => {
    const mutation = 'mutation($text: String!) { testWelcomeBotMessage(welcomeMessageCustomText: $text) }';
    const res = await graphql(ts, admin, mutation, { text: 'Hello from GraphQL' });
    const id = res.data?.testWelcomeBotMessage as number;
    expect(assertSuccess(await client(ts, admin).get(`/messages/${id}`, { apply_markdown: 'false' })).message.content).toContain('Hello from GraphQL');
    expect(graphqlError(await graphql(ts, alice, mutation, { text: 'nope' }))).toEqual({
      message: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
  });
});
