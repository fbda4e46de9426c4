import { assertSuccess, client } from '../helpers/api';
import { getEvents, RegisterOptions, verifyAction, verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { sendDirect, sendToChannel, subscribe } from './helpers';

/**
 * Every messaging action keeps a client's register state (unread_msgs, starred_messages,
 * max_message_id, recent_private_conversations, user_topics, muted_topics) in step with the
 * server: register, act, apply the events, compare with a fresh register.
 */
let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;
let town: number;
let quiet: number;

const api = (who: TestUser) => client(ts, who);
const MODERN: RegisterOptions = { capabilities: { bulk_message_deletion: true, empty_topic_name: true, user_settings_object: true } };
const LEGACY: RegisterOptions = {};

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob, guest]);
  quiet = await subscribe(ts, owner, 'quiet', [owner, alice, bob]);
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), 60_000);

describe('sending', () => {
  test.each([
    ['modern', MODERN],
    ['legacy', LEGACY],
  ])('a channel message, seen by sender, recipients and a guest (%s client)', async (_name, options) => {
    await verifyActionFor(ts, [alice, bob, guest, carol], () => sendToChannel(ts, alice, town, 'plans', 'hello @**Bob Builder**'), options);
  });

  test('a message in the empty topic, with and without empty_topic_name', async () => {
    for (const options of [MODERN, LEGACY]) await verifyActionFor(ts, [alice, bob], () => sendToChannel(ts, alice, town, '', 'no topic here'), options);
  });

  test('wildcard mentions count as mentions unless the topic is muted', async () => {
    await verifyAction(ts, bob, () => sendToChannel(ts, alice, town, 'all hands', 'hello @**all**'), MODERN);
    assertSuccess(await api(bob).post('/user_topics', { stream_id: town, topic: 'all hands', visibility_policy: 1 }));
    await verifyAction(ts, bob, () => sendToChannel(ts, alice, town, 'all hands', 'again @**all**'), MODERN);
    assertSuccess(await api(bob).post('/user_topics', { stream_id: town, topic: 'all hands', visibility_policy: 0 }));
  });

  test('direct and group direct messages, and a message to oneself', async () => {
    await verifyActionFor(ts, [alice, bob], () => sendDirect(ts, alice, [bob], 'hi bob'), MODERN);
    await verifyActionFor(ts, [alice, bob, carol], () => sendDirect(ts, alice, [bob, carol], 'hi both'), MODERN);
    await verifyAction(ts, alice, () => sendDirect(ts, alice, [alice], 'note to self'), MODERN);
  });

  test('the sender’s own message arrives read, with its local echo id for the sending queue only', async () => {
    let sending = '';
    const events = await verifyAction(
      ts,
      alice,
      async () => {
        sending = assertSuccess(await api(alice).post('/register', { event_types: ['message'], apply_markdown: true })).queue_id;
        return api(alice).post('/messages', { type: 'stream', to: town, topic: 'echo', content: '**x**', local_id: '7.01', queue_id: sending });
      },
      MODERN,
    );
    const watching = events.find((e) => e.type === 'message')!;
    expect(watching.flags).toEqual(['read']);
    expect(watching.local_message_id).toBeUndefined();
    expect(watching.sender_queue_id).toBeUndefined();
    expect(watching.message).toMatchObject({ content: '**x**', content_type: 'text/x-markdown' });
    expect(watching.message.rendered_content).toBeUndefined();
    const [own] = await getEvents(ts, alice, sending, -1, { dontBlock: true });
    expect(own).toMatchObject({ type: 'message', flags: ['read'], local_message_id: '7.01' });
    expect(own.message).toMatchObject({ content: '<p><strong>x</strong></p>', content_type: 'text/html' });
    expect(own.local_id).toBeUndefined();
  });

  test('a mention arrives with the mentioned user’s own flags', async () => {
    const [forBob, forCarol] = await verifyActionFor(ts, [bob, carol], () => sendToChannel(ts, alice, quiet, 'flags', 'hi @**Bob Builder**'), MODERN);
    expect(forBob.find((e) => e.type === 'message')!.flags).toEqual(['mentioned']);
    // Carol is not subscribed to the channel: no message for her.
    expect(forCarol.filter((e) => e.type === 'message')).toEqual([]);
  });
});

describe('reading and flags', () => {
  test('marking read and unread, one message and all', async () => {
    const first = await sendToChannel(ts, alice, town, 'flags', 'one');
    const second = await sendDirect(ts, alice, [bob, carol], 'two');
    await verifyAction(ts, bob, () => api(bob).post('/messages/flags', { messages: [first, second], op: 'add', flag: 'read' }), MODERN);
    await verifyAction(ts, bob, () => api(bob).post('/messages/flags', { messages: [first, second], op: 'remove', flag: 'read' }), MODERN);
    await verifyAction(ts, bob, () => api(bob).post('/mark_all_as_read'), MODERN);
  });

  test('starring and unstarring', async () => {
    const id = await sendToChannel(ts, alice, town, 'stars', 'shine');
    await verifyAction(ts, bob, () => api(bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }), MODERN);
    await verifyAction(ts, bob, () => api(bob).post('/messages/flags', { messages: [id], op: 'remove', flag: 'starred' }), MODERN);
  });

  test('marking a topic and a channel read', async () => {
    await sendToChannel(ts, alice, town, 'to read', 'a');
    await sendToChannel(ts, alice, town, 'to read', 'b');
    await verifyAction(ts, bob, () => api(bob).post('/mark_topic_as_read', { stream_id: town, topic_name: 'to read' }), MODERN);
    await sendToChannel(ts, alice, quiet, 'x', 'c');
    await verifyAction(ts, bob, () => api(bob).post('/mark_stream_as_read', { stream_id: quiet }), MODERN);
  });

  test('flags by narrow', async () => {
    await sendToChannel(ts, alice, quiet, 'narrowed', 'a');
    await sendToChannel(ts, alice, quiet, 'narrowed', 'b');
    const narrow = JSON.stringify([{ operator: 'channel', operand: quiet }]);
    await verifyAction(
      ts,
      bob,
      () => api(bob).post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow, op: 'add', flag: 'read' }),
      MODERN,
    );
    await verifyAction(
      ts,
      bob,
      () => api(bob).post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, narrow, op: 'remove', flag: 'read' }),
      MODERN,
    );
  });
});

describe('editing, moving and deleting', () => {
  test('a content edit that adds and then removes a mention', async () => {
    const id = await sendToChannel(ts, alice, town, 'edits', 'plain');
    await sendToChannel(ts, alice, town, 'edits', 'a later one');
    await verifyActionFor(ts, [alice, bob], () => api(alice).patch(`/messages/${id}`, { content: 'now @**Bob Builder**' }), MODERN);
    await verifyActionFor(ts, [alice, bob], () => api(alice).patch(`/messages/${id}`, { content: 'plain again' }), MODERN);
  });

  test('renaming and resolving a topic moves its unread messages', async () => {
    await sendToChannel(ts, alice, town, 'old name', 'a');
    const id = await sendToChannel(ts, alice, town, 'old name', 'b');
    await verifyActionFor(ts, [alice, bob], () => api(alice).patch(`/messages/${id}`, { topic: 'new name', propagate_mode: 'change_all' }), MODERN);
    await verifyActionFor(ts, [alice, bob], () => api(alice).patch(`/messages/${id}`, { topic: '✔ new name', propagate_mode: 'change_all' }), LEGACY);
  });

  test('moving a topic to another channel', async () => {
    const id = await sendToChannel(ts, alice, town, 'travelling', 'a');
    await verifyActionFor(ts, [alice, bob], () => api(owner).patch(`/messages/${id}`, { stream_id: quiet, propagate_mode: 'change_all' }), MODERN);
  });

  test('deleting a message that is not the latest', async () => {
    const id = await sendToChannel(ts, alice, town, 'doomed', 'bye');
    await sendToChannel(ts, alice, town, 'doomed', 'stays');
    await verifyActionFor(ts, [alice, bob], () => api(owner).delete(`/messages/${id}`), MODERN);
    const other = await sendToChannel(ts, alice, town, 'doomed', 'bye too');
    await sendToChannel(ts, alice, town, 'doomed', 'stays too');
    // Without bulk_message_deletion, one event per message.
    await verifyAction(ts, bob, () => api(owner).delete(`/messages/${other}`), LEGACY);
  });
});

describe('reactions and topic preferences', () => {
  test('adding and removing a reaction', async () => {
    const id = await sendToChannel(ts, alice, town, 'reacts', 'react to me');
    await verifyActionFor(ts, [alice, bob], () => api(bob).post(`/messages/${id}/reactions`, { emoji_name: 'smile' }), MODERN);
    await verifyActionFor(ts, [alice, bob], () => api(bob).delete(`/messages/${id}/reactions`, { emoji_name: 'smile' }), MODERN);
  });

  test('muting, unmuting, following and resetting a topic changes what counts as unread', async () => {
    await sendToChannel(ts, alice, town, 'noisy', 'one');
    for (const policy of [1, 2, 3, 0]) {
      await verifyAction(ts, bob, () => api(bob).post('/user_topics', { stream_id: town, topic: 'noisy', visibility_policy: policy }), MODERN);
    }
  });

  test('the legacy muted_topics endpoint and event', async () => {
    await verifyAction(ts, bob, () => api(bob).patch('/users/me/subscriptions/muted_topics', { stream_id: town, topic: 'legacy', op: 'add' }), LEGACY);
    await verifyAction(ts, bob, () => api(bob).patch('/users/me/subscriptions/muted_topics', { stream_id: town, topic: 'legacy', op: 'remove' }), LEGACY);
  });

  test('muting a channel changes the unread count', async () => {
    await sendToChannel(ts, alice, quiet, 'muted channel', 'one');
    const set = (value: boolean) =>
      api(bob).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: quiet, property: 'is_muted', value }] });
    await verifyAction(ts, bob, () => set(true), MODERN);
    await verifyAction(ts, bob, () => set(false), MODERN);
  });
});
