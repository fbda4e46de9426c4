import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { subscribe } from './helpers';

/**
 * A sender's second message to a topic reuses what the first one read (the channel, its
 * subscribers, the sender's state in the topic). Each test sends once to remember it, changes one
 * of those things through the API, and checks that the next message sees the change.
 */
let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
}, 120_000);
afterAll(() => ts.close(), 60_000);

const send = async (who: TestUser, to: number | string, topic: string, content = 'hello') =>
  assertSuccess(await client(ts, who).post('/messages', { type: 'stream', to, topic, content }));

async function recipients(messageId: number): Promise<number[]> {
  const rows: { user_id: number }[] = await ts.server.deps.knex('user_messages').where({ message_id: messageId }).orderBy('user_id').select('user_id');
  return rows.map((r) => r.user_id);
}

const sorted = (...users: TestUser[]) => users.map((u) => u.id).sort((a, b) => a - b);

test('a new subscriber receives the next message', async () => {
  const channel = await subscribe(ts, owner, 'snap-join', [alice, bob]);
  expect(await recipients((await send(alice, channel, 't')).id)).toEqual(sorted(alice, bob));
  assertSuccess(await client(ts, owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'snap-join' }], principals: [carol.id] }));
  expect(await recipients((await send(alice, channel, 't')).id)).toEqual(sorted(alice, bob, carol));
});

test('someone who unsubscribed does not', async () => {
  const channel = await subscribe(ts, owner, 'snap-leave', [alice, bob]);
  await send(alice, channel, 't');
  assertSuccess(await client(ts, bob).delete('/users/me/subscriptions', { subscriptions: ['snap-leave'] }));
  expect(await recipients((await send(alice, channel, 't')).id)).toEqual([alice.id]);
});

test('a deactivated subscriber does not, and receives again once reactivated', async () => {
  const channel = await subscribe(ts, owner, 'snap-deactivate', [alice, carol]);
  await send(alice, channel, 't');
  assertSuccess(await client(ts, owner).delete(`/users/${carol.id}`));
  expect(await recipients((await send(alice, channel, 't')).id)).toEqual([alice.id]);
  assertSuccess(await client(ts, owner).post(`/users/${carol.id}/reactivate`));
  expect(await recipients((await send(alice, channel, 't')).id)).toEqual(sorted(alice, carol));
});

test('a renamed channel is no longer found by its old name, and is by its new one', async () => {
  const channel = await subscribe(ts, owner, 'snap-old-name', [alice]);
  await send(alice, 'snap-old-name', 't');
  assertSuccess(await client(ts, owner).patch(`/streams/${channel}`, { new_name: 'snap-new-name' }));
  assertError(
    await client(ts, alice).post('/messages', { type: 'stream', to: 'snap-old-name', topic: 't', content: 'x' }),
    'STREAM_DOES_NOT_EXIST',
    "Channel 'snap-old-name' does not exist",
  );
  const { id } = await send(alice, 'snap-new-name', 't');
  const { message } = assertSuccess(await client(ts, alice).get(`/messages/${id}`));
  expect(message.display_recipient).toBe('snap-new-name');
});

test('a channel made private refuses the sender who left it', async () => {
  const channel = await subscribe(ts, owner, 'snap-private', [alice]);
  await send(alice, channel, 't');
  assertSuccess(await client(ts, owner).patch(`/streams/${channel}`, { is_private: true }));
  assertSuccess(await client(ts, alice).delete('/users/me/subscriptions', { subscriptions: ['snap-private'] }));
  assertError(
    await client(ts, alice).post('/messages', { type: 'stream', to: channel, topic: 't', content: 'x' }),
    'BAD_REQUEST',
    "Not authorized to send to channel 'snap-private'",
  );
});

test('muting the channel makes the next message unmute the topic', async () => {
  const channel = await subscribe(ts, owner, 'snap-muted', [alice]);
  expect((await send(alice, channel, 't')).automatic_new_visibility_policy).toBe(3);
  assertSuccess(await client(ts, alice).post('/user_topics', { stream_id: channel, topic: 't', visibility_policy: 0 }));
  expect((await send(alice, channel, 't')).automatic_new_visibility_policy).toBeUndefined();
  assertSuccess(
    await client(ts, alice).post('/users/me/subscriptions/properties', { subscription_data: [{ stream_id: channel, property: 'is_muted', value: true }] }),
  );
  expect((await send(alice, channel, 't')).automatic_new_visibility_policy).toBe(2);
});

test('a topic emptied by deletion is started again, and followed again', async () => {
  const channel = await subscribe(ts, owner, 'snap-emptied', [alice, bob]);
  const first = await send(bob, channel, 't');
  const second = await send(alice, channel, 't');
  expect(second.automatic_new_visibility_policy).toBeUndefined();
  await send(alice, channel, 't');
  const rows: { id: number }[] = await ts.server.deps.knex('messages').where({ stream_id: channel }).select('id');
  for (const { id } of rows) assertSuccess(await client(ts, owner).delete(`/messages/${id}`));
  expect(rows.map((r) => r.id)).toContain(first.id);
  expect((await send(alice, channel, 't')).automatic_new_visibility_policy).toBe(3);
});

test('a topic moved away is started again', async () => {
  const channel = await subscribe(ts, owner, 'snap-moved', [alice, bob]);
  const { id } = await send(bob, channel, 'before');
  expect((await send(alice, channel, 'before')).automatic_new_visibility_policy).toBeUndefined();
  assertSuccess(await client(ts, owner).patch(`/messages/${id}`, { topic: 'after', propagate_mode: 'change_all', send_notification_to_new_thread: false }));
  expect((await send(alice, channel, 'before')).automatic_new_visibility_policy).toBe(3);
});
