import { assertSuccess, client } from '../helpers/api';
import { Cast, startWithCast } from '../helpers/cast';
import { getEvents, RegisterOptions, verifyAction, verifyActionFor } from '../helpers/events';
import { SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';
import { sendDirect, sendToChannel, subscribe } from './helpers';

/**
 * Every messaging action keeps a client's register state (unread_msgs, starred_messages,
 * max_message_id, recent_private_conversations, user_topics, muted_topics) in step with the
 * server: register, act, apply the events, compare with a fresh register.
 */
let p: Cast<'alice' | 'bob' | 'carol' | 'guest'> & { ts: TestServer };
let town: number;
let quiet: number;

const api = (who: TestUser) => client(p.ts, who);
const MODERN: RegisterOptions = { capabilities: { bulk_message_deletion: true, empty_topic_name: true, user_settings_object: true } };
const LEGACY: RegisterOptions = {};

beforeAll(async () => {
  p = await startWithCast(['alice', 'bob', 'carol', 'guest']);
  town = await subscribe(p.ts, p.owner, 'town', [p.owner, p.alice, p.bob, p.guest]);
  quiet = await subscribe(p.ts, p.owner, 'quiet', [p.owner, p.alice, p.bob]);
}, SERVER_HOOK_TIMEOUT);
afterAll(() => p.ts.close(), 60_000);

describe('sending', () => {
  test.each([
    ['modern', MODERN],
    ['legacy', LEGACY],
  ])('a channel message, seen by sender, recipients and a guest (%s client)', async (_name, options) => {
    await verifyActionFor(p.ts, [p.alice, p.bob, p.guest, p.carol], () => sendToChannel(p.ts, p.alice, town, 'plans', 'hello @**Bob Builder**'), options);
  });

  test('a message in the empty topic, with and without empty_topic_name', async () => {
    for (const options of [MODERN, LEGACY])
      await verifyActionFor(p.ts, [p.alice, p.bob], () => sendToChannel(p.ts, p.alice, town, '', 'no topic here'), options);
  });

  test('wildcard mentions count as mentions unless the topic is muted', async () => {
    await verifyAction(p.ts, p.bob, () => sendToChannel(p.ts, p.alice, town, 'all hands', 'hello @**all**'), MODERN);
    assertSuccess(await api(p.bob).post('/user_topics', { stream_id: town, topic: 'all hands', visibility_policy: 1 }));
    await verifyAction(p.ts, p.bob, () => sendToChannel(p.ts, p.alice, town, 'all hands', 'again @**all**'), MODERN);
    assertSuccess(await api(p.bob).post('/user_topics', { stream_id: town, topic: 'all hands', visibility_policy: 0 }));
  });

  test('direct and group direct messages, and a message to oneself', async () => {
    await verifyActionFor(p.ts, [p.alice, p.bob], () => sendDirect(p.ts, p.alice, [p.bob], 'hi bob'), MODERN);
    await verifyActionFor(p.ts, [p.alice, p.bob, p.carol], () => sendDirect(p.ts, p.alice, [p.bob, p.carol], 'hi both'), MODERN);
    await verifyAction(p.ts, p.alice, () => sendDirect(p.ts, p.alice, [p.alice], 'note to self'), MODERN);
  });

  test('the sender’s own message arrives read, with its local echo id for the sending queue only', async () => {
    let sending = '';
    const events = await verifyAction(
      p.ts,
      p.alice,
      async () => {
        sending = assertSuccess(await api(p.alice).post('/register', { event_types: ['message'], apply_markdown: true })).queue_id;
        return api(p.alice).post('/messages', { type: 'stream', to: town, topic: 'echo', content: '**x**', local_id: '7.01', queue_id: sending });
      },
      MODERN,
    );
    const watching = events.find((e) => e.type === 'message')!;
    expect(watching.flags).toEqual(['read']);
    expect(watching.local_message_id).toBeUndefined();
    expect(watching.sender_queue_id).toBeUndefined();
    expect(watching.message).toMatchObject({ content: '**x**', content_type: 'text/x-markdown' });
    expect(watching.message.rendered_content).toBeUndefined();
    const [own] = await getEvents(p.ts, p.alice, sending, -1, { dontBlock: true });
    expect(own).toMatchObject({ type: 'message', flags: ['read'], local_message_id: '7.01' });
    expect(own.message).toMatchObject({ content: '<p><strong>x</strong></p>', content_type: 'text/html' });
    expect(own.local_id).toBeUndefined();
  });

  test('a mention arrives with the mentioned user’s own flags', async () => {
    const [forBob, forCarol] = await verifyActionFor(p.ts, [p.bob, p.carol], () => sendToChannel(p.ts, p.alice, quiet, 'flags', 'hi @**Bob Builder**'), MODERN);
    expect(forBob.find((e) => e.type === 'message')!.flags).toEqual(['mentioned']);
    // Carol is not subscribed to the channel: no message for her.
    expect(forCarol.filter((e) => e.type === 'message')).toEqual([]);
  });
});

describe('reading and flags', () => {
  test('marking read and unread, one message and all', async () => {
    const first = await sendToChannel(p.ts, p.alice, town, 'flags', 'one');
    const second = await sendDirect(p.ts, p.alice, [p.bob, p.carol], 'two');
    await verifyAction(p.ts, p.bob, () => api(p.bob).post('/messages/flags', { messages: [first, second], op: 'add', flag: 'read' }), MODERN);
    await verifyAction(p.ts, p.bob, () => api(p.bob).post('/messages/flags', { messages: [first, second], op: 'remove', flag: 'read' }), MODERN);
    await verifyAction(p.ts, p.bob, () => api(p.bob).post('/mark_all_as_read'), MODERN);
  });

  test('starring and unstarring', async () => {
    const id = await sendToChannel(p.ts, p.alice, town, 'stars', 'shine');
    await verifyAction(p.ts, p.bob, () => api(p.bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'starred' }), MODERN);
    await verifyAction(p.ts, p.bob, () => api(p.bob).post('/messages/flags', { messages: [id], op: 'remove', flag: 'starred' }), MODERN);
  });

  test('marking a topic and a channel read', async () => {
    await sendToChannel(p.ts, p.alice, town, 'to read', 'a');
    await sendToChannel(p.ts, p.alice, town, 'to read', 'b');
    await verifyAction(p.ts, p.bob, () => api(p.bob).post('/mark_topic_as_read', { stream_id: town, topic_name: 'to read' }), MODERN);
    await sendToChannel(p.ts, p.alice, quiet, 'x', 'c');
    await verifyAction(p.ts, p.bob, () => api(p.bob).post('/mark_stream_as_read', { stream_id: quiet }), MODERN);
  });

  test('flags by narrow', async () => {
    await sendToChannel(p.ts, p.alice, quiet, 'narrowed', 'a');
    await sendToChannel(p.ts, p.alice, quiet, 'narrowed', 'b');
    const narrow = JSON.stringify([{ operator: 'channel', operand: quiet }]);
    await verifyAction(
      p.ts,
      p.bob,
      () => api(p.bob).post('/messages/flags/narrow', { anchor: 'oldest', num_before: 0, num_after: 100, narrow, op: 'add', flag: 'read' }),
      MODERN,
    );
    await verifyAction(
      p.ts,
      p.bob,
      () => api(p.bob).post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, narrow, op: 'remove', flag: 'read' }),
      MODERN,
    );
  });
});

describe('editing, moving and deleting', () => {
  test('a content edit that adds and then removes a mention', async () => {
    const id = await sendToChannel(p.ts, p.alice, town, 'edits', 'plain');
    await sendToChannel(p.ts, p.alice, town, 'edits', 'a later one');
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.alice).patch(`/messages/${id}`, { content: 'now @**Bob Builder**' }), MODERN);
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.alice).patch(`/messages/${id}`, { content: 'plain again' }), MODERN);
  });

  test('renaming and resolving a topic moves its unread messages', async () => {
    await sendToChannel(p.ts, p.alice, town, 'old name', 'a');
    const id = await sendToChannel(p.ts, p.alice, town, 'old name', 'b');
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.alice).patch(`/messages/${id}`, { topic: 'new name', propagate_mode: 'change_all' }), MODERN);
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.alice).patch(`/messages/${id}`, { topic: '✔ new name', propagate_mode: 'change_all' }), LEGACY);
  });

  test('moving a topic to another channel', async () => {
    const id = await sendToChannel(p.ts, p.alice, town, 'travelling', 'a');
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.owner).patch(`/messages/${id}`, { stream_id: quiet, propagate_mode: 'change_all' }), MODERN);
  });

  test('deleting a message that is not the latest', async () => {
    const id = await sendToChannel(p.ts, p.alice, town, 'doomed', 'bye');
    await sendToChannel(p.ts, p.alice, town, 'doomed', 'stays');
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.owner).delete(`/messages/${id}`), MODERN);
    const other = await sendToChannel(p.ts, p.alice, town, 'doomed', 'bye too');
    await sendToChannel(p.ts, p.alice, town, 'doomed', 'stays too');
    // Without bulk_message_deletion, one event per message.
    await verifyAction(p.ts, p.bob, () => api(p.owner).delete(`/messages/${other}`), LEGACY);
  });
});

describe('reactions and topic preferences', () => {
  test('adding and removing a reaction', async () => {
    const id = await sendToChannel(p.ts, p.alice, town, 'reacts', 'react to me');
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.bob).post(`/messages/${id}/reactions`, { emoji_name: 'smile' }), MODERN);
    await verifyActionFor(p.ts, [p.alice, p.bob], () => api(p.bob).delete(`/messages/${id}/reactions`, { emoji_name: 'smile' }), MODERN);
  });

  test('muting, unmuting, following and resetting a topic changes what counts as unread', async () => {
    await sendToChannel(p.ts, p.alice, town, 'noisy', 'one');
    for (const policy of [1, 2, 3, 0]) {
      await verifyAction(p.ts, p.bob, () => api(p.bob).post('/user_topics', { stream_id: town, topic: 'noisy', visibility_policy: policy }), MODERN);
    }
  });

  test('the legacy muted_topics endpoint and event', async () => {
    await verifyAction(p.ts, p.bob, () => api(p.bob).patch('/users/me/subscriptions/muted_topics', { stream_id: town, topic: 'legacy', op: 'add' }), LEGACY);
    await verifyAction(p.ts, p.bob, () => api(p.bob).patch('/users/me/subscriptions/muted_topics', { stream_id: town, topic: 'legacy', op: 'remove' }), LEGACY);
  });

  test('muting a channel changes the unread count', async () => {
    await sendToChannel(p.ts, p.alice, quiet, 'muted channel', 'one');
    const set = (value: boolean) =>
      api(p.bob).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: quiet, property: 'is_muted', value }] });
    await verifyAction(p.ts, p.bob, () => set(true), MODERN);
    await verifyAction(p.ts, p.bob, () => set(false), MODERN);
  });
});
