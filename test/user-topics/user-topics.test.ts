import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, ofType, sendToChannel, subscribe } from '../messages/helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let town: number;

const setPolicy = (who: TestUser, params: Record<string, unknown>) => client(ts, who).post('/user_topics', params);
const mute = (who: TestUser, params: Record<string, unknown>) => client(ts, who).patch('/users/me/subscriptions/muted_topics', params);
const policies = async (who: TestUser) =>
  (await ts.server.deps.knex('user_topics').where('user_id', who.id).orderBy('id').select('stream_id', 'topic_name', 'visibility_policy')) as {
    stream_id: number;
    topic_name: string;
    visibility_policy: number;
  }[];

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('POST /user_topics', () => {
  test('every policy, with user_topic and muted_topics events; repeating is harmless', async () => {
    const capture = captureEvents(ts);
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'Lunch', visibility_policy: 1 }));
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'lunch', visibility_policy: 1 }));
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'lunch', visibility_policy: 3 }));
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'lunch', visibility_policy: 0 }));
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'never set', visibility_policy: 0 }));
    capture.stop();
    expect(capture.recipientsOf(() => true)).toEqual([bob.id]);
    const events = capture.for(bob.id);
    expect(events).toEqual([
      { type: 'muted_topics', muted_topics: [['town', 'Lunch', expect.any(Number)]] },
      { type: 'user_topic', stream_id: town, topic_name: 'Lunch', last_updated: expect.any(Number), visibility_policy: 1 },
      { type: 'muted_topics', muted_topics: [] },
      { type: 'user_topic', stream_id: town, topic_name: 'lunch', last_updated: expect.any(Number), visibility_policy: 3 },
      { type: 'muted_topics', muted_topics: [] },
      { type: 'user_topic', stream_id: town, topic_name: 'lunch', last_updated: expect.any(Number), visibility_policy: 0 },
    ]);
    expect(await policies(bob)).toEqual([]);
  });

  test('the empty topic by its display name; topics need not have messages', async () => {
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'general chat', visibility_policy: 2 }));
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'nobody wrote here', visibility_policy: 1 }));
    expect(await policies(bob)).toEqual([
      { stream_id: town, topic_name: '', visibility_policy: 2 },
      { stream_id: town, topic_name: 'nobody wrote here', visibility_policy: 1 },
    ]);
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: '', visibility_policy: 0 }));
    assertSuccess(await setPolicy(bob, { stream_id: town, topic: 'nobody wrote here', visibility_policy: 0 }));
  });

  test('errors', async () => {
    const secret = await subscribe(ts, owner, 'secret', [owner], { invite_only: true });
    assertError(await setPolicy(bob, { stream_id: town, topic: 't', visibility_policy: 7 }), 'BAD_REQUEST', 'Invalid visibility_policy');
    assertError(
      await setPolicy(bob, { stream_id: town, topic: 'x'.repeat(61), visibility_policy: 1 }),
      'BAD_REQUEST',
      'topic is too long (limit: 60 characters)',
    );
    assertError(await setPolicy(bob, { stream_id: 999999, topic: 't', visibility_policy: 1 }), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await setPolicy(bob, { stream_id: secret, topic: 't', visibility_policy: 1 }), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await setPolicy(bob, { stream_id: town, topic: 't' }), 'REQUEST_VARIABLE_MISSING', "Missing 'visibility_policy' argument");
  });
});

describe('PATCH /users/me/subscriptions/muted_topics', () => {
  test('by channel id or name; muting twice or unmuting an unmuted topic succeeds', async () => {
    assertSuccess(await mute(alice, { stream_id: town, topic: 'noise', op: 'add' }));
    assertSuccess(await mute(alice, { stream: 'Town', topic: 'noise', op: 'add' }));
    expect(await policies(alice)).toEqual([{ stream_id: town, topic_name: 'noise', visibility_policy: 1 }]);
    assertSuccess(await mute(alice, { stream: 'town', topic: 'noise', op: 'remove' }));
    assertSuccess(await mute(alice, { stream_id: town, topic: 'noise', op: 'remove' }));
    expect(await policies(alice)).toEqual([]);
  });

  test('exactly one of stream_id and stream; op and topic are checked', async () => {
    assertError(await mute(alice, { topic: 't', op: 'add' }), 'BAD_REQUEST', "Missing 'stream_id' argument");
    const both = assertError(
      await mute(alice, { stream_id: town, stream: 'town', topic: 't', op: 'add' }),
      'BAD_REQUEST',
      'Unsupported parameter combination: stream_id, stream',
    );
    expect(both.parameters).toBe('stream_id, stream');
    assertError(await mute(alice, { stream_id: town, topic: 't', op: 'toggle' }), 'BAD_REQUEST', 'Invalid op');
    assertError(await mute(alice, { stream: 'nowhere', topic: 't', op: 'add' }), 'BAD_REQUEST', "Invalid channel name 'nowhere'");
    assertError(await mute(alice, { stream_id: town, topic: 'y'.repeat(61), op: 'add' }), 'BAD_REQUEST', 'topic is too long (limit: 60 characters)');
    assertError(await mute(alice, { stream_id: town, op: 'add' }), 'REQUEST_VARIABLE_MISSING', "Missing 'topic' argument");
  });
});

describe('GET /users/me/{stream_id}/topics', () => {
  test('most recent first, one entry per topic whatever its letter case', async () => {
    const room = await subscribe(ts, owner, 'topics-room', [owner, alice]);
    await sendToChannel(ts, alice, room, 'Old', '1');
    await sendToChannel(ts, alice, room, 'middle', '2');
    const old2 = await sendToChannel(ts, alice, room, 'old', '3');
    const chat = await sendToChannel(ts, alice, room, '', '4');
    const res = assertSuccess(await client(ts, alice).get(`/users/me/${room}/topics`));
    expect(res.topics).toEqual([
      { name: 'general chat', max_id: chat },
      { name: 'old', max_id: old2 },
      { name: 'middle', max_id: old2 - 1 },
    ]);
    const raw = assertSuccess(await client(ts, alice).get(`/users/me/${room}/topics`, { allow_empty_topic_name: true }));
    expect(raw.topics[0].name).toBe('');
    assertError(await client(ts, alice).get('/users/me/999999/topics'), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('with protected history, only topics of messages one received', async () => {
    const vault = await subscribe(ts, owner, 'protected', [owner], { invite_only: true, history_public_to_subscribers: false });
    await sendToChannel(ts, owner, vault, 'before', 'x');
    assertError(await client(ts, bob).get(`/users/me/${vault}/topics`), 'BAD_REQUEST', 'Invalid channel ID');
    await subscribe(ts, owner, 'protected', [bob]);
    const after = await sendToChannel(ts, owner, vault, 'after', 'y');
    expect(assertSuccess(await client(ts, bob).get(`/users/me/${vault}/topics`)).topics).toEqual([{ name: 'after', max_id: after }]);
    expect(assertSuccess(await client(ts, owner).get(`/users/me/${vault}/topics`)).topics.map((t: { name: string }) => t.name)).toEqual(['after', 'before']);
  });
});

describe('automatic follows', () => {
  test('starting a topic follows it; mentions make the mentioned follow', async () => {
    const capture = captureEvents(ts);
    const first = assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: town, topic: 'new idea', content: 'what about it?' }));
    expect(first.automatic_new_visibility_policy).toBe(3);
    const second = assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: town, topic: 'new idea', content: 'and @**Bob Builder**?' }));
    expect(second.automatic_new_visibility_policy).toBeUndefined();
    capture.stop();
    expect(capture.for(alice.id).filter(ofType('user_topic'))).toEqual([
      { type: 'user_topic', stream_id: town, topic_name: 'new idea', last_updated: expect.any(Number), visibility_policy: 3 },
    ]);
    expect(capture.for(bob.id).filter(ofType('user_topic'))).toEqual([
      { type: 'user_topic', stream_id: town, topic_name: 'new idea', last_updated: expect.any(Number), visibility_policy: 3 },
    ]);
  });

  test('joining a topic someone else started does not follow it; with protected history, only received messages count', async () => {
    assertSuccess(await client(ts, owner).post('/messages', { type: 'stream', to: town, topic: 'their idea', content: 'mine' }));
    const reply = assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: town, topic: 'Their Idea', content: 'nice' }));
    expect(reply.automatic_new_visibility_policy).toBeUndefined();
    expect((await policies(bob)).find((p) => p.topic_name.toLowerCase() === 'their idea')).toBeUndefined();

    const archive = await subscribe(ts, owner, 'archive', [owner], { invite_only: true, history_public_to_subscribers: false });
    await sendToChannel(ts, owner, archive, 'old news', 'before bob joined');
    await subscribe(ts, owner, 'archive', [bob]);
    // Bob never received the earlier message: to him, he starts the topic.
    const first = assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: archive, topic: 'old news', content: 'hello?' }));
    expect(first.automatic_new_visibility_policy).toBe(3);
  });

  test('sending in a muted channel unmutes the topic; a muted topic is not followed on mention', async () => {
    assertSuccess(await client(ts, owner).post('/messages', { type: 'stream', to: town, topic: 'busy', content: 'start' }));
    assertSuccess(
      await client(ts, bob).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: town, property: 'is_muted', value: true }] }),
    );
    const res = assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: town, topic: 'busy', content: 'me too' }));
    expect(res.automatic_new_visibility_policy).toBe(2);
    assertSuccess(
      await client(ts, bob).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: town, property: 'is_muted', value: false }] }),
    );
    assertSuccess(await setPolicy(alice, { stream_id: town, topic: 'quiet', visibility_policy: 1 }));
    await sendToChannel(ts, bob, town, 'quiet', 'hey @**Alice Liddell**');
    expect((await policies(alice)).find((p) => p.topic_name === 'quiet')?.visibility_policy).toBe(1);
  });
});
