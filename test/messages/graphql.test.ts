import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, ofType, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let town: number;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

const SEND = `mutation($input: SendMessageInput!) { sendMessage(input: $input) { id automaticNewVisibilityPolicy } }`;
const PAGE = `query($narrow: [NarrowTermInput!], $last: Int, $before: String, $first: Int, $after: String) {
  messages(narrow: $narrow, last: $last, before: $before, first: $first, after: $after) {
    messages { id content topic channelName streamId senderId flags reactions { emojiName userId } directRecipients { id } }
    foundOldest foundNewest startCursor endCursor anchor
  }
}`;

async function send(who: TestUser, input: Record<string, unknown>): Promise<number> {
  const res = await graphql(ts, who, SEND, { input });
  expect(res.errors).toBeUndefined();
  return Number(res.data!.sendMessage.id);
}

test('sendMessage goes through the same action: same storage, same events', async () => {
  const capture = captureEvents(ts);
  const res = await graphql(ts, alice, SEND, { input: { channelId: town, topic: 'graphql', content: 'hello **there**', localId: '9.1', queueId: 'gq' } });
  capture.stop();
  expect(res.errors).toBeUndefined();
  expect(res.data!.sendMessage.automaticNewVisibilityPolicy).toBe(3);
  const id = res.data!.sendMessage.id;
  // GraphQL is an API client: the sender's copy starts unread unless readBySender says otherwise.
  expect(capture.for(alice.id).find(ofType('message'))).toMatchObject({ local_id: '9.1', sender_queue_id: 'gq', flags: [] });
  const read = await send(alice, { channelId: town, topic: 'graphql', content: 'read', readBySender: true });
  expect(assertSuccess(await client(ts, alice).get(`/messages/${read}`)).message.flags).toEqual(['read']);
  const rest = assertSuccess(await client(ts, bob).get(`/messages/${id}`));
  expect(rest.message).toMatchObject({ content: '<p>hello <strong>there</strong></p>', client: 'GraphQL', subject: 'graphql' });
  const dm = await send(alice, { userIds: [bob.id], content: 'direct' });
  const byEmail = await send(bob, { emails: [alice.email], content: 'back' });
  const q = await graphql(ts, bob, `query { messages(narrow: [{operator: "is", operand: "dm"}]) { messages { id directRecipients { id } } } }`);
  expect(q.data!.messages.messages.map((m: { id: string }) => Number(m.id))).toEqual([dm, byEmail]);
  const bad = graphqlError(await graphql(ts, alice, SEND, { input: { channelId: town, userIds: [bob.id], content: 'x' } }));
  expect(bad.code).toBe('BAD_REQUEST');
  expect(graphqlError(await graphql(ts, alice, SEND, { input: { channelName: 'nowhere', topic: 't', content: 'x' } }))).toEqual({
    message: "Channel 'nowhere' does not exist",
    code: 'STREAM_DOES_NOT_EXIST',
  });
});

test('messages: narrow and cursor pagination', async () => {
  const room = await subscribe(ts, owner, 'paging', [owner, alice]);
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push(await send(alice, { channelId: room, topic: 'pages', content: `m${i}`, readBySender: true }));
  const narrow = [
    { operator: 'channel', operandId: room },
    { operator: 'topic', operand: 'pages' },
  ];
  const last = await graphql(ts, alice, PAGE, { narrow, last: 2 });
  expect(last.errors).toBeUndefined();
  const page = last.data!.messages;
  expect(page.messages.map((m: { id: string }) => Number(m.id))).toEqual(ids.slice(3));
  expect(page).toMatchObject({ foundNewest: true, foundOldest: false, startCursor: String(ids[3]), endCursor: String(ids[4]), anchor: 1e16 });
  expect(page.messages[0]).toMatchObject({ content: '<p>m3</p>', topic: 'pages', channelName: 'paging', streamId: room, senderId: alice.id, flags: ['read'] });
  const older = (await graphql(ts, alice, PAGE, { narrow, last: 2, before: page.startCursor })).data!.messages;
  expect(older.messages.map((m: { id: string }) => Number(m.id))).toEqual(ids.slice(1, 3));
  const oldest = (await graphql(ts, alice, PAGE, { narrow, last: 5, before: older.startCursor })).data!.messages;
  expect(oldest.messages.map((m: { id: string }) => Number(m.id))).toEqual([ids[0]]);
  expect(oldest.foundOldest).toBe(true);
  const forward = (await graphql(ts, alice, PAGE, { narrow, first: 2, after: String(ids[0]) })).data!.messages;
  expect(forward.messages.map((m: { id: string }) => Number(m.id))).toEqual(ids.slice(1, 3));
  expect(graphqlError(await graphql(ts, alice, PAGE, { narrow: [{ operator: 'bogus', operand: 'x' }] }))).toEqual({
    message: 'Invalid narrow operator: unknown operator bogus',
    code: 'BAD_NARROW',
  });
});

test('message, editMessage, messageHistory, topics', async () => {
  const id = await send(alice, { channelName: 'town', topic: 'draft', content: 'first' });
  let res = await graphql(ts, alice, `mutation($id: Int!) { editMessage(id: $id, input: { content: "second" }) { message { id content } } }`, { id });
  expect(res.errors).toBeUndefined();
  res = await graphql(ts, bob, `mutation($id: Int!) { editMessage(id: $id, input: { topic: "final", propagateMode: "change_all" }) { message { topic } } }`, {
    id,
  });
  expect(res.errors).toBeUndefined();
  const single = await graphql(ts, bob, `query($id: Int!) { message(id: $id) { content rawContent topic lastEditTimestamp lastMovedTimestamp } }`, { id });
  expect(single.data!.message).toMatchObject({
    content: '<p>second</p>',
    rawContent: 'second',
    topic: 'final',
    lastEditTimestamp: expect.any(Number),
    lastMovedTimestamp: expect.any(Number),
  });
  const history = await graphql(ts, bob, `query($id: Int!) { messageHistory(id: $id) { topic prevTopic content prevContent contentHtmlDiff userId } }`, { id });
  expect(history.data!.messageHistory).toEqual([
    { topic: 'draft', prevTopic: null, content: 'first', prevContent: null, contentHtmlDiff: null, userId: alice.id },
    { topic: 'draft', prevTopic: null, content: 'second', prevContent: 'first', contentHtmlDiff: expect.any(String), userId: alice.id },
    { topic: 'final', prevTopic: 'draft', content: 'second', prevContent: null, contentHtmlDiff: null, userId: bob.id },
  ]);
  const topics = await graphql(ts, bob, `query($s: Int!) { topics(streamId: $s) { name maxId } }`, { s: town });
  // The newest message of the moved topic is the notification bot's notice of the move.
  expect(topics.data!.topics[0]).toEqual({ name: 'final', maxId: id + 1 });
  expect(
    graphqlError(await graphql(ts, bob, `mutation($id: Int!) { editMessage(id: $id, input: { content: "mine now" }) { message { id } } }`, { id })),
  ).toEqual({
    message: "You don't have permission to edit this message",
    code: 'BAD_REQUEST',
  });
  expect(graphqlError(await graphql(ts, bob, `query { message(id: 987654) { id } }`))).toEqual({ message: 'Invalid message(s)', code: 'BAD_REQUEST' });
});

test('updateFlags, reactions, updateUserTopic, deleteMessage', async () => {
  const id = await send(alice, { channelId: town, topic: 'misc', content: 'react here' });
  const flags = await graphql(
    ts,
    bob,
    `mutation($ids: [Int!]!) { updateFlags(messageIds: $ids, op: "add", flag: "starred") { messages ignoredBecauseNotSubscribedChannels } }`,
    { ids: [id] },
  );
  expect(flags.data!.updateFlags).toEqual({ messages: [id], ignoredBecauseNotSubscribedChannels: null });
  const unread = await graphql(
    ts,
    bob,
    `mutation($ids: [Int!]!) { updateFlags(messageIds: $ids, op: "remove", flag: "read") { messages ignoredBecauseNotSubscribedChannels } }`,
    { ids: [id] },
  );
  expect(unread.data!.updateFlags).toEqual({ messages: [], ignoredBecauseNotSubscribedChannels: [] });
  expect(
    graphqlError(await graphql(ts, bob, `mutation($ids: [Int!]!) { updateFlags(messageIds: $ids, op: "add", flag: "mentioned") { messages } }`, { ids: [id] })),
  ).toEqual({
    message: "Flag not editable: 'mentioned'",
    code: 'BAD_REQUEST',
  });
  const ADD = `mutation($id: Int!) { addReaction(messageId: $id, emojiName: "octopus") { message { id reactions { emojiName user { id } } } } }`;
  expect((await graphql(ts, bob, ADD, { id })).data!.addReaction).toEqual({
    message: { id: String(id), reactions: [{ emojiName: 'octopus', user: { id: String(bob.id) } }] },
  });
  expect(graphqlError(await graphql(ts, bob, ADD, { id }))).toEqual({ message: 'Reaction already exists.', code: 'REACTION_ALREADY_EXISTS' });
  const page = await graphql(ts, bob, PAGE, { narrow: [{ operator: 'id', operandId: id }] });
  expect(page.data!.messages.messages[0]).toMatchObject({ flags: ['starred'], reactions: [{ emojiName: 'octopus', userId: bob.id }] });
  expect(
    (await graphql(ts, bob, `mutation($id: Int!) { removeReaction(messageId: $id, emojiName: "octopus") { message { reactions { emojiName } } } }`, { id }))
      .data!.removeReaction,
  ).toEqual({ message: { reactions: [] } });
  expect(
    graphqlError(await graphql(ts, bob, `mutation($id: Int!) { removeReaction(messageId: $id, emojiName: "octopus") { message { id } } }`, { id })),
  ).toEqual({
    message: "Reaction doesn't exist.",
    code: 'REACTION_DOES_NOT_EXIST',
  });
  const capture = captureEvents(ts);
  expect(
    (
      await graphql(ts, bob, `mutation($s: Int!) { updateUserTopic(streamId: $s, topic: "misc", visibilityPolicy: 1) { streamId topic visibilityPolicy } }`, {
        s: town,
      })
    ).data!.updateUserTopic,
  ).toEqual({ streamId: town, topic: 'misc', visibilityPolicy: 1 });
  capture.stop();
  expect(capture.for(bob.id).find(ofType('user_topic'))).toMatchObject({ stream_id: town, topic_name: 'misc', visibility_policy: 1 });
  expect(
    graphqlError(await graphql(ts, bob, `mutation($s: Int!) { updateUserTopic(streamId: $s, topic: "misc", visibilityPolicy: 9) { topic } }`, { s: town })),
  ).toEqual({
    message: 'Invalid visibility_policy',
    code: 'BAD_REQUEST',
  });
  expect(graphqlError(await graphql(ts, bob, `mutation($id: Int!) { deleteMessage(id: $id) { id } }`, { id }))).toEqual({
    message: "You don't have permission to delete this message",
    code: 'BAD_REQUEST',
  });
  expect((await graphql(ts, alice, `mutation($id: Int!) { deleteMessage(id: $id) { id } }`, { id })).data!.deleteMessage).toEqual({ id: String(id) });
  expect(graphqlError(await graphql(ts, null, `query { messages { messages { id } } }`)).code).toBe('UNAUTHORIZED');
});
