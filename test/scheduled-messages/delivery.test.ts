import { assertSuccess, client } from '../helpers/api';
import { verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { fetchMessages, sendToChannel, subscribe } from '../messages/helpers';

// Delivery at the scheduled time, through the send, with Zulip's events and failure notices.
jest.setTimeout(60_000);

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let channelId: number;

beforeAll(async () => {
  ts = await startTestServer({ PARLEY_SCHEDULER_POLL_MS: '100' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  channelId = await subscribe(ts, ts.owner, 'announcements', [alice, bob]);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const soon = (seconds = 2) => Math.floor(Date.now() / 1000) + seconds;
const scheduled = async (who: TestUser) => assertSuccess(await client(ts, who).get('/scheduled_messages')).scheduled_messages as Record<string, any>[];
const reminders = async (who: TestUser) => assertSuccess(await client(ts, who).get('/reminders')).reminders as Record<string, any>[];
const newest = async (who: TestUser, narrow: unknown[] = []) => (await fetchMessages(ts, who, { num_before: 1, narrow: JSON.stringify(narrow) })).messages[0];

test('a channel message goes out at its time, as its sender, and leaves the list', async () => {
  // Scheduled inside the verified action: under load, the delivery could otherwise come before
  // the action's first register and leave it nothing to see.
  let id = 0;
  const events = await verifyAction(ts, alice, async () => {
    id = assertSuccess(
      await client(ts, alice).post('/scheduled_messages', {
        type: 'channel',
        to: String(channelId),
        topic: 'launch',
        content: 'Lift-off at **noon**',
        scheduled_delivery_timestamp: soon(),
      }),
    ).scheduled_message_id;
    await waitUntil(async () => (await scheduled(alice)).length === 0, 20_000);
  });
  // Added to the list, then the send's own events (the channel's first message, the sender
  // following the topic), then the removal.
  expect(events[0]).toMatchObject({ type: 'scheduled_messages', op: 'add' });
  expect(events[1].type).toBe('message');
  expect(events[events.length - 1]).toMatchObject({ type: 'scheduled_messages', op: 'remove', scheduled_message_id: id });
  const message = await newest(bob);
  expect(message).toMatchObject({ sender_id: alice.id, stream_id: channelId, subject: 'launch', content: '<p>Lift-off at <strong>noon</strong></p>' });
  expect(message.flags).not.toContain('read');
  // The scheduling client was an interactive one: the sender's copy is read.
  expect((await newest(alice)).flags).toContain('read');
});

test('a direct message goes out to its recipients', async () => {
  assertSuccess(
    await client(ts, alice).post('/scheduled_messages', {
      type: 'direct',
      to: JSON.stringify([bob.id]),
      content: 'Later, Bob',
      scheduled_delivery_timestamp: soon(),
    }),
  );
  await waitUntil(async () => (await scheduled(alice)).length === 0, 20_000);
  expect(await newest(bob, [{ operator: 'dm', operand: [alice.id] }])).toMatchObject({ sender_id: alice.id, type: 'private', content: '<p>Later, Bob</p>' });
});

test('a message the send now refuses is marked failed and its sender told', async () => {
  const doomed = await subscribe(ts, ts.owner, 'doomed', [alice]);
  const id = assertSuccess(
    await client(ts, alice).post('/scheduled_messages', {
      type: 'stream',
      to: String(doomed),
      topic: 't',
      content: 'Too late',
      scheduled_delivery_timestamp: soon(),
    }),
  ).scheduled_message_id;
  assertSuccess(await client(ts, ts.owner).delete(`/streams/${doomed}`));
  const events = await verifyAction(ts, alice, () => waitUntil(async () => (await scheduled(alice))[0]?.failed === true, 20_000));
  expect(events.map((e) => [e.type, e.op])).toEqual([
    ['scheduled_messages', 'update'],
    ['message', undefined],
  ]);
  const [failed] = await scheduled(alice);
  expect(failed).toMatchObject({ scheduled_message_id: id, failed: true, content: 'Too late' });
  const notice = await newest(alice);
  expect(notice.sender_email).toBe('notification-bot@zulip.com');
  expect(notice.content).toContain('was not sent because of the following error:');
  expect(notice.content).toContain('View scheduled messages');
  // Nothing reached the channel's history.
  const stillThere = await fetchMessages(ts, ts.owner, { narrow: JSON.stringify([{ operator: 'channel', operand: doomed }]) });
  expect(stillThere.messages.some((m: { content: string }) => m.content.includes('Too late'))).toBe(false);

  // A failed message needs a new time to be edited; then it waits again.
  const c = client(ts, alice);
  expect((await c.patch(`/scheduled_messages/${id}`, { content: 'Retry' })).body.msg).toBe('Scheduled delivery time must be in the future.');
  assertSuccess(await c.patch(`/scheduled_messages/${id}`, { type: 'stream', to: String(channelId), topic: 't', scheduled_delivery_timestamp: soon(3600) }));
  expect((await scheduled(alice))[0]).toMatchObject({ failed: false, to: channelId });
  assertSuccess(await c.delete(`/scheduled_messages/${id}`));
});

test('a message overdue by more than ten minutes (the server was down) fails instead of going out late', async () => {
  const id = assertSuccess(
    await client(ts, alice).post('/scheduled_messages', {
      type: 'stream',
      to: String(channelId),
      topic: 't',
      content: 'Stale news',
      scheduled_delivery_timestamp: soon(3600),
    }),
  ).scheduled_message_id;
  // As if the server had been stopped since eleven minutes before its time.
  await ts.server.deps
    .knex('scheduled_messages')
    .where({ id })
    .update({ scheduled_timestamp: new Date(Date.now() - 11 * 60_000) });
  await waitUntil(async () => (await scheduled(alice))[0]?.failed === true, 20_000);
  const notice = await newest(alice);
  expect(notice.content).toContain('Message could not be sent at the scheduled time.');
  assertSuccess(await client(ts, alice).delete(`/scheduled_messages/${id}`));
});

test('a reminder: listed, then delivered by the notification bot quoting the message', async () => {
  const messageId = await sendToChannel(ts, bob, channelId, 'plans', 'Ship the **release** on Friday');
  const c = client(ts, alice);
  expect((await c.post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: soon(-5) })).body.msg).toBe(
    'Scheduled delivery time must be in the future.',
  );
  expect((await c.post('/reminders', { message_id: 999999, scheduled_delivery_timestamp: soon(60) })).body).toMatchObject({
    result: 'error',
    msg: 'Invalid message(s)',
  });
  expect((await c.post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: soon(60), note: 'x'.repeat(1001) })).body.msg).toBe(
    'Maximum reminder note length: 1000 characters',
  );

  // Created and deleted: the reminders list follows.
  const cancelled = await verifyAction(ts, alice, () => c.post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: soon(3600) }));
  expect(cancelled).toEqual([
    expect.objectContaining({
      type: 'reminders',
      op: 'add',
      reminders: [expect.objectContaining({ type: 'private', to: [alice.id], reminder_target_message_id: messageId, failed: false })],
    }),
  ]);
  const reminderId = cancelled[0].reminders[0].reminder_id;
  expect((await client(ts, bob).delete(`/reminders/${reminderId}`)).body.msg).toBe('Reminder does not exist');
  const removed = await verifyAction(ts, alice, () => c.delete(`/reminders/${reminderId}`));
  expect(removed).toEqual([expect.objectContaining({ type: 'reminders', op: 'remove', reminder_id: reminderId })]);
  // Reminders are not scheduled messages.
  expect(await scheduled(alice)).toEqual([]);

  const events = await verifyAction(ts, alice, async () => {
    assertSuccess(await c.post('/reminders', { message_id: messageId, scheduled_delivery_timestamp: soon(), note: 'Check the changelog' }));
    await waitUntil(async () => (await reminders(alice)).length === 0, 20_000);
  });
  expect(events.map((e) => [e.type, e.op])).toEqual([
    ['reminders', 'add'],
    ['message', undefined],
    ['reminders', 'remove'],
  ]);
  const reminder = await newest(alice);
  expect(reminder.sender_email).toBe('notification-bot@zulip.com');
  expect(reminder.content).toContain('You requested a reminder for the following message. Note:');
  expect(reminder.content).toContain('Check the changelog');
  expect(reminder.content).toContain('Ship the <strong>release</strong> on Friday');
  // Bob heard nothing of it.
  expect((await newest(bob)).id).toBe(messageId);
});

test('nothing due: the scheduler leaves future messages alone', async () => {
  assertSuccess(
    await client(ts, bob).post('/scheduled_messages', {
      type: 'stream',
      to: String(channelId),
      topic: 'future',
      content: 'Not yet',
      scheduled_delivery_timestamp: soon(3600),
    }),
  );
  await ts.server.scheduler.runNow();
  expect(await scheduled(bob)).toEqual([expect.objectContaining({ content: 'Not yet', failed: false })]);
});
