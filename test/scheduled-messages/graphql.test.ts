import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { sendToChannel, subscribe } from '../messages/helpers';

// The GraphQL operations run the REST actions: same checks, same events, same rows.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let channelId: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  channelId = await subscribe(ts, ts.owner, 'graph', [alice, bob]);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const later = (seconds = 3600) => Math.floor(Date.now() / 1000) + seconds;
const FIELDS = 'id scheduledMessageId type channelId recipientIds topic content renderedContent scheduledDeliveryTimestamp failed';

test('create, list, update and delete a scheduled message', async () => {
  const at = later();
  const created = await graphql(
    ts,
    alice,
    `mutation($input: CreateScheduledMessageInput!) { createScheduledMessage(input: $input) { scheduledMessage { ${FIELDS} } } }`,
    { input: { type: 'channel', channelId, topic: 'Castle', content: 'Hi *there*', scheduledDeliveryTimestamp: at } },
  );
  expect(created.errors).toBeUndefined();
  const message = created.data!.createScheduledMessage.scheduledMessage;
  expect(message).toEqual({
    id: String(message.scheduledMessageId),
    scheduledMessageId: message.scheduledMessageId,
    type: 'stream',
    channelId,
    recipientIds: [],
    topic: 'Castle',
    content: 'Hi *there*',
    renderedContent: '<p>Hi <em>there</em></p>',
    scheduledDeliveryTimestamp: at,
    failed: false,
  });
  // REST sees the same row.
  expect(assertSuccess(await client(ts, alice).get('/scheduled_messages')).scheduled_messages).toEqual([
    expect.objectContaining({ scheduled_message_id: message.scheduledMessageId }),
  ]);

  const listed = await graphql(ts, alice, `{ scheduledMessages { ${FIELDS} } }`);
  expect(listed.data!.scheduledMessages).toEqual([message]);
  expect((await graphql(ts, bob, '{ scheduledMessages { id } }')).data!.scheduledMessages).toEqual([]);

  const events = await verifyPersonalAction(ts, alice, bob, () =>
    graphql(
      ts,
      alice,
      `mutation($id: Int!) { updateScheduledMessage(id: $id, input: { type: "direct", recipientIds: [${bob.id}] }) { scheduledMessage { ${FIELDS} } } }`,
      {
        id: message.scheduledMessageId,
      },
    ),
  );
  expect(events).toEqual([{ type: 'scheduled_messages', op: 'update', scheduled_message: expect.objectContaining({ type: 'private', to: [bob.id] }) }]);

  const deleted = await graphql(ts, alice, `mutation($id: Int!) { deleteScheduledMessage(id: $id) { scheduledMessage { id type recipientIds } } }`, {
    id: message.scheduledMessageId,
  });
  expect(deleted.data!.deleteScheduledMessage.scheduledMessage).toEqual({ id: message.id, type: 'private', recipientIds: [bob.id] });
  expect((await graphql(ts, alice, '{ scheduledMessages { id } }')).data!.scheduledMessages).toEqual([]);
});

test('the REST errors, with their codes', async () => {
  const past = await graphql(
    ts,
    alice,
    'mutation($input: CreateScheduledMessageInput!) { createScheduledMessage(input: $input) { scheduledMessage { id } } }',
    {
      input: { type: 'stream', channelId, topic: 't', content: 'x', scheduledDeliveryTimestamp: later(-60) },
    },
  );
  expect(graphqlError(past)).toEqual({ code: 'BAD_REQUEST', message: 'Scheduled delivery time must be in the future.' });
  const missing = await graphql(ts, alice, 'mutation { deleteScheduledMessage(id: 424242) { scheduledMessage { id } } }');
  expect(graphqlError(missing)).toEqual({ code: 'BAD_REQUEST', message: 'Scheduled message does not exist' });
  const nothing = await graphql(ts, alice, 'mutation { updateScheduledMessage(id: 1, input: {}) { scheduledMessage { id } } }');
  expect(graphqlError(nothing)).toEqual({ code: 'BAD_REQUEST', message: 'Nothing to change' });
  const anonymous = await graphql(ts, null as never, '{ scheduledMessages { id } }');
  expect(graphqlError(anonymous).code).toBe('UNAUTHORIZED');
});

test('reminders', async () => {
  const messageId = await sendToChannel(ts, bob, channelId, 'plans', 'Remember me');
  const created = await graphql(
    ts,
    alice,
    'mutation($m: Int!, $t: Int!) { createReminder(messageId: $m, scheduledDeliveryTimestamp: $t, note: "soon") { reminder { id reminderId reminderTargetMessageId failed } } }',
    {
      m: messageId,
      t: later(),
    },
  );
  const reminder = created.data!.createReminder.reminder;
  expect(reminder).toEqual({ id: String(reminder.reminderId), reminderId: reminder.reminderId, reminderTargetMessageId: messageId, failed: false });
  expect((await graphql(ts, alice, '{ reminders { id } }')).data!.reminders).toEqual([{ id: reminder.id }]);
  expect(assertSuccess(await client(ts, alice).get('/reminders')).reminders).toEqual([expect.objectContaining({ reminder_id: reminder.reminderId })]);
  const deleted = await graphql(ts, alice, `mutation { deleteReminder(id: ${reminder.reminderId}) { reminder { id } } }`);
  expect(deleted.data!.deleteReminder.reminder).toEqual({ id: reminder.id });
  expect((await graphql(ts, alice, '{ reminders { id } }')).data!.reminders).toEqual([]);
});
