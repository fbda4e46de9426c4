import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { countStatements } from '../helpers/statements';

/** Operations added for parity with REST, Bearer credentials, and batched object links. */
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let channelId: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'ops-room' }], principals: [alice.id, bob.id] }));
  channelId = assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: 'ops-room' })).stream_id;
}, 120_000);

afterAll(async () => {
  await ts.close();
});

const send = async (who: TestUser, topic: string, content: string) =>
  assertSuccess(await client(ts, who).post('/messages', { type: 'stream', to: channelId, topic, content })).id as number;
const unread = async (who: TestUser) => assertSuccess(await client(ts, who).post('/register', { fetch_event_types: ['message'] })).unread_msgs.count as number;

describe('mark as read', () => {
  test('topic, channel and all, as REST does', async () => {
    await send(bob, 'one', 'a');
    await send(bob, 'two', 'b');
    expect(await unread(alice)).toBe(2);
    const topic = await graphql(ts, alice, `mutation($s: Int!) { markTopicAsRead(streamId: $s, topicName: "one") { complete } }`, { s: channelId });
    expect(topic.data).toEqual({ markTopicAsRead: { complete: true } });
    expect(await unread(alice)).toBe(1);
    const channel = await graphql(ts, alice, `mutation($s: Int!) { markChannelAsRead(streamId: $s) { complete } }`, { s: channelId });
    expect(channel.data).toEqual({ markChannelAsRead: { complete: true } });
    expect(await unread(alice)).toBe(0);
    await send(bob, 'three', 'c');
    expect((await graphql(ts, alice, 'mutation { markAllAsRead { complete } }')).data).toEqual({ markAllAsRead: { complete: true } });
    expect(await unread(alice)).toBe(0);
  });

  test('a narrow, and unknown channels are refused as in REST', async () => {
    const id = await send(bob, 'four', 'd');
    const res = await graphql(
      ts,
      alice,
      `mutation($s: Int!) { updateFlagsForNarrow(narrow: [{ operator: "channel", operandId: $s }], anchor: "newest", numBefore: 10, numAfter: 0, op: "add", flag: "read") {
        processedCount updatedCount lastProcessedId foundNewest } }`,
      { s: channelId },
    );
    expect(res.data!.updateFlagsForNarrow).toMatchObject({ updatedCount: 1, lastProcessedId: id, foundNewest: true });
    expect(await unread(alice)).toBe(0);
    expect(graphqlError(await graphql(ts, alice, 'mutation { markChannelAsRead(streamId: 999999) { complete } }'))).toEqual({
      message: 'Invalid channel ID',
      code: 'BAD_REQUEST',
    });
  });
});

describe('typing', () => {
  test('direct and channel notifications; bad input refused', async () => {
    const direct = await graphql(ts, alice, `mutation($u: [Int!]) { setTyping(op: "start", userIds: $u) { op } }`, { u: [bob.id] });
    expect(direct.errors).toBeUndefined();
    expect(direct.data).toEqual({
      setTyping: { op: 'start' },
    });
    expect((await graphql(ts, alice, `mutation($s: Int) { setTyping(op: "stop", streamId: $s, topic: "t") { op } }`, { s: channelId })).data).toEqual({
      setTyping: { op: 'stop' },
    });
    expect(graphqlError(await graphql(ts, alice, 'mutation { setTyping(op: "begin", userIds: [1]) { op } }')).message).toBe('Invalid op');
    expect(graphqlError(await graphql(ts, alice, 'mutation { setTyping(op: "start") { op } }')).code).toBe('BAD_REQUEST');
  });
});

describe('serverSettings and initialState', () => {
  test('serverSettings needs no credentials and equals GET /server_settings', async () => {
    const rest = assertSuccess(await client(ts, null as never).get('/server_settings'));
    const { result: _r, msg: _m, ...fields } = rest;
    expect((await graphql(ts, null, '{ serverSettings }')).data).toEqual({ serverSettings: fields });
  });

  test('initialState equals POST /register without the queue', async () => {
    const rest = assertSuccess(
      await client(ts, alice).post('/register', { fetch_event_types: ['realm_user', 'subscription'], apply_markdown: true, client_gravatar: false }),
    );
    const res = await graphql(ts, alice, '{ initialState(fetchEventTypes: ["realm_user", "subscription"]) }');
    const state = res.data!.initialState;
    expect(state.queue_id).toBeUndefined();
    expect(state.realm_users).toEqual(rest.realm_users);
    expect(state.subscriptions.map((s: { stream_id: number }) => s.stream_id)).toEqual(rest.subscriptions.map((s: { stream_id: number }) => s.stream_id));
    expect(graphqlError(await graphql(ts, null, '{ initialState }')).code).toBe('UNAUTHORIZED');
  });
});

describe('Bearer credentials', () => {
  test('an API key alone authenticates GraphQL, over HTTP', async () => {
    const res = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${alice.apiKey}` },
      body: JSON.stringify({ query: '{ me { id email } }' }),
    });
    expect(await res.json()).toEqual({ data: { me: { id: String(alice.id), email: alice.email } } });
  });

  test('a wrong key is refused, and REST keeps to Basic', async () => {
    const bad = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${'x'.repeat(32)}` },
      body: JSON.stringify({ query: '{ me { id } }' }),
    });
    expect(bad.status).toBe(401);
    const rest = await fetch(`${ts.url}/api/v1/users/me`, { headers: { authorization: `Bearer ${alice.apiKey}` } });
    expect(rest.status).toBe(400);
    expect(await rest.json()).toMatchObject({ result: 'error', msg: 'This endpoint requires HTTP basic authentication.' });
  });
});

describe('object links', () => {
  const pageQuery = `query($s: String!) { messages(narrow: [{ operator: "channel", operand: $s }], last: 100) {
    edges { cursor node { id sender { id fullName } channel { id name } reactions { user { id } } } }
    pageInfo { hasPreviousPage hasNextPage startCursor endCursor } } }`;

  test('a page of messages loads its senders and channels in a fixed number of statements', async () => {
    const senders = [alice, bob, ts.owner, await makeUser(ts, 400)];
    assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'ops-room' }], principals: [senders[3].id] }));
    for (const who of senders) await send(who, 'links', `from ${who.fullName}`);
    const count = async () =>
      countStatements(
        ts,
        () => graphql(ts, alice, pageQuery, { s: 'ops-room' }),
        (sql) => /from "(users|streams)"/i.test(sql),
      );
    const few = await count();
    for (let i = 0; i < 12; i++) await send(senders[i % senders.length], 'links', `more ${i}`);
    for (let i = 0; i < 4; i++) {
      const extra = await makeUser(ts, 400);
      assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'ops-room' }], principals: [extra.id] }));
      await send(extra, 'links', 'newcomer');
    }
    const many = await count();
    // More messages from more senders: the same statements, not one per message or sender.
    expect(many).toBe(few);

    const page = (await graphql(ts, alice, pageQuery, { s: 'ops-room' })).data!.messages;
    const last = page.edges[page.edges.length - 1];
    expect(last.node.sender.fullName).toMatch(/^Test member/);
    expect(last.node.channel).toEqual({ id: String(channelId), name: 'ops-room' });
    expect(last.cursor).toBe(last.node.id);
    expect(page.pageInfo).toMatchObject({ hasNextPage: false, endCursor: last.node.id });
  });

  test('group members are accounts', async () => {
    const created = await graphql(
      ts,
      ts.owner,
      `mutation($m: [Int!]!) { createUserGroup(input: { name: "linked", description: "", members: $m }) { id memberIds members { id email } } }`,
      {
        m: [alice.id, bob.id],
      },
    );
    expect(created.errors).toBeUndefined();
    const group = created.data!.createUserGroup;
    expect(group.memberIds.sort()).toEqual([alice.id, bob.id].sort());
    expect(group.members.map((u: { id: string }) => Number(u.id)).sort()).toEqual([alice.id, bob.id].sort());
  });
});
