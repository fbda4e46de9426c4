import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { getEvents, registerQueue, verifyAction } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;
let town: number;

const editTyping = (who: TestUser, id: number, op: string) => client(ts, who).post(`/messages/${id}/typing`, { op });
const queueOf = (who: TestUser, capabilities: Record<string, boolean> = {}) =>
  registerQueue(ts, who, { fetchEventTypes: [], eventTypes: ['typing_edit_message'], capabilities: { empty_topic_name: true, ...capabilities } });
const received = async (who: TestUser, queueId: string) => (await getEvents(ts, who, queueId, -1, { dontBlock: true })).map(({ id: _id, ...rest }) => rest);
const setSetting = async (who: TestUser, setting: string, value: boolean) => assertSuccess(await client(ts, who).patch('/settings', { [setting]: value }));

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  town = await subscribe(ts, owner, 'town', [alice, bob, carol]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('POST /messages/{message_id}/typing', () => {
  test("a channel message: the channel's subscribers who want typing notifications hear it", async () => {
    const id = await sendToChannel(ts, alice, town, 'plans', 'draft');
    await setSetting(carol, 'receives_typing_notifications', false);
    try {
      const queues = [await queueOf(alice), await queueOf(bob), await queueOf(carol), await queueOf(owner), await queueOf(guest)];
      assertSuccess(await editTyping(alice, id, 'start'));
      const expected = {
        type: 'typing_edit_message',
        op: 'start',
        sender_id: alice.id,
        message_id: id,
        recipient: { type: 'channel', channel_id: town, topic: 'plans' },
      };
      expect(await received(alice, queues[0].queueId)).toEqual([expected]);
      expect(await received(bob, queues[1].queueId)).toEqual([expected]);
      expect(await received(carol, queues[2].queueId)).toEqual([]);
      expect(await received(owner, queues[3].queueId)).toEqual([]);
      expect(await received(guest, queues[4].queueId)).toEqual([]);
    } finally {
      await setSetting(carol, 'receives_typing_notifications', true);
    }
  });

  test('a direct message: its active participants, listed in user_ids', async () => {
    const id = await sendDirect(ts, alice, [bob, carol], 'group draft');
    const [a, b, o] = [await queueOf(alice), await queueOf(bob), await queueOf(owner)];
    assertSuccess(await editTyping(alice, id, 'stop'));
    const ids = [alice.id, bob.id, carol.id].sort((x, y) => x - y);
    const expected = { type: 'typing_edit_message', op: 'stop', sender_id: alice.id, message_id: id, recipient: { type: 'direct', user_ids: ids } };
    expect(await received(alice, a.queueId)).toEqual([expected]);
    expect(await received(bob, b.queueId)).toEqual([expected]);
    expect(await received(owner, o.queueId)).toEqual([]);
  });

  test('the empty topic is named as clients without empty_topic_name know it', async () => {
    const id = await sendToChannel(ts, alice, town, '', 'general');
    const [modern, legacy] = [await queueOf(bob), await queueOf(bob, { empty_topic_name: false })];
    assertSuccess(await editTyping(alice, id, 'start'));
    expect((await received(bob, modern.queueId))[0].recipient.topic).toBe('');
    expect((await received(bob, legacy.queueId))[0].recipient.topic).toBe('general chat');
  });

  test('only someone who may edit the content now may say so', async () => {
    const id = await sendToChannel(ts, alice, town, 'plans', 'mine');
    assertError(await editTyping(bob, id, 'start'), 'BAD_REQUEST', "You don't have permission to edit this message");
    assertError(await editTyping(guest, id, 'start'), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await editTyping(alice, 99_999_999, 'start'), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await editTyping(alice, id, 'go'), 'BAD_REQUEST', 'Invalid op');
    assertError(await client(ts, alice).post(`/messages/${id}/typing`, {}), 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument");
    // The editing limit (600 s by default) applies without the grace period edits get.
    await ts.server.deps
      .knex('messages')
      .where({ id })
      .update({ date_sent: new Date(Date.now() - 610_000) });
    assertError(await editTyping(alice, id, 'start'), 'BAD_REQUEST', 'The time limit for editing this message has passed');
    assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { content: 'still within the grace period' }));
  });

  test("the sender's own typing settings are honoured", async () => {
    const inChannel = await sendToChannel(ts, alice, town, 'plans', 'x');
    const direct = await sendDirect(ts, alice, [bob], 'y');
    await setSetting(alice, 'send_stream_typing_notifications', false);
    await setSetting(alice, 'send_private_typing_notifications', false);
    try {
      assertError(await editTyping(alice, inChannel, 'start'), 'BAD_REQUEST', 'User has disabled typing notifications for channel messages');
      assertError(await editTyping(alice, direct, 'start'), 'BAD_REQUEST', 'User has disabled typing notifications for direct messages');
    } finally {
      await setSetting(alice, 'send_stream_typing_notifications', true);
      await setSetting(alice, 'send_private_typing_notifications', true);
    }
  });

  test('changes no register state', async () => {
    const id = await sendToChannel(ts, alice, town, 'plans', 'z');
    await verifyAction(ts, bob, () => editTyping(alice, id, 'start'));
  });

  test('GraphQL setEditMessageTyping does the same', async () => {
    const id = await sendToChannel(ts, alice, town, 'plans', 'gql');
    const b = await queueOf(bob);
    const mutation = 'mutation($id: Int!, $op: String!) { setEditMessageTyping(messageId: $id, op: $op) { messageId op } }';
    const res = await graphql(ts, alice, mutation, { id, op: 'start' });
    expect(res.errors).toBeUndefined();
    expect(res.data!.setEditMessageTyping).toEqual({ messageId: id, op: 'start' });
    expect(await received(bob, b.queueId)).toEqual([
      { type: 'typing_edit_message', op: 'start', sender_id: alice.id, message_id: id, recipient: { type: 'channel', channel_id: town, topic: 'plans' } },
    ]);
    expect(graphqlError(await graphql(ts, bob, mutation, { id, op: 'start' }))).toEqual({
      message: "You don't have permission to edit this message",
      code: 'BAD_REQUEST',
    });
  });
});
