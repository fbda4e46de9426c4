import type { Delivery, ZulipEvent } from '../../src/realtime/bus';
import { MemoryQueueStore } from '../../src/realtime/memory-store';
import { registerEventTransform } from '../../src/realtime/transforms';
import { assertError, assertSuccess, basicAuth, client } from '../helpers/api';
import { deleteQueue, getEvents, registerQueue, RegisterOptions } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(120_000);

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
});
afterAll(async () => {
  await ts.close();
});

const queues = () => ts.server.deps.realtime!.queues;

/** Publishes events straight onto the bus, as an action does after its commit. */
async function publish(userIds: number[], event: ZulipEvent, extra: Partial<Delivery> = {}): Promise<void> {
  await ts.server.deps.bus.publish([{ realmId: ts.server.deps.realmId, userIds, event, ...extra }]);
}

/** A queue of `user` that fetches no state and receives only the given event types. */
async function quietQueue(user: TestUser, eventTypes?: string[], options: RegisterOptions = {}) {
  return registerQueue(ts, user, { fetchEventTypes: [], eventTypes, ...options });
}

const strip = (events: ZulipEvent[]) => events.map(({ id: _id, ...rest }) => rest);

describe('GET /events', () => {
  test('a waiting request returns as soon as an event arrives', async () => {
    const reg = await quietQueue(alice);
    const pending = getEvents(ts, alice, reg.queueId, reg.lastEventId);
    await waitUntil(() => queues().waitingCount > 0);
    await publish([alice.id], { type: 'custom', n: 1 });
    expect(await pending).toEqual([{ type: 'custom', n: 1, id: 0 }]);
  });

  test('returns waiting events at once, and dont_block returns an empty list', async () => {
    const reg = await quietQueue(alice);
    expect(await getEvents(ts, alice, reg.queueId, -1, { dontBlock: true })).toEqual([]);
    await publish([alice.id], { type: 'custom', n: 2 });
    expect(await getEvents(ts, alice, reg.queueId, -1)).toEqual([{ type: 'custom', n: 2, id: 0 }]);
  });

  test('events come in order with consecutive ids, each once acknowledged', async () => {
    const reg = await quietQueue(alice);
    for (let n = 0; n < 5; n++) await publish([alice.id], { type: 'custom', n });
    const first = await getEvents(ts, alice, reg.queueId, -1);
    expect(first.map((e) => [e.id, e.n])).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
    // Not acknowledged yet: asking again returns the same events.
    expect(await getEvents(ts, alice, reg.queueId, -1)).toEqual(first);
    // Acknowledging 2 prunes 0..2.
    expect((await getEvents(ts, alice, reg.queueId, 2)).map((e) => e.id)).toEqual([3, 4]);
    await publish([alice.id], { type: 'custom', n: 5 });
    expect((await getEvents(ts, alice, reg.queueId, 4)).map((e) => [e.id, e.n])).toEqual([[5, 5]]);
    expect(await getEvents(ts, alice, reg.queueId, 5, { dontBlock: true })).toEqual([]);
  });

  test('acknowledging backwards past pruned events, or an event never queued, is an error', async () => {
    const reg = await quietQueue(alice);
    for (let n = 0; n < 3; n++) await publish([alice.id], { type: 'custom', n });
    await getEvents(ts, alice, reg.queueId, 1);
    assertError(
      await client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: 0 }),
      'BAD_REQUEST',
      'An event newer than 0 has already been pruned!',
    );
    assertError(
      await client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: 7, dont_block: true }),
      'BAD_REQUEST',
      'Event 7 was not in this queue',
    );
  });

  test('a second request on the same queue ends the first one', async () => {
    const reg = await quietQueue(alice);
    const first = getEvents(ts, alice, reg.queueId, -1);
    await waitUntil(() => queues().waitingCount > 0);
    const second = getEvents(ts, alice, reg.queueId, -1);
    expect(await first).toEqual([]);
    await waitUntil(() => queues().waitingCount > 0);
    await publish([alice.id], { type: 'custom', n: 3 });
    expect(await second).toEqual([{ type: 'custom', n: 3, id: 0 }]);
  });

  test('a client that goes away stops waiting', async () => {
    const reg = await quietQueue(alice);
    const before = queues().waitingCount;
    const abort = new AbortController();
    const url = `${ts.url}/api/v1/events?queue_id=${reg.queueId}&last_event_id=-1`;
    const request = fetch(url, { headers: { authorization: basicAuth(alice) }, signal: abort.signal }).catch((e: Error) => e);
    await waitUntil(() => queues().waitingCount > before);
    abort.abort();
    expect(await request).toHaveProperty('name', 'AbortError');
    await waitUntil(() => queues().waitingCount === before);
    // The queue itself is still there and keeps collecting.
    await publish([alice.id], { type: 'custom', n: 4 });
    expect(strip(await getEvents(ts, alice, reg.queueId, -1))).toEqual([{ type: 'custom', n: 4 }]);
  });

  test('parameter errors', async () => {
    assertError(await client(ts, alice).get('/events', {}), 'BAD_REQUEST', "Missing 'queue_id' argument");
    const reg = await quietQueue(alice);
    assertError(await client(ts, alice).get('/events', { queue_id: reg.queueId }), 'BAD_REQUEST', "Missing 'last_event_id' argument");
    assertError(
      await client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: 'x' }),
      'INVALID_JSON',
      'Argument "last_event_id" is not valid JSON.',
    );
    assertError(
      await client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1, dont_block: 1 }),
      'BAD_REQUEST',
      'dont_block is not a boolean',
    );
  });

  test("an unknown queue id and another user's queue id get the same answer", async () => {
    const reg = await quietQueue(alice);
    for (const [who, id] of [
      [alice, 'no-such-queue'],
      [bob, reg.queueId],
    ] as const) {
      const body = assertError(
        await client(ts, who).get('/events', { queue_id: id, last_event_id: -1, dont_block: true }),
        'BAD_EVENT_QUEUE_ID',
        `Bad event queue ID: ${id}`,
      );
      expect(body.queue_id).toBe(id);
    }
    // Bob's attempt did not disturb Alice's queue.
    expect(await getEvents(ts, alice, reg.queueId, -1, { dontBlock: true })).toEqual([]);
  });

  test('without queue_id, dont_block creates a queue from the register parameters', async () => {
    const body = assertSuccess(await client(ts, alice).get('/events', { dont_block: true, event_types: ['custom'] }));
    expect(body.events).toEqual([]);
    expect(typeof body.queue_id).toBe('string');
    await publish([alice.id], { type: 'other' });
    await publish([alice.id], { type: 'custom', n: 6 });
    expect(strip(await getEvents(ts, alice, body.queue_id, -1))).toEqual([{ type: 'custom', n: 6 }]);
  });
});

describe('DELETE /events', () => {
  test('deletes the queue', async () => {
    const reg = await quietQueue(alice);
    await deleteQueue(ts, alice, reg.queueId);
    assertError(
      await client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 }),
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${reg.queueId}`,
    );
    assertError(await client(ts, alice).delete('/events', { queue_id: reg.queueId }), 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${reg.queueId}`);
  });

  test('a waiting request on a deleted queue is told so', async () => {
    const reg = await quietQueue(alice);
    const pending = client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 });
    await waitUntil(() => queues().waitingCount > 0);
    await deleteQueue(ts, alice, reg.queueId);
    assertError(await pending, 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${reg.queueId}`);
  });

  test("another user's queue cannot be deleted, and looks unknown", async () => {
    const reg = await quietQueue(alice);
    assertError(await client(ts, bob).delete('/events', { queue_id: reg.queueId }), 'BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${reg.queueId}`);
    expect(await getEvents(ts, alice, reg.queueId, -1, { dontBlock: true })).toEqual([]);
  });

  test('queue_id is required', async () => {
    const body = assertError(await client(ts, alice).delete('/events', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'queue_id' argument");
    expect(body.var_name).toBe('queue_id');
  });
});

describe('which queues receive an event', () => {
  test('only the recipients of a delivery', async () => {
    const a = await quietQueue(alice);
    const b = await quietQueue(bob);
    await publish([alice.id], { type: 'custom', to: 'alice' });
    expect(strip(await getEvents(ts, alice, a.queueId, -1, { dontBlock: true }))).toEqual([{ type: 'custom', to: 'alice' }]);
    expect(await getEvents(ts, bob, b.queueId, -1, { dontBlock: true })).toEqual([]);
  });

  test('every queue of a recipient', async () => {
    const first = await quietQueue(alice);
    const second = await quietQueue(alice);
    await publish([alice.id], { type: 'custom', n: 7 });
    for (const reg of [first, second]) expect(strip(await getEvents(ts, alice, reg.queueId, -1))).toEqual([{ type: 'custom', n: 7 }]);
  });

  test('event_types limits the types', async () => {
    const reg = await quietQueue(alice, ['wanted']);
    await publish([alice.id], { type: 'unwanted' });
    await publish([alice.id], { type: 'wanted' });
    expect(strip(await getEvents(ts, alice, reg.queueId, -1))).toEqual([{ type: 'wanted' }]);
  });

  test('an empty event_types list receives nothing but heartbeats', async () => {
    const reg = await quietQueue(alice, []);
    await publish([alice.id], { type: 'custom' });
    expect(await getEvents(ts, alice, reg.queueId, -1, { dontBlock: true })).toEqual([]);
  });

  test('per-recipient fields are merged for that recipient only', async () => {
    const a = await quietQueue(alice);
    const b = await quietQueue(bob);
    await publish([alice.id, bob.id], { type: 'custom', flags: [] }, { perUser: { [alice.id]: { flags: ['read'] } } });
    expect(strip(await getEvents(ts, alice, a.queueId, -1))).toEqual([{ type: 'custom', flags: ['read'] }]);
    expect(strip(await getEvents(ts, bob, b.queueId, -1))).toEqual([{ type: 'custom', flags: [] }]);
  });

  const streamMessage = (channel: string, topic: string, sender = 'carol@example.com') => ({
    type: 'message',
    flags: [],
    message: { id: 1, type: 'stream', display_recipient: channel, subject: topic, sender_email: sender, content: 'hi' },
  });
  const directMessage = {
    type: 'message',
    flags: [],
    message: { id: 2, type: 'private', display_recipient: [], subject: '', sender_email: 'carol@example.com', content: 'hi' },
  };

  test.each([
    [[['is', 'dm']], [false, false, true]],
    [[['stream', 'denmark']], [true, false, false]],
    [
      [
        ['channel', 'Denmark'],
        ['topic', 'plans'],
      ],
      [true, false, false],
    ],
    [[['topic', 'weekend']], [true, false, false]],
    [[['exact-topic', 'weekend plans']], [true, false, false]],
    [[['exact-topic', 'weekend']], [false, false, false]],
    [[['sender', 'CAROL@example.com']], [true, false, true]],
    [[['is', 'mentioned']], [false, true, false]],
  ])('narrow %j filters message events', async (narrow, expected) => {
    const reg = await quietQueue(alice, undefined, { narrow: narrow as [string, string][] });
    await publish([alice.id], streamMessage('Denmark', 'weekend plans'));
    await publish([alice.id], { ...streamMessage('Sweden', 'other', 'dave@example.com'), flags: ['mentioned'] });
    await publish([alice.id], directMessage);
    await publish([alice.id], { type: 'custom' });
    const got = await getEvents(ts, alice, reg.queueId, -1);
    const messages = got.filter((e) => e.type === 'message').map((e) => e.message.id);
    const wanted = [1, 1, 2].filter((_, i) => expected[i]);
    expect(messages).toEqual(wanted);
    // Other event types are not narrowed.
    expect(got.some((e) => e.type === 'custom')).toBe(true);
  });

  test('all_public_streams adds public-channel messages of other users', async () => {
    const follower = await quietQueue(bob, undefined, { allPublicStreams: true });
    const plain = await quietQueue(bob);
    await publish([alice.id], streamMessage('Denmark', 'public'), { publicChannel: true, perUser: { [alice.id]: { flags: ['read'] } } });
    await publish([alice.id], streamMessage('Secret', 'private'));
    const got = await getEvents(ts, bob, follower.queueId, -1);
    expect(got.map((e) => [e.message.display_recipient, e.flags])).toEqual([['Denmark', []]]);
    expect(await getEvents(ts, bob, plain.queueId, -1, { dontBlock: true })).toEqual([]);
  });

  test('a recipient with an all_public_streams queue gets a public message once, with its flags', async () => {
    const reg = await quietQueue(alice, undefined, { allPublicStreams: true });
    await publish([alice.id], streamMessage('Denmark', 'once'), { publicChannel: true, perUser: { [alice.id]: { flags: ['read'] } } });
    const got = await getEvents(ts, alice, reg.queueId, -1);
    expect(got.map((e) => e.flags)).toEqual([['read']]);
  });
});

describe('payloads shaped by client capabilities', () => {
  const caps = (names: string[]) => Object.fromEntries(names.map((n) => [n, true]));

  async function receive(capabilities: string[], deliveries: [ZulipEvent, Partial<Delivery>?][], options: RegisterOptions = {}) {
    const reg = await quietQueue(alice, undefined, { capabilities: caps(capabilities), ...options });
    for (const [event, extra] of deliveries) await publish([alice.id], event, extra ?? {});
    return strip(await getEvents(ts, alice, reg.queueId, -1, { dontBlock: true }));
  }

  test('bulk_message_deletion: one event with message_ids, else one event per message', async () => {
    const event = { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 'x', message_ids: [10, 11] };
    expect(await receive(['bulk_message_deletion'], [[event]])).toEqual([event]);
    expect(await receive([], [[event]])).toEqual([
      { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 'x', message_id: 10 },
      { type: 'delete_message', message_type: 'stream', stream_id: 3, topic: 'x', message_id: 11 },
    ]);
  });

  test('empty_topic_name: the empty topic is renamed for clients that do not handle it', async () => {
    const typing = { type: 'typing', op: 'start', message_type: 'stream', stream_id: 3, topic: '', sender: { user_id: 1, email: 'a@b.c' } };
    const message = { type: 'message', flags: [], message: { id: 5, type: 'stream', subject: '', display_recipient: 'x' } };
    const both = ['stream_typing_notifications'];
    // Without apply_markdown the message comes as Markdown.
    const asMarkdown = { ...message, message: { ...message.message, content_type: 'text/x-markdown' } };
    expect(await receive([...both, 'empty_topic_name'], [[typing], [message]])).toEqual([typing, asMarkdown]);
    expect(await receive(both, [[typing], [message]])).toEqual([
      { ...typing, topic: 'general chat' },
      { ...asMarkdown, message: { ...asMarkdown.message, subject: 'general chat' } },
    ]);
  });

  test('stream_typing_notifications: channel typing only for clients that show it', async () => {
    const channelTyping = { type: 'typing', op: 'start', message_type: 'stream', stream_id: 3, topic: 't' };
    const directTyping = { type: 'typing', op: 'start', message_type: 'direct', recipients: [] };
    expect(await receive(['stream_typing_notifications'], [[channelTyping], [directTyping]])).toEqual([channelTyping, directTyping]);
    expect(await receive([], [[channelTyping], [directTyping]])).toEqual([directTyping]);
  });

  test('user_settings_object: every client gets only user_settings, no legacy settings event', async () => {
    const modern = { type: 'user_settings', op: 'update', property: 'enter_sends', value: true };
    expect(await receive(['user_settings_object'], [[modern]])).toEqual([modern]);
    expect(await receive([], [[modern]])).toEqual([modern]);
  });

  test('simplified_presence_events and slim_presence choose the presence layout', async () => {
    const wide = {
      type: 'presence',
      user_id: 9,
      email: 'p@example.com',
      server_timestamp: 1700000000.5,
      presence: { website: { client: 'website', status: 'active', timestamp: 1700000000, pushable: false } },
      presences: { '9': { active_timestamp: 1700000000, idle_timestamp: 1700000000 } },
    };
    expect(await receive(['simplified_presence_events'], [[wide]])).toEqual([{ type: 'presence', presences: wide.presences }]);
    const { presences: _p, ...legacy } = wide;
    expect(await receive([], [[wide]])).toEqual([legacy]);
    const { email: _e, ...slim } = legacy;
    expect(await receive([], [[wide]], { extra: { slim_presence: true } })).toEqual([slim]);
  });

  test('linkifier_url_template: linkifier events only for clients that understand templates', async () => {
    const event = { type: 'realm_linkifiers', realm_linkifiers: [{ id: 1, pattern: '#(?P<id>\\d+)', url_template: 'https://x/{id}' }] };
    expect(await receive(['linkifier_url_template'], [[event]])).toEqual([event]);
    expect(await receive([], [[event]])).toEqual([]);
  });

  test('emitters can give other shapes for clients with or without a capability', async () => {
    const update = { type: 'user_group', op: 'update', group_id: 4, data: { deactivated: true } };
    const remove = { type: 'user_group', op: 'remove', group_id: 4 };
    const variants = { ifNotCapable: { include_deactivated_groups: [remove] } };
    expect(await receive(['include_deactivated_groups'], [[update, variants]])).toEqual([update]);
    expect(await receive([], [[update, variants]])).toEqual([remove]);

    const archived = { type: 'stream', op: 'update', stream_id: 3, property: 'is_archived', value: true };
    const dropForOld = { ifNotCapable: { archived_channels: [] } };
    expect(await receive(['archived_channels'], [[archived, dropForOld]])).toEqual([archived]);
    expect(await receive([], [[archived, dropForOld]])).toEqual([]);

    const add = { type: 'realm_user', op: 'add', person: { user_id: 77, full_name: 'Unknown user' } };
    const dropForIncomplete = { ifCapable: { user_list_incomplete: [] } };
    expect(await receive(['user_list_incomplete'], [[add, dropForIncomplete]])).toEqual([]);
    expect(await receive([], [[add, dropForIncomplete]])).toEqual([add]);
  });

  test('features can register their own transforms', async () => {
    registerEventTransform('reshaped', (event, queue) => [{ ...event, gravatar: queue.clientGravatar }, { type: 'reshaped_extra' }]);
    expect(await receive([], [[{ type: 'reshaped' }]], { clientGravatar: false })).toEqual([{ type: 'reshaped', gravatar: false }, { type: 'reshaped_extra' }]);
  });
});

test('a queue that falls too far behind is dropped', async () => {
  const store = queues().store as MemoryQueueStore;
  const saved = store.maxEvents;
  store.maxEvents = 3;
  try {
    const reg = await quietQueue(alice);
    for (let n = 0; n < 3; n++) await publish([alice.id], { type: 'custom', n });
    expect(await getEvents(ts, alice, reg.queueId, -1, { dontBlock: true })).toHaveLength(3);
    await publish([alice.id], { type: 'custom', n: 3 });
    assertError(
      await client(ts, alice).get('/events', { queue_id: reg.queueId, last_event_id: -1 }),
      'BAD_EVENT_QUEUE_ID',
      `Bad event queue ID: ${reg.queueId}`,
    );
  } finally {
    store.maxEvents = saved;
  }
});
