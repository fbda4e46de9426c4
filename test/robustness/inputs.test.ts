import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { subscribe, sendToChannel } from '../messages/helpers';

/**
 * Inputs that once reached the database unchecked: anchors past the id column's range, NUL
 * characters, and id lists longer than a statement's parameter limit. Each gets Zulip's answer.
 */
let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let channel: number;
let first: number;
let second: number;

const NEWEST = 10_000_000_000_000_000;
const idsOf = (res: Record<string, any>): number[] => res.messages.map((m: { id: number }) => m.id);

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  channel = await subscribe(ts, owner, 'lobby', [owner, alice]);
  first = await sendToChannel(ts, alice, channel, 'greetings', 'hello there');
  second = await sendToChannel(ts, alice, channel, 'greetings', 'hello again');
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('anchors beyond the id range', () => {
  test('anchor=newest with an empty window answers, as in Zulip', async () => {
    const res = assertSuccess(await client(ts, owner).get('/messages', { anchor: 'newest', num_before: 0, num_after: 0 }));
    expect(res).toMatchObject({ messages: [], anchor: NEWEST, found_anchor: false, found_newest: true, found_oldest: false });
  });

  test('a numeric anchor past the largest id: the messages before it', async () => {
    const around = assertSuccess(await client(ts, owner).get('/messages', { anchor: '9999999999', num_before: 5, num_after: 5 }));
    expect(idsOf(around)).toEqual([first, second]);
    expect(around).toMatchObject({ anchor: 9999999999, found_anchor: false, found_newest: true, found_oldest: true });
    const at = assertSuccess(await client(ts, owner).get('/messages', { anchor: '9999999999', num_before: 0, num_after: 0 }));
    expect(at).toMatchObject({ messages: [], anchor: 9999999999, found_anchor: false });
    const after = assertSuccess(await client(ts, owner).get('/messages', { anchor: '9999999999', num_before: 0, num_after: 3, include_anchor: false }));
    expect(idsOf(after)).toEqual([]);
  });

  test('GraphQL messages with the same anchor', async () => {
    const res = await graphql(ts, owner, '{ messages(anchor: "9999999999", numBefore: 5, numAfter: 5) { anchor foundNewest messages { id } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data!.messages).toEqual({ anchor: 9999999999, foundNewest: true, messages: [{ id: String(first) }, { id: String(second) }] });
  });

  test('ids past the range in narrows and paths name nothing', async () => {
    const c = client(ts, owner);
    const byId = assertSuccess(await c.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [['id', '99999999999']] }));
    expect(byId.messages).toEqual([]);
    assertError(
      await c.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'channel', operand: 99999999999 }] }),
      'BAD_NARROW',
      'Invalid narrow operator: unknown channel 99999999999',
    );
    assertError(
      await c.get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator: 'dm', operand: [99999999999] }] }),
      'BAD_NARROW',
      'Invalid narrow operator: unknown user in [99999999999]',
    );
  });
});

describe('NUL characters', () => {
  const narrowed = (operator: string, operand: string) =>
    client(ts, owner).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [{ operator, operand }] });

  test.each(['search', 'topic', 'channel', 'sender'])('in a %s operand', async (operator) => {
    assertError(await narrowed(operator, 'a\u0000b'), 'BAD_REQUEST', 'operand contains NULL (0x00) characters.');
  });

  test('in `to`, plain or JSON-escaped, for channels and users', async () => {
    const c = client(ts, owner);
    const refused = (res: Awaited<ReturnType<typeof c.post>>) => assertError(res, 'BAD_REQUEST', 'to contains NULL (0x00) characters.');
    refused(await c.post('/messages', { type: 'stream', to: 'lob\u0000by', topic: 'x', content: 'hi' }));
    refused(await c.post('/messages', { type: 'stream', to: JSON.stringify(['lob\u0000by']), topic: 'x', content: 'hi' }));
    refused(await c.post('/messages', { type: 'direct', to: `${alice.email}\u0000`, content: 'hi' }));
    refused(await c.post('/messages', { type: 'direct', to: JSON.stringify([`${alice.email}\u0000`]), content: 'hi' }));
    // Nothing was sent.
    const latest = assertSuccess(await c.get('/messages', { anchor: 'newest', num_before: 1, num_after: 0 }));
    expect(idsOf(latest)).toEqual([second]);
  });
});

describe('GraphQL arguments', () => {
  test('NUL in a string argument is refused as REST refuses it; message text keeps its own check', async () => {
    const login = await graphql(ts, null, 'mutation { fetchApiKey(username: "a\\u0000b", password: "x") { apiKey } }');
    expect(login.errors?.[0]).toMatchObject({ message: 'username contains NULL (0x00) characters.', extensions: { code: 'BAD_REQUEST' } });
    const nested = await graphql(ts, owner, 'mutation($input: SendMessageInput!) { sendMessage(input: $input) { id } }', {
      input: { channelName: 'lob\u0000by', topic: 'x', content: 'hi' },
    });
    expect(nested.errors?.[0]).toMatchObject({ message: 'input.channelName contains NULL (0x00) characters.', extensions: { code: 'BAD_REQUEST' } });
    const content = await graphql(ts, owner, 'mutation($input: SendMessageInput!) { sendMessage(input: $input) { id } }', {
      input: { channelId: channel, topic: 'x', content: 'a\u0000b' },
    });
    expect(content.errors?.[0]).toMatchObject({ message: 'Message must not contain null bytes', extensions: { code: 'BAD_REQUEST' } });
  });

  test('variables of the wrong type are a 400, not a failure of the server', async () => {
    const res = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${owner.email}:${owner.apiKey}`).toString('base64')}` },
      body: JSON.stringify({ query: 'query($id: Int!) { message(id: $id) { id } }', variables: { id: 99999999999 } }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(body.errors[0].message).toContain('Int cannot represent non 32-bit signed integer value: 99999999999');
  });
});

describe('id lists longer than a statement can bind one by one', () => {
  const many = (real: number[]) => [...Array.from({ length: 100_000 }, (_, i) => 1_000_000 + i), ...real];

  test('POST /messages/flags with 100,000 ids changes the real ones', async () => {
    const res = assertSuccess(await client(ts, owner).post('/messages/flags', { messages: many([first]), op: 'add', flag: 'read' }));
    expect(res.messages).toEqual([first]);
    const unread = assertSuccess(await client(ts, owner).get('/messages', { anchor: 'newest', num_before: 5, num_after: 0, narrow: [['is', 'unread']] }));
    expect(idsOf(unread)).toEqual([second]);
  });

  test('starring 100,000 ids that name no message is refused as one invalid message', async () => {
    assertError(await client(ts, owner).post('/messages/flags', { messages: many([]), op: 'add', flag: 'starred' }), 'BAD_REQUEST', 'Invalid message(s)');
  });

  test('GET /messages with message_ids, real and past the id range', async () => {
    // A query string bounds this list; it still goes to the database as one parameter.
    const ids = [...Array.from({ length: 1000 }, (_, i) => 1_000_000 + i), 99999999999, second];
    const res = assertSuccess(await client(ts, owner).get('/messages', { message_ids: ids }));
    expect(idsOf(res)).toEqual([second]);
  });
});
