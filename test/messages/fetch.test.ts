import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { fetchMessages, sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;
let pub: number;
const m: Record<string, number> = {};

const idsOf = (res: Record<string, any>): number[] => res.messages.map((x: { id: number }) => x.id);
const get = (who: TestUser, params: Record<string, unknown>) => client(ts, who).get('/messages', params);

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  pub = await subscribe(ts, owner, 'town', [owner, alice, bob]);
  m.a1 = await sendToChannel(ts, alice, pub, 'Alpha', 'first alpha message about gardening');
  m.b1 = await sendToChannel(ts, bob, pub, 'beta', 'first beta message with https://example.com link');
  m.a2 = await sendToChannel(ts, bob, pub, 'alpha', 'second alpha, hello @**Alice Liddell**');
  m.r1 = await sendToChannel(ts, alice, pub, '✔ done', 'a resolved one');
  m.dm1 = await sendDirect(ts, alice, [bob], 'private hello');
  m.dm2 = await sendDirect(ts, bob, [alice, carol], 'group hello');
  m.a3 = await sendToChannel(ts, alice, pub, 'alpha', 'third alpha, the gardens are green');
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('anchors and windows', () => {
  test('newest, oldest, numeric, first_unread', async () => {
    const newest = await fetchMessages(ts, bob, { anchor: 'newest', num_before: 2, num_after: 0 });
    expect(idsOf(newest)).toEqual([m.dm2, m.a3]);
    expect(newest).toMatchObject({ anchor: 10000000000000000, found_anchor: false, found_newest: true, found_oldest: false, history_limited: false });
    const oldest = await fetchMessages(ts, bob, { anchor: 'oldest', num_before: 0, num_after: 2 });
    expect(idsOf(oldest)).toEqual([m.a1, m.b1]);
    expect(oldest).toMatchObject({ anchor: 0, found_oldest: true, found_newest: false });
    const around = await fetchMessages(ts, bob, { anchor: m.a2, num_before: 1, num_after: 1 });
    expect(idsOf(around)).toEqual([m.b1, m.a2, m.r1]);
    expect(around).toMatchObject({ anchor: m.a2, found_anchor: true, found_oldest: false, found_newest: false });
    const excluded = await fetchMessages(ts, bob, { anchor: m.a2, num_before: 5, num_after: 0, include_anchor: false });
    expect(idsOf(excluded)).toEqual([m.a1, m.b1]);
    expect(excluded).toMatchObject({ found_anchor: false, found_oldest: true });
    // Bob's first unread is the first message Alice sent.
    const unread = await fetchMessages(ts, bob, { anchor: 'first_unread', num_before: 0, num_after: 1 });
    expect(unread).toMatchObject({ anchor: m.a1, found_anchor: true });
    const legacy = await fetchMessages(ts, bob, { use_first_unread_anchor: true, num_before: 0, num_after: 1 });
    expect(legacy.anchor).toBe(m.a1);
    const negative = await fetchMessages(ts, bob, { anchor: -5, num_before: 0, num_after: 1 });
    expect(negative.anchor).toBe(0);
  });

  test('window errors', async () => {
    assertError(await get(bob, { anchor: 'soon', num_before: 1, num_after: 1 }), 'BAD_REQUEST', 'Invalid anchor');
    assertError(await get(bob, { num_before: 1, num_after: 1 }), 'BAD_REQUEST', "Missing 'anchor' argument.");
    assertError(await get(bob, { anchor: 'newest', num_before: 4000, num_after: 1001 }), 'BAD_REQUEST', 'Too many messages requested (maximum 5000).');
    assertError(
      await get(bob, { anchor: 10, num_before: 1, num_after: 1, include_anchor: false }),
      'BAD_REQUEST',
      'The anchor can only be excluded at an end of the range',
    );
    assertError(await get(bob, { anchor: 'newest', num_before: -1, num_after: 0 }), 'BAD_REQUEST', 'num_before is too small');
    assertError(await get(bob, { anchor: 'newest', num_after: 0 }), 'REQUEST_VARIABLE_MISSING', "Missing 'num_before' argument");
  });

  test('message_ids: the visible subset, optionally narrowed', async () => {
    const res = assertSuccess(await get(carol, { message_ids: [m.a1, m.dm1, m.dm2, 999999] }));
    expect(idsOf(res)).toEqual([m.a1, m.dm2]);
    const narrowed = assertSuccess(await get(carol, { message_ids: [m.a1, m.dm2], narrow: [['is', 'dm']] }));
    expect(idsOf(narrowed)).toEqual([m.dm2]);
    assertError(await get(carol, { message_ids: [m.a1], anchor: 'newest' }), 'BAD_REQUEST', 'Unsupported parameter combination: message_ids, anchor');
  });
});

describe('narrows', () => {
  const narrowIds = async (who: TestUser, narrow: unknown[]) => idsOf(await fetchMessages(ts, who, { narrow }));

  test('channel and topic, in both term shapes', async () => {
    expect(
      await narrowIds(bob, [
        ['channel', 'town'],
        ['topic', 'ALPHA'],
      ]),
    ).toEqual([m.a1, m.a2, m.a3]);
    expect(
      await narrowIds(bob, [
        { operator: 'stream', operand: pub },
        { operator: 'topic', operand: 'beta' },
      ]),
    ).toEqual([m.b1]);
    expect(
      await narrowIds(bob, [
        { operator: 'channel', operand: pub },
        { operator: 'topic', operand: 'alpha', negated: true },
      ]),
    ).toEqual([m.b1, m.r1]);
    expect(await narrowIds(bob, [{ operator: 'channels', operand: 'public' }])).toEqual([m.a1, m.b1, m.a2, m.r1, m.a3]);
  });

  test('sender, id, is:resolved, has:link, is:mentioned, is:unread', async () => {
    expect(await narrowIds(bob, [['sender', alice.email]])).toEqual([m.a1, m.r1, m.dm1, m.a3]);
    expect(await narrowIds(bob, [{ operator: 'sender', operand: alice.id, negated: true }])).toEqual([m.b1, m.a2, m.dm2]);
    expect(await narrowIds(bob, [{ operator: 'id', operand: m.b1 }])).toEqual([m.b1]);
    expect(await narrowIds(bob, [['is', 'resolved']])).toEqual([m.r1]);
    expect(await narrowIds(bob, [['has', 'link']])).toEqual([m.b1]);
    expect(await narrowIds(alice, [['is', 'mentioned']])).toEqual([m.a2]);
    expect(await narrowIds(bob, [['is', 'unread']])).toEqual([m.a1, m.r1, m.dm1, m.a3]);
  });

  test('direct message narrows', async () => {
    expect(await narrowIds(bob, [['is', 'dm']])).toEqual([m.dm1, m.dm2]);
    expect(await narrowIds(bob, [['is', 'private']])).toEqual([m.dm1, m.dm2]);
    expect(await narrowIds(bob, [{ operator: 'dm', operand: [alice.id] }])).toEqual([m.dm1]);
    expect(await narrowIds(bob, [['dm', `${alice.email},${carol.email}`]])).toEqual([m.dm2]);
    expect(await narrowIds(carol, [{ operator: 'dm-including', operand: alice.id }])).toEqual([m.dm2]);
    expect(await narrowIds(bob, [{ operator: 'dm-including', operand: alice.id }])).toEqual([m.dm1, m.dm2]);
    expect(await narrowIds(bob, [{ operator: 'dm', operand: [carol.id] }])).toEqual([]);
  });

  test('full-text search with highlighting', async () => {
    const res = await fetchMessages(ts, bob, {
      narrow: [
        ['channel', 'town'],
        ['search', 'garden'],
      ],
    });
    expect(idsOf(res)).toEqual([m.a1, m.a3]);
    expect(res.messages[0].match_content).toContain('<span class="highlight">gardening</span>');
    expect(res.messages[0].match_subject).toBe('Alpha');
    expect(idsOf(await fetchMessages(ts, bob, { narrow: [['search', '"gardens are"']] }))).toEqual([m.a3]);
  });

  test('invalid narrows', async () => {
    const bad = async (narrow: unknown, msg: string, code = 'BAD_NARROW') =>
      assertError(await get(bob, { anchor: 'newest', num_before: 1, num_after: 0, narrow }), code, msg);
    const body = await bad([['frobnicate', 'x']], 'Invalid narrow operator: unknown operator frobnicate');
    expect(body.desc).toBe('unknown operator frobnicate');
    await bad([['channel', 'nowhere']], 'Invalid narrow operator: unknown channel nowhere');
    await bad([['sender', 'ghost@example.com']], 'Invalid narrow operator: unknown user ghost@example.com');
    await bad([{ operator: 'dm', operand: [424242] }], 'Invalid narrow operator: unknown user in [424242]');
    await bad([['id', 'abc']], 'Invalid narrow operator: Invalid message ID');
    await bad([['is', 'sleepy']], "Invalid narrow operator: unknown 'is' operand sleepy");
    await bad([['has', 'cats']], "Invalid narrow operator: unknown 'has' operand cats");
    await bad(
      [
        ['channel', 'town'],
        ['is', 'dm'],
      ],
      'Invalid narrow operator: No message can be both a channel message and direct message',
    );
    await bad({ operator: 'is' }, 'narrow is not a list', 'BAD_REQUEST');
    await bad([['is']], 'Invalid narrow[0]: element is not a string pair', 'BAD_REQUEST');
    await bad([{ operator: 'search', operand: '  ' }], 'operand cannot be blank.', 'BAD_REQUEST');
    await bad([{ operator: 'topic', operand: 5 }], 'operand is not a string', 'BAD_REQUEST');
    await bad([{ operator: 'is', operand: 'dm', negated: 'yes' }], 'negated is not a boolean', 'BAD_REQUEST');
  });
});

describe('who sees what', () => {
  test('a non-subscriber reads a public channel through a channel narrow, as historical', async () => {
    expect(idsOf(await fetchMessages(ts, carol, {}))).toEqual([m.dm2]);
    const res = await fetchMessages(ts, carol, { narrow: [['channel', 'town']] });
    expect(idsOf(res)).toEqual([m.a1, m.b1, m.a2, m.r1, m.a3]);
    expect(res.messages[0].flags).toEqual(['read', 'historical']);
    const single = assertSuccess(await client(ts, carol).get(`/messages/${m.a1}`));
    expect(single.message.flags).toEqual(['read', 'historical']);
  });

  test('guests see only channels they are subscribed to', async () => {
    expect(idsOf(await fetchMessages(ts, guest, { narrow: [['channel', 'town']] }))).toEqual([]);
    assertError(await client(ts, guest).get(`/messages/${m.a1}`), 'BAD_REQUEST', 'Invalid message(s)');
  });

  test('private channels: shared history for new subscribers, protected history only from joining on', async () => {
    const shared = await subscribe(ts, owner, 'shared-private', [owner, alice], { invite_only: true, history_public_to_subscribers: true });
    const protectedId = await subscribe(ts, owner, 'protected-private', [owner, alice], { invite_only: true, history_public_to_subscribers: false });
    const s1 = await sendToChannel(ts, alice, shared, 't', 'before bob');
    const p1 = await sendToChannel(ts, alice, protectedId, 't', 'before bob');
    assertError(await client(ts, bob).get(`/messages/${s1}`), 'BAD_REQUEST', 'Invalid message(s)');
    expect(idsOf(await fetchMessages(ts, bob, { narrow: [['channel', 'shared-private']] }))).toEqual([]);
    await subscribe(ts, owner, 'shared-private', [bob]);
    await subscribe(ts, owner, 'protected-private', [bob]);
    const p2 = await sendToChannel(ts, alice, protectedId, 't', 'after bob');
    expect(idsOf(await fetchMessages(ts, bob, { narrow: [['channel', 'shared-private']] }))).toEqual([s1]);
    expect(idsOf(await fetchMessages(ts, bob, { narrow: [['channel', 'protected-private']] }))).toEqual([p2]);
    assertError(await client(ts, bob).get(`/messages/${p1}`), 'BAD_REQUEST', 'Invalid message(s)');
    assertSuccess(await client(ts, bob).get(`/messages/${p2}`));
  });

  test('unknown messages look the same as inaccessible ones', async () => {
    assertError(await client(ts, bob).get('/messages/987654'), 'BAD_REQUEST', 'Invalid message(s)');
  });
});

describe('presentation', () => {
  test('apply_markdown=false gives the Markdown source; client_gravatar hides computable avatars', async () => {
    const raw = await fetchMessages(ts, bob, { narrow: [{ operator: 'id', operand: m.a2 }], apply_markdown: false, client_gravatar: false });
    expect(raw.messages[0]).toMatchObject({ content: 'second alpha, hello @**Alice Liddell**', content_type: 'text/x-markdown' });
    expect(raw.messages[0].avatar_url).toContain('gravatar');
    const gravatar = await fetchMessages(ts, bob, { narrow: [{ operator: 'id', operand: m.a2 }] });
    expect(gravatar.messages[0].avatar_url).toBeNull();
    const single = assertSuccess(await client(ts, bob).get(`/messages/${m.a2}`, { apply_markdown: false }));
    expect(single.message).toMatchObject({ content: 'second alpha, hello @**Alice Liddell**', content_type: 'text/x-markdown' });
  });

  test('the empty topic is shown as "general chat" unless the client allows empty names', async () => {
    const id = await sendToChannel(ts, alice, pub, '', 'chat');
    const shown = await fetchMessages(ts, bob, {
      narrow: [
        ['channel', 'town'],
        ['topic', ''],
      ],
    });
    expect(shown.messages.map((x: { id: number; subject: string }) => [x.id, x.subject])).toEqual([[id, 'general chat']]);
    const byName = await fetchMessages(ts, bob, {
      narrow: [
        ['channel', 'town'],
        ['topic', 'general chat'],
      ],
      allow_empty_topic_name: true,
    });
    expect(byName.messages.map((x: { subject: string }) => x.subject)).toEqual(['']);
  });
});
