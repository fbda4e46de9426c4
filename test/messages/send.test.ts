import { assertError, assertSuccess, client, RequestOptions } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, ids, messageFlags, ofType, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;
let general: number;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  general = await subscribe(ts, owner, 'general', [owner, alice, bob, carol]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

const post = (who: TestUser, params: Record<string, unknown>, options: RequestOptions = {}) => client(ts, who).post('/messages', params, options);

describe('channel messages', () => {
  test('to a channel by id, by name, and by JSON-encoded name', async () => {
    const byId = assertSuccess(await post(alice, { type: 'stream', to: general, topic: 'greetings', content: 'by id' }));
    const byName = assertSuccess(await post(alice, { type: 'channel', to: 'general', topic: 'greetings', content: 'by name' }));
    const byJson = assertSuccess(await post(alice, { type: 'stream', to: JSON.stringify('General'), topic: 'greetings', content: 'by json name' }));
    expect(byName.id).toBeGreaterThan(byId.id);
    expect(byJson.id).toBeGreaterThan(byName.id);
    const { messages } = await fetchMessages(ts, bob, {
      narrow: [
        ['channel', 'general'],
        ['topic', 'greetings'],
      ],
    });
    expect(messages.map((m: { content: string }) => m.content)).toEqual(['<p>by id</p>', '<p>by name</p>', '<p>by json name</p>']);
  });

  test('the message object carries every Zulip field', async () => {
    const id = await sendToChannel(ts, alice, general, 'fields', '**bold** text');
    const { message, raw_content } = assertSuccess(await client(ts, bob).get(`/messages/${id}`));
    expect(raw_content).toBe('**bold** text');
    expect(message).toEqual({
      id,
      sender_id: alice.id,
      content: '<p><strong>bold</strong> text</p>',
      recipient_id: expect.any(Number),
      timestamp: expect.any(Number),
      client: expect.any(String),
      subject: 'fields',
      topic_links: [],
      is_me_message: false,
      reactions: [],
      submessages: [],
      sender_full_name: 'Alice Liddell',
      sender_email: alice.email,
      sender_realm_str: expect.any(String),
      display_recipient: 'general',
      type: 'stream',
      stream_id: general,
      avatar_url: expect.stringContaining('gravatar'),
      content_type: 'text/html',
      flags: [],
    });
    expect(Math.abs(message.timestamp - Date.now() / 1000)).toBeLessThan(120);
  });

  test('the client name comes from the User-Agent', async () => {
    const res = await client(ts, alice).post(
      '/messages',
      { type: 'stream', to: general, topic: 'ua', content: 'x' },
      { headers: { 'user-agent': 'ZulipMobile/27.1 (Android 14)' } },
    );
    const { message } = assertSuccess(await client(ts, alice).get(`/messages/${assertSuccess(res).id}`));
    expect(message.client).toBe('ZulipMobile');
  });

  test("the sender's copy starts read from Zulip's interactive clients only, unless read_by_sender says", async () => {
    const fromApp = async (agent: string, extra: Record<string, unknown> = {}) =>
      assertSuccess(await post(alice, { type: 'stream', to: general, topic: 'reads', content: agent, ...extra }, { headers: { 'user-agent': agent } })).id;
    for (const agent of ['ZulipMobile/27.1 (Android 14)', 'ZulipTerminal/0.7.0 (Linux)', 'ZulipElectron/5.11', 'ZulipDesktop/1.0']) {
      expect(await messageFlags(ts, alice, await fromApp(agent))).toEqual(['read']);
    }
    const web = await sendToChannel(ts, alice, general, 'reads', 'from the web app', { client: 'website' });
    expect(await messageFlags(ts, alice, web)).toEqual(['read']);
    expect(await messageFlags(ts, bob, web)).toEqual([]);
    // An integration posting with a person's key: the person should notice the message.
    const script = await fromApp('ZulipPython/0.9.0 (Linux)');
    expect(await messageFlags(ts, alice, script)).toEqual([]);
    expect(await messageFlags(ts, alice, await fromApp('curl/8.5.0'))).toEqual([]);
    expect(await messageFlags(ts, alice, await fromApp('ZulipPython/0.9.0', { read_by_sender: true }))).toEqual(['read']);
    expect(await messageFlags(ts, alice, await fromApp('ZulipMobile/27.1', { read_by_sender: false }))).toEqual([]);
  });

  test('topics: trimmed, cut at 60 characters, empty-topic aliases, legacy subject', async () => {
    const long = 'x'.repeat(70);
    const id = await sendToChannel(ts, alice, general, `  ${long}  `, 'long topic');
    const { message } = assertSuccess(await client(ts, alice).get(`/messages/${id}`));
    expect(message.subject).toBe(`${'x'.repeat(57)}...`);
    for (const alias of ['(no topic)', 'general chat', '']) {
      const m = await sendToChannel(ts, alice, general, alias, `alias ${alias}`);
      expect(assertSuccess(await client(ts, alice).get(`/messages/${m}`, { allow_empty_topic_name: true })).message.subject).toBe('');
      expect(assertSuccess(await client(ts, alice).get(`/messages/${m}`)).message.subject).toBe('general chat');
    }
    const legacy = assertSuccess(await post(alice, { type: 'stream', to: general, subject: 'old style', content: 'x' }));
    expect(assertSuccess(await client(ts, alice).get(`/messages/${legacy.id}`)).message.subject).toBe('old style');
    assertError(
      await post(alice, { type: 'stream', to: general, topic: 'bad\u0007topic', content: 'x' }),
      'BAD_REQUEST',
      'Invalid character in topic, at position 4!',
    );
  });

  test('content rules: empty, NUL, truncation', async () => {
    assertError(await post(alice, { type: 'stream', to: general, topic: 't', content: '   \n ' }), 'BAD_REQUEST', 'Message must not be empty');
    assertError(await post(alice, { type: 'stream', to: general, topic: 't', content: 'a\u0000b' }), 'BAD_REQUEST', 'Message must not contain null bytes');
    const id = await sendToChannel(ts, alice, general, 't', 'y'.repeat(10050));
    const { raw_content } = assertSuccess(await client(ts, alice).get(`/messages/${id}`));
    expect([...raw_content].length).toBe(10000);
    expect(raw_content.endsWith('\n[message truncated]')).toBe(true);
  });

  test('addressing errors', async () => {
    assertError(await post(alice, { type: 'broadcast', to: general, content: 'x' }), 'BAD_REQUEST', 'Invalid type');
    assertError(await post(alice, { type: 'stream', topic: 't', content: 'x' }), 'BAD_REQUEST', 'Missing channel');
    assertError(await post(alice, { type: 'stream', to: general, content: 'x' }), 'BAD_REQUEST', 'Missing topic');
    assertError(await post(alice, { to: general, content: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'type' argument");
    assertError(await post(alice, { type: 'stream', to: general, topic: 't' }), 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument");
    const missingId = assertError(
      await post(alice, { type: 'stream', to: 999999, topic: 't', content: 'x' }),
      'STREAM_DOES_NOT_EXIST',
      "Channel with ID '999999' does not exist",
    );
    expect(missingId.stream_id).toBe(999999);
    const missingName = assertError(
      await post(alice, { type: 'stream', to: 'nowhere', topic: 't', content: 'x' }),
      'STREAM_DOES_NOT_EXIST',
      "Channel 'nowhere' does not exist",
    );
    expect(missingName.stream).toBe('nowhere');
    assertError(await post(alice, { type: 'stream', to: JSON.stringify(['a', 'b']), topic: 't', content: 'x' }), 'BAD_REQUEST', 'Expected exactly one channel');
  });

  test('permissions: private channels need a subscription; guests only reach channels they are in', async () => {
    const secret = await subscribe(ts, owner, 'secret', [owner, bob], { invite_only: true });
    assertError(await post(alice, { type: 'stream', to: secret, topic: 't', content: 'x' }), 'BAD_REQUEST', "Not authorized to send to channel 'secret'");
    assertSuccess(await post(bob, { type: 'stream', to: secret, topic: 't', content: 'x' }));
    assertError(await post(guest, { type: 'stream', to: general, topic: 't', content: 'x' }), 'BAD_REQUEST', "Not authorized to send to channel 'general'");
    await subscribe(ts, owner, 'guests-welcome', [guest]);
    assertSuccess(await post(guest, { type: 'stream', to: 'guests-welcome', topic: 't', content: 'hello' }));
  });

  test('topics_policy: no general chat, or only general chat', async () => {
    const strict = await subscribe(ts, owner, 'strict-topics', [owner, alice]);
    assertSuccess(await client(ts, owner).patch(`/streams/${strict}`, { topics_policy: 'disable_empty_topic' }));
    assertError(
      await post(alice, { type: 'stream', to: strict, topic: '', content: 'x' }),
      'BAD_REQUEST',
      'Sending messages to the general chat is not allowed in this channel.',
    );
    assertSuccess(await post(alice, { type: 'stream', to: strict, topic: 'fine', content: 'x' }));
    const chat = await subscribe(ts, owner, 'just-chat', [owner, alice]);
    assertSuccess(await client(ts, owner).patch(`/streams/${chat}`, { topics_policy: 'empty_topic_only' }));
    assertError(
      await post(alice, { type: 'stream', to: chat, topic: 'a topic', content: 'x' }),
      'BAD_REQUEST',
      'Only the general chat topic is allowed in this channel.',
    );
    assertSuccess(await post(alice, { type: 'stream', to: chat, topic: '', content: 'x' }));
    // The channel now has a message outside the empty topic, so empty_topic_only cannot be set there.
    const other = await subscribe(ts, owner, 'mixed', [owner]);
    await sendToChannel(ts, owner, other, 'real topic', 'x');
    assertError(
      await client(ts, owner).patch(`/streams/${other}`, { topics_policy: 'empty_topic_only' }),
      'BAD_REQUEST',
      'To enable this configuration, all messages in this channel must be in the general chat topic. Consider renaming or deleting other topics.',
    );
  });
});

describe('direct messages', () => {
  test('by ids, JSON emails and comma-separated emails; one conversation each', async () => {
    const a = assertSuccess(await post(alice, { type: 'direct', to: [bob.id], content: 'ids' }));
    const b = assertSuccess(await post(alice, { type: 'private', to: JSON.stringify([bob.email]), content: 'json emails' }));
    const c = assertSuccess(await post(bob, { type: 'private', to: alice.email, content: 'plain email' }));
    const { messages } = await fetchMessages(ts, alice, { narrow: [{ operator: 'dm', operand: [bob.id] }] });
    expect(messages.map((m: { id: number }) => m.id)).toEqual([a.id, b.id, c.id]);
    expect(new Set(messages.map((m: { recipient_id: number }) => m.recipient_id)).size).toBe(1);
    expect(messages[0].display_recipient).toEqual([
      { id: alice.id, email: alice.email, full_name: 'Alice Liddell', is_mirror_dummy: false },
      { id: bob.id, email: bob.email, full_name: 'Bob Builder', is_mirror_dummy: false },
    ]);
    expect(messages[0].subject).toBe('');
  });

  test('group and self conversations', async () => {
    const group = assertSuccess(await post(alice, { type: 'direct', to: `${bob.email},${carol.email}`, content: 'group' }));
    const self = assertSuccess(await post(alice, { type: 'direct', to: [alice.id], content: 'note to self' }));
    expect(await messageFlags(ts, carol, group.id)).toEqual([]);
    const { message } = assertSuccess(await client(ts, alice).get(`/messages/${self.id}`));
    expect(message.display_recipient).toEqual([{ id: alice.id, email: alice.email, full_name: 'Alice Liddell', is_mirror_dummy: false }]);
    assertError(await client(ts, bob).get(`/messages/${self.id}`), 'BAD_REQUEST', 'Invalid message(s)');
  });

  test('the notification bot may be answered, by email or by id, and its conversation narrowed to', async () => {
    const { cross_realm_bots: bots } = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: '["realm_user"]' }));
    const bot = bots.find((b: { email: string }) => b.email === 'notification-bot@zulip.com');
    const byEmail = assertSuccess(await post(alice, { type: 'direct', to: ['notification-bot@zulip.com'], content: 'thanks!' })).id;
    const byId = assertSuccess(await post(alice, { type: 'direct', to: [bot.user_id], content: 'again' })).id;
    const { message } = assertSuccess(await client(ts, alice).get(`/messages/${byId}`));
    expect(message.display_recipient.map((p: { email: string }) => p.email).sort()).toEqual([alice.email, 'notification-bot@zulip.com'].sort());
    const narrowed = await fetchMessages(ts, alice, { narrow: JSON.stringify([{ operator: 'dm', operand: 'notification-bot@zulip.com' }]) });
    expect(narrowed.messages.map((m: { id: number }) => m.id)).toEqual([byEmail, byId]);
    assertError(await post(alice, { type: 'direct', to: [bot.user_id + 1000], content: 'x' }), 'BAD_REQUEST', `Invalid user ID ${bot.user_id + 1000}`);
  });

  test('recipient errors', async () => {
    assertError(await post(alice, { type: 'direct', content: 'x' }), 'BAD_REQUEST', 'Message must have recipients');
    assertError(await post(alice, { type: 'direct', to: [], content: 'x' }), 'BAD_REQUEST', 'Message must have recipients');
    assertError(await post(alice, { type: 'direct', to: [987654], content: 'x' }), 'BAD_REQUEST', 'Invalid user ID 987654');
    assertError(await post(alice, { type: 'direct', to: ['nobody@example.com'], content: 'x' }), 'BAD_REQUEST', "Invalid email 'nobody@example.com'");
    assertError(
      await post(alice, { type: 'direct', to: [bob.id, bob.email], content: 'x' }),
      'BAD_REQUEST',
      'Recipient lists may contain emails or user IDs, but not both.',
    );
    assertError(await post(alice, { type: 'direct', to: JSON.stringify({ a: 1 }), content: 'x' }), 'BAD_REQUEST', 'Invalid data type for recipients');
    const leaving = await makeUser(ts, 400);
    assertSuccess(await client(ts, owner).delete(`/users/${leaving.id}`));
    assertError(await post(alice, { type: 'direct', to: [leaving.id], content: 'x' }), 'BAD_REQUEST', `'${leaving.email}' is no longer using Zulip.`);
  });
});

describe('mentions', () => {
  test('personal, silent, wildcard and topic mentions set the right flags', async () => {
    const id = await sendToChannel(ts, alice, general, 'mentions', `hi @**Bob Builder** and @_**Carol Singer**`);
    expect(await messageFlags(ts, bob, id)).toEqual(['mentioned']);
    expect(await messageFlags(ts, carol, id)).toEqual([]);
    const all = await sendToChannel(ts, alice, general, 'mentions', 'hey @**all**');
    expect(await messageFlags(ts, bob, all)).toEqual(['stream_wildcard_mentioned', 'wildcard_mentioned']);
    // Only topic participants (senders and reactors) get topic wildcard mentions.
    await sendToChannel(ts, carol, general, 'participants', 'I am here');
    const topic = await sendToChannel(ts, alice, general, 'participants', 'ping @**topic**');
    expect(await messageFlags(ts, carol, topic)).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    expect(await messageFlags(ts, bob, topic)).toEqual([]);
    const silentAll = await sendToChannel(ts, alice, general, 'mentions', '@_**all** quietly');
    expect(await messageFlags(ts, bob, silentAll)).toEqual([]);
  });

  test('user group mentions flag the members', async () => {
    const knex = ts.server.deps.knex;
    const [group] = await knex('user_groups').insert({ realm_id: ts.server.deps.realmId, name: 'builders', description: '' }).returning('id');
    await knex('user_group_members').insert({ group_id: group.id, user_id: bob.id });
    const id = await sendToChannel(ts, alice, general, 'groups', 'calling @*builders*');
    expect(await messageFlags(ts, bob, id)).toEqual(['mentioned']);
    expect(await messageFlags(ts, carol, id)).toEqual([]);
  });

  test('wildcard mentions in channels over 15 subscribers need can_mention_many_users_group', async () => {
    const crowd = await Promise.all(Array.from({ length: 16 }, () => makeUser(ts, 400)));
    const big = await subscribe(ts, owner, 'crowded', [owner, alice, ...crowd]);
    assertError(
      await post(alice, { type: 'stream', to: big, topic: 't', content: 'hello @**all**' }),
      'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      'You do not have permission to use channel wildcard mentions in this channel.',
    );
    assertSuccess(await post(owner, { type: 'stream', to: big, topic: 't', content: 'hello @**all**' }));
  }, 120_000);
});

describe('events', () => {
  test('recipients get a message event with their own flags; the sender gets its local echo id', async () => {
    const capture = captureEvents(ts);
    const res = assertSuccess(
      await post(alice, { type: 'stream', to: general, topic: 'events', content: 'hi @**Bob Builder**', local_id: '100.01', queue_id: 'q-1' }),
    );
    capture.stop();
    const messageEvents = capture.deliveries.filter((d) => d.event.type === 'message');
    expect(capture.recipientsOf(ofType('message'))).toEqual(ids(owner, alice, bob, carol));
    const forAlice = capture.for(alice.id).find(ofType('message'))!;
    expect(forAlice).toMatchObject({ flags: ['read'], local_id: '100.01', sender_queue_id: 'q-1' });
    expect((forAlice.message as { id: number }).id).toBe(res.id);
    const forBob = capture.for(bob.id).find(ofType('message'))!;
    expect(forBob.flags).toEqual(['mentioned']);
    expect(forBob.local_id).toBeUndefined();
    expect(capture.for(carol.id).find(ofType('message'))!.flags).toEqual([]);
    // One delivery for everyone: the flags differ per user, the message does not.
    expect(messageEvents.length).toBe(1);
    expect(messageEvents[0].publicChannel).toBe(true);
  });

  test('direct messages reach only the participants', async () => {
    const capture = captureEvents(ts);
    await post(alice, { type: 'direct', to: [bob.id], content: 'just us' });
    capture.stop();
    expect(capture.recipientsOf(ofType('message'))).toEqual(ids(alice, bob));
  });

  test("a channel's first message sets first_message_id and is announced", async () => {
    const fresh = await subscribe(ts, owner, 'fresh', [owner, alice]);
    const capture = captureEvents(ts);
    const id = await sendToChannel(ts, alice, fresh, 't', 'first!');
    await sendToChannel(ts, alice, fresh, 't', 'second');
    capture.stop();
    const updates = capture.deliveries.filter((d) => d.event.type === 'stream' && d.event.property === 'first_message_id');
    expect(updates).toHaveLength(1);
    expect(updates[0].event).toMatchObject({ op: 'update', stream_id: fresh, value: id, name: 'fresh' });
    expect(updates[0].userIds).toEqual(expect.arrayContaining([alice.id, bob.id, guest.id].filter((x) => x !== guest.id)));
    const stream = assertSuccess(await client(ts, alice).get(`/streams/${fresh}`)).stream;
    expect(stream.first_message_id).toBe(id);
  });
});
