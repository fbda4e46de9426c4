import { eventsForClient, ClientView } from '../../src/core/messages/events';
import { maxMessageIdSlice, recentConversationsSlice, starredSlice, unreadSlice } from '../../src/core/messages/state';
import { mutedTopicsSlice, userTopicsSlice } from '../../src/core/user-topics/state';
import { User } from '../../src/core/users/model';
import type { ZulipEvent } from '../../src/realtime/bus';
import { RegisterOptions, RegisterState } from '../../src/core/register/slice';
import { NO_CAPABILITIES } from '../../src/realtime/capabilities';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, sendDirect, sendToChannel, subscribe } from './helpers';

const SLICES = [maxMessageIdSlice, unreadSlice, starredSlice, recentConversationsSlice, userTopicsSlice, mutedTopicsSlice];

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let town: number;

function options(emptyTopicName: boolean): RegisterOptions {
  return {
    applyMarkdown: false,
    clientGravatar: true,
    includeSubscribers: 'false',
    slimPresence: false,
    presenceHistoryLimitDays: 14,
    narrow: [],
    allPublicStreams: false,
    capabilities: { ...NO_CAPABILITIES, empty_topic_name: emptyTopicName },
  };
}

const view = (opts: RegisterOptions): ClientView => ({
  queueId: 'test-queue',
  applyMarkdown: opts.applyMarkdown,
  clientGravatar: opts.clientGravatar,
  capabilities: opts.capabilities,
  eventTypes: null,
});

async function fetchState(who: TestUser, opts: RegisterOptions): Promise<RegisterState> {
  const user = await User.query(ts.server.deps.knex).findById(who.id).throwIfNotFound();
  const state: RegisterState = {};
  for (const slice of SLICES) Object.assign(state, await slice.fetch(ts.server.deps, user, opts));
  return state;
}

const plain = (state: RegisterState) => JSON.parse(JSON.stringify(state));

/** Zulip's verify_action: the state before an action, with its events applied (twice), equals the state after. */
async function verify(who: TestUser, action: () => Promise<unknown>, emptyTopicName = false): Promise<ZulipEvent[]> {
  const opts = options(emptyTopicName);
  const user = await User.query(ts.server.deps.knex).findById(who.id).throwIfNotFound();
  const before = await fetchState(who, opts);
  const capture = captureEvents(ts);
  try {
    await action();
  } finally {
    capture.stop();
  }
  const events = capture.for(who.id).flatMap((e) => eventsForClient(e, view(opts)));
  for (const event of [...events, ...events]) for (const slice of SLICES) slice.apply!(before, event, user, opts);
  expect(plain(before)).toEqual(plain(await fetchState(who, opts)));
  return events;
}

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  await makeUser(ts, 600, { fullName: 'Gus Guest' }); // not used here; made so later accounts keep their ids
  town = await subscribe(ts, owner, 'town', [owner, alice, bob, carol]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('register slices', () => {
  test('unread_msgs, recent conversations, max_message_id and starred messages as Zulip shapes them', async () => {
    const dave = await makeUser(ts, 400);
    await subscribe(ts, owner, 'town', [dave]);
    const c1 = await sendToChannel(ts, alice, town, 'Topic', 'hello @**' + dave.fullName + '**');
    const c2 = await sendToChannel(ts, bob, town, '', 'chat');
    const dm = await sendDirect(ts, alice, [dave], 'hi');
    const group = await sendDirect(ts, alice, [dave, bob], 'all of us');
    const self = await sendDirect(ts, dave, [dave], 'note');
    assertSuccess(await client(ts, dave).post('/messages/flags', { messages: [self], op: 'remove', flag: 'read' }));
    assertSuccess(await client(ts, dave).post('/messages/flags', { messages: [c2], op: 'add', flag: 'starred' }));
    const state = await fetchState(dave, options(false));
    expect(state.unread_msgs).toEqual({
      pms: [
        { other_user_id: alice.id, sender_id: alice.id, unread_message_ids: [dm] },
        { other_user_id: dave.id, sender_id: dave.id, unread_message_ids: [self] },
      ],
      streams: [
        { stream_id: town, topic: 'general chat', unread_message_ids: [c2] },
        { stream_id: town, topic: 'Topic', unread_message_ids: [c1] },
      ],
      huddles: [{ user_ids_string: [alice.id, bob.id, dave.id].sort((a, b) => a - b).join(','), unread_message_ids: [group] }],
      mentions: [c1],
      count: 5,
      old_unreads_missing: false,
    });
    expect(state.max_message_id).toBe(self);
    expect(state.starred_messages).toEqual([c2]);
    expect(state.recent_private_conversations).toEqual([
      { max_message_id: self, user_ids: [] },
      { max_message_id: group, user_ids: [alice.id, bob.id].sort((a, b) => a - b) },
      { max_message_id: dm, user_ids: [alice.id] },
    ]);
    const withEmpty = await fetchState(dave, options(true));
    expect((withEmpty.unread_msgs as { streams: { topic: string }[] }).streams[0].topic).toBe('');
    const me = assertSuccess(await client(ts, dave).get('/users/me'));
    expect(me.max_message_id).toBe(self);
    const fresh = await makeUser(ts, 400);
    expect(assertSuccess(await client(ts, fresh).get('/users/me')).max_message_id).toBe(-1);
  });

  test('muted topics and channels do not count toward unread, and unmuted topics in muted channels do', async () => {
    const erin = await makeUser(ts, 400);
    const room = await subscribe(ts, owner, 'noisy', [owner, erin]);
    await sendToChannel(ts, owner, room, 'loud', 'a');
    await sendToChannel(ts, owner, room, 'fine', 'b');
    assertSuccess(await client(ts, erin).post('/user_topics', { stream_id: room, topic: 'loud', visibility_policy: 1 }));
    expect(((await fetchState(erin, options(false))).unread_msgs as { count: number }).count).toBe(1);
    assertSuccess(
      await client(ts, erin).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: room, property: 'is_muted', value: true }] }),
    );
    expect(((await fetchState(erin, options(false))).unread_msgs as { count: number }).count).toBe(0);
    assertSuccess(await client(ts, erin).post('/user_topics', { stream_id: room, topic: 'fine', visibility_policy: 2 }));
    expect(((await fetchState(erin, options(false))).unread_msgs as { count: number }).count).toBe(1);
  });
});

describe('events keep register state in step', () => {
  test('sending channel, direct and group messages', async () => {
    await verify(bob, () => sendToChannel(ts, alice, town, 'news', 'hi @**Bob Builder** and @**all**'));
    await verify(bob, () => sendToChannel(ts, alice, town, '', 'chatter'));
    await verify(bob, () => sendToChannel(ts, alice, town, '', 'more chatter'), true);
    await verify(bob, () => sendDirect(ts, alice, [bob], 'direct'));
    await verify(bob, () => sendDirect(ts, alice, [bob, carol], 'group'));
    await verify(alice, () => sendDirect(ts, alice, [alice], 'self'));
    await verify(alice, () => sendToChannel(ts, alice, town, 'mine', 'sent by me'));
  });

  test('reading, unreading and starring', async () => {
    const a = await sendToChannel(ts, alice, town, 'flags', 'one @**Bob Builder**');
    const b = await sendDirect(ts, alice, [bob, carol], 'two');
    await verify(bob, () => client(ts, bob).post('/messages/flags', { messages: [a, b], op: 'add', flag: 'read' }));
    await verify(bob, () => client(ts, bob).post('/messages/flags', { messages: [a, b], op: 'remove', flag: 'read' }));
    await verify(bob, () => client(ts, bob).post('/messages/flags', { messages: [a], op: 'add', flag: 'starred' }));
    await verify(bob, () => client(ts, bob).post('/messages/flags', { messages: [a], op: 'remove', flag: 'starred' }));
    await verify(bob, () => client(ts, bob).post('/mark_topic_as_read', { stream_id: town, topic_name: 'flags' }));
    await verify(bob, () => client(ts, bob).post('/mark_all_as_read'));
  });

  test('editing, moving and deleting', async () => {
    const other = await subscribe(ts, owner, 'elsewhere', [owner, alice, bob]);
    const a = await sendToChannel(ts, alice, town, 'to move', 'first');
    await sendToChannel(ts, alice, town, 'to move', 'second @**Bob Builder**');
    await verify(bob, () => client(ts, alice).patch(`/messages/${a}`, { content: 'first, now @**Bob Builder**' }));
    await verify(bob, () => client(ts, alice).patch(`/messages/${a}`, { topic: 'moved', propagate_mode: 'change_all' }));
    await verify(bob, () => client(ts, alice).patch(`/messages/${a}`, { stream_id: other, propagate_mode: 'change_all' }));
    await verify(bob, () => client(ts, alice).delete(`/messages/${a}`));
    const dm1 = await sendDirect(ts, alice, [bob], 'first dm');
    const dm2 = await sendDirect(ts, alice, [bob], 'second dm');
    await verify(bob, () => client(ts, alice).delete(`/messages/${dm2}`));
    expect((await fetchState(bob, options(false))).recent_private_conversations).toContainEqual({ max_message_id: dm1, user_ids: [alice.id] });
  });

  test('topic preferences and channel muting', async () => {
    await sendToChannel(ts, alice, town, 'mute me', 'x');
    await verify(bob, () => client(ts, bob).post('/user_topics', { stream_id: town, topic: 'mute me', visibility_policy: 1 }));
    await verify(bob, () => client(ts, bob).patch('/users/me/subscriptions/muted_topics', { stream_id: town, topic: 'other', op: 'add' }));
    await verify(bob, () => client(ts, bob).post('/user_topics', { stream_id: town, topic: 'general chat', visibility_policy: 3 }), true);
    await verify(bob, () => client(ts, bob).post('/user_topics', { stream_id: town, topic: 'mute me', visibility_policy: 0 }));
    await verify(bob, () =>
      client(ts, bob).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: town, property: 'is_muted', value: true }] }),
    );
  });
});

describe('what an event queue delivers', () => {
  const wide = {
    id: 7,
    sender_id: 1,
    content: '**hi**',
    rendered_content: '<p><strong>hi</strong></p>',
    recipient_id: 3,
    timestamp: 1,
    client: 'test',
    subject: '',
    topic_links: [],
    is_me_message: false,
    reactions: [],
    submessages: [],
    sender_full_name: 'A',
    sender_email: 'a@example.com',
    sender_realm_str: 'x',
    display_recipient: 'town',
    type: 'stream',
    stream_id: 2,
    avatar_url: 'https://secure.gravatar.com/avatar/x',
    sender_has_public_gravatar: true,
  };
  const client_ = (overrides: Partial<ClientView> = {}): ClientView => ({
    queueId: 'q1',
    applyMarkdown: true,
    clientGravatar: false,
    capabilities: { bulk_message_deletion: false, empty_topic_name: false },
    eventTypes: null,
    ...overrides,
  });

  test('messages are finalized per client; only the sending queue gets local_message_id', () => {
    const event = { type: 'message', message: wide, flags: ['read'], local_id: '1.5', sender_queue_id: 'q1' };
    const [mine] = eventsForClient(event, client_());
    expect(mine.local_message_id).toBe('1.5');
    expect(mine.local_id).toBeUndefined();
    expect(mine.sender_queue_id).toBeUndefined();
    expect(mine.message).toMatchObject({
      content: '<p><strong>hi</strong></p>',
      content_type: 'text/html',
      subject: 'general chat',
      avatar_url: wide.avatar_url,
    });
    expect((mine.message as Record<string, unknown>).rendered_content).toBeUndefined();
    expect((mine.message as Record<string, unknown>).sender_has_public_gravatar).toBeUndefined();
    const [other] = eventsForClient(
      event,
      client_({ queueId: 'q2', applyMarkdown: false, clientGravatar: true, capabilities: { bulk_message_deletion: false, empty_topic_name: true } }),
    );
    expect(other.local_message_id).toBeUndefined();
    expect(other.message).toMatchObject({ content: '**hi**', content_type: 'text/x-markdown', subject: '', avatar_url: null });
  });

  test('bulk deletions are split for clients without bulk_message_deletion', () => {
    const event = { type: 'delete_message', message_ids: [4, 5], message_type: 'stream', stream_id: 2, topic: '' };
    expect(eventsForClient(event, client_())).toEqual([
      { type: 'delete_message', message_type: 'stream', stream_id: 2, topic: 'general chat', message_id: 4 },
      { type: 'delete_message', message_type: 'stream', stream_id: 2, topic: 'general chat', message_id: 5 },
    ]);
    expect(eventsForClient(event, client_({ capabilities: { bulk_message_deletion: true, empty_topic_name: true } }))).toEqual([event]);
  });

  test('legacy muted_topics events only reach queues that did not ask for user_topic', () => {
    const event = { type: 'muted_topics', muted_topics: [['town', '', 5]] };
    expect(eventsForClient(event, client_({ eventTypes: ['muted_topics'] }))).toEqual([{ type: 'muted_topics', muted_topics: [['town', 'general chat', 5]] }]);
    expect(eventsForClient(event, client_({ eventTypes: ['user_topic', 'muted_topics'] }))).toEqual([]);
    expect(eventsForClient({ type: 'user_topic', stream_id: 2, topic_name: '', last_updated: 1, visibility_policy: 1 }, client_())[0].topic_name).toBe(
      'general chat',
    );
    expect(eventsForClient({ type: 'update_message', orig_subject: '', subject: 'x', message_id: 1 }, client_())[0].orig_subject).toBe('general chat');
  });
});
