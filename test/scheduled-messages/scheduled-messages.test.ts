import { assertError, assertSuccess, client } from '../helpers/api';
import { verifyAction, verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { subscribe } from '../messages/helpers';

// Scheduling, editing and cancelling: Zulip's rules and errors, and the sender's clients follow.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let channelId: number;
let privateId: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  channelId = await subscribe(ts, ts.owner, 'plans', [alice, bob]);
  privateId = await subscribe(ts, ts.owner, 'secret', [], { invite_only: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

// Times far enough ahead that the scheduler never delivers a message while a slow run is still testing.
const later = (seconds = 3600) => Math.floor(Date.now() / 1000) + seconds;
const toChannel = (extra: Record<string, unknown> = {}) => ({
  type: 'stream',
  to: String(channelId),
  topic: 'Castle',
  content: 'Hi **all**',
  scheduled_delivery_timestamp: later(),
  ...extra,
});
const schedule = async (who: TestUser, params: Record<string, unknown>) =>
  assertSuccess(await client(ts, who).post('/scheduled_messages', params)).scheduled_message_id as number;
const list = async (who: TestUser) => assertSuccess(await client(ts, who).get('/scheduled_messages')).scheduled_messages as Record<string, unknown>[];

test('a channel message and a direct message, listed earliest first as Zulip shows them', async () => {
  const user = await makeUser(ts, 400);
  const dmAt = later(3000);
  const channelAt = later(7200);
  const channelMsg = await schedule(user, toChannel({ scheduled_delivery_timestamp: channelAt }));
  const dm = await schedule(user, { type: 'direct', to: JSON.stringify([bob.id]), content: 'Can we meet?', scheduled_delivery_timestamp: dmAt });
  expect(await list(user)).toEqual([
    {
      scheduled_message_id: dm,
      type: 'private',
      to: [bob.id],
      content: 'Can we meet?',
      rendered_content: '<p>Can we meet?</p>',
      scheduled_delivery_timestamp: dmAt,
      failed: false,
    },
    {
      scheduled_message_id: channelMsg,
      type: 'stream',
      to: channelId,
      topic: 'Castle',
      content: 'Hi **all**',
      rendered_content: '<p>Hi <strong>all</strong></p>',
      scheduled_delivery_timestamp: channelAt,
      failed: false,
    },
  ]);
  // Nobody else sees them.
  expect(await list(bob)).toEqual([]);
  // A message to oneself lists oneself.
  const self = await schedule(user, { type: 'private', to: JSON.stringify([user.id]), content: 'note', scheduled_delivery_timestamp: later(2000) });
  expect((await list(user))[0]).toMatchObject({ scheduled_message_id: self, to: [user.id] });
});

test('scheduling is checked as sending is, plus the delivery time', async () => {
  const c = client(ts, alice);
  assertError(
    await c.post('/scheduled_messages', toChannel({ scheduled_delivery_timestamp: later(-10) })),
    'BAD_REQUEST',
    'Scheduled delivery time must be in the future.',
  );
  assertError(await c.post('/scheduled_messages', toChannel({ to: 'plans' })), 'BAD_REQUEST', 'Invalid data type for channel ID');
  assertError(await c.post('/scheduled_messages', toChannel({ to: '99999' })), 'STREAM_DOES_NOT_EXIST', "Channel with ID '99999' does not exist");
  assertError(await c.post('/scheduled_messages', toChannel({ to: String(privateId) })), 'BAD_REQUEST', "Not authorized to send to channel 'secret'");
  assertError(
    await c.post('/scheduled_messages', { type: 'direct', to: '99999', content: 'x', scheduled_delivery_timestamp: later() }),
    'BAD_REQUEST',
    'Invalid data type for recipients',
  );
  assertError(
    await c.post('/scheduled_messages', { type: 'direct', to: JSON.stringify([bob.email]), content: 'x', scheduled_delivery_timestamp: later() }),
    'BAD_REQUEST',
    'Recipient list may only contain user IDs',
  );
  assertError(
    await c.post('/scheduled_messages', { type: 'direct', to: '[99999]', content: 'x', scheduled_delivery_timestamp: later() }),
    'BAD_REQUEST',
    'Invalid user ID 99999',
  );
  assertError(await c.post('/scheduled_messages', toChannel({ content: '   ' })), 'BAD_REQUEST', 'Message must not be empty');
  assertError(
    await c.post('/scheduled_messages', toChannel({ scheduled_delivery_timestamp: 'soon' })),
    'INVALID_JSON',
    'Argument "scheduled_delivery_timestamp" is not valid JSON.',
  );
  assertError(
    await c.post('/scheduled_messages', { type: 'stream', to: String(channelId), content: 'x' }),
    'REQUEST_VARIABLE_MISSING',
    "Missing 'scheduled_delivery_timestamp' argument",
  );
  // A guest may not write to a channel they cannot reach.
  assertError(await client(ts, guest).post('/scheduled_messages', toChannel()), 'BAD_REQUEST', "Not authorized to send to channel 'plans'");
  expect(await list(alice)).toEqual([]);
});

test('editing: content, topic, time, addressee; Zulip’s errors', async () => {
  const id = await schedule(alice, toChannel());
  const c = client(ts, alice);
  assertError(await c.patch(`/scheduled_messages/${id}`, {}), 'BAD_REQUEST', 'Nothing to change');
  assertError(await c.patch(`/scheduled_messages/${id}`, { type: 'direct' }), 'BAD_REQUEST', 'Recipient required when updating type of scheduled message.');
  assertError(
    await c.patch(`/scheduled_messages/${id}`, { type: 'stream', to: String(channelId) }),
    'BAD_REQUEST',
    'Topic required when updating scheduled message type to stream.',
  );
  assertError(
    await c.patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: later(-5) }),
    'BAD_REQUEST',
    'Scheduled delivery time must be in the future.',
  );
  assertError(await c.patch('/scheduled_messages/999999', { content: 'x' }), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
  assertError(await client(ts, bob).patch(`/scheduled_messages/${id}`, { content: 'mine now' }), 'BAD_REQUEST', 'Scheduled message does not exist', 404);

  assertSuccess(await c.patch(`/scheduled_messages/${id}`, { topic: 'Moat' }));
  expect((await list(alice)).find((m) => m.scheduled_message_id === id)).toMatchObject({ topic: 'Moat', content: 'Hi **all**' });
  const at = later(5400);
  assertSuccess(await c.patch(`/scheduled_messages/${id}`, { content: 'Changed', scheduled_delivery_timestamp: at }));
  expect((await list(alice)).find((m) => m.scheduled_message_id === id)).toMatchObject({
    content: 'Changed',
    rendered_content: '<p>Changed</p>',
    scheduled_delivery_timestamp: at,
  });
  assertSuccess(await c.patch(`/scheduled_messages/${id}`, { type: 'direct', to: JSON.stringify([bob.id]) }));
  const dm = (await list(alice)).find((m) => m.scheduled_message_id === id)!;
  expect(dm).toEqual({
    scheduled_message_id: id,
    type: 'private',
    to: [bob.id],
    content: 'Changed',
    rendered_content: '<p>Changed</p>',
    scheduled_delivery_timestamp: at,
    failed: false,
  });
  // The new addressee is checked too, and a refused edit changes nothing.
  assertError(
    await c.patch(`/scheduled_messages/${id}`, { type: 'stream', to: String(privateId), topic: 'x' }),
    'BAD_REQUEST',
    "Not authorized to send to channel 'secret'",
  );
  expect((await list(alice)).find((m) => m.scheduled_message_id === id)).toEqual(dm);
  assertSuccess(await c.delete(`/scheduled_messages/${id}`));
});

test('deleting, only one’s own', async () => {
  const id = await schedule(alice, toChannel());
  assertError(await client(ts, bob).delete(`/scheduled_messages/${id}`), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
  assertSuccess(await client(ts, alice).delete(`/scheduled_messages/${id}`));
  assertError(await client(ts, alice).delete(`/scheduled_messages/${id}`), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
  assertError(await client(ts, alice).delete('/scheduled_messages/99999999999'), 'BAD_REQUEST', 'Scheduled message does not exist', 404);
});

describe('events: the sender’s clients follow, nobody else hears', () => {
  test('add', async () => {
    const events = await verifyPersonalAction(ts, alice, bob, () => client(ts, alice).post('/scheduled_messages', toChannel()));
    expect(events).toEqual([
      {
        type: 'scheduled_messages',
        op: 'add',
        scheduled_messages: [expect.objectContaining({ type: 'stream', to: channelId, topic: 'Castle', failed: false })],
      },
    ]);
  });

  test('update', async () => {
    const id = await schedule(alice, toChannel());
    const events = await verifyPersonalAction(ts, alice, bob, () =>
      client(ts, alice).patch(`/scheduled_messages/${id}`, { content: 'Updated', scheduled_delivery_timestamp: later(7200) }),
    );
    expect(events).toEqual([
      { type: 'scheduled_messages', op: 'update', scheduled_message: expect.objectContaining({ scheduled_message_id: id, content: 'Updated' }) },
    ]);
  });

  test('remove', async () => {
    const id = await schedule(alice, toChannel());
    const events = await verifyPersonalAction(ts, alice, bob, () => client(ts, alice).delete(`/scheduled_messages/${id}`));
    expect(events).toEqual([{ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id }]);
  });

  test('a second message earlier than the first keeps the register order', async () => {
    await schedule(bob, toChannel({ scheduled_delivery_timestamp: later(5000) }));
    await verifyAction(ts, bob, () => client(ts, bob).post('/scheduled_messages', toChannel({ scheduled_delivery_timestamp: later(100) })));
  });
});
