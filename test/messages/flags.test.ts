import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents, fetchMessages, messageFlags, ofType, sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let town: number;

const flags = (who: TestUser, params: Record<string, unknown>) => client(ts, who).post('/messages/flags', params);
const unreadIds = async (who: TestUser) => (await fetchMessages(ts, who, { narrow: [['is', 'unread']] })).messages.map((m: { id: number }) => m.id);

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  await makeUser(ts, 600, { fullName: 'Gus Guest' }); // not used here; made so later accounts keep their ids
  town = await subscribe(ts, owner, 'town', [owner, alice, bob]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('POST /messages/flags', () => {
  test('star and unstar, with events; repeating changes nothing', async () => {
    const id = await sendToChannel(ts, alice, town, 'stars', 'shiny');
    const capture = captureEvents(ts);
    const res = assertSuccess(await flags(bob, { messages: [id], op: 'add', flag: 'starred' }));
    expect(res.messages).toEqual([id]);
    expect(res.ignored_because_not_subscribed_channels).toBeUndefined();
    expect(await messageFlags(ts, bob, id)).toEqual(['starred']);
    const again = assertSuccess(await flags(bob, { messages: [id], op: 'add', flag: 'starred' }));
    expect(again.messages).toEqual([]);
    assertSuccess(await flags(bob, { messages: [id], op: 'remove', flag: 'starred' }));
    capture.stop();
    expect(capture.recipientsOf(ofType('update_message_flags'))).toEqual([bob.id]);
    expect(capture.for(bob.id).filter(ofType('update_message_flags'))).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [id], all: false },
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'starred', messages: [], all: false },
      { type: 'update_message_flags', op: 'remove', operation: 'remove', flag: 'starred', messages: [id], all: false },
    ]);
    expect(await messageFlags(ts, bob, id)).toEqual([]);
  });

  test('only read, starred and collapsed may be changed', async () => {
    const id = await sendToChannel(ts, alice, town, 'flags', 'x');
    assertError(await flags(bob, { messages: [id], op: 'add', flag: 'mentioned' }), 'BAD_REQUEST', "Flag not editable: 'mentioned'");
    assertError(await flags(bob, { messages: [id], op: 'add', flag: 'historical' }), 'BAD_REQUEST', "Flag not editable: 'historical'");
    assertError(await flags(bob, { messages: [id], op: 'add', flag: 'is_private' }), 'BAD_REQUEST', "Invalid flag: 'is_private'");
    assertError(await flags(bob, { messages: [id], op: 'add', flag: 'shiny' }), 'BAD_REQUEST', "Invalid flag: 'shiny'");
    assertError(await flags(bob, { messages: [id], op: 'toggle', flag: 'read' }), 'BAD_REQUEST', "Invalid message flag operation: 'toggle'");
    assertError(await flags(bob, { messages: 'x', op: 'add', flag: 'read' }), 'INVALID_JSON', 'Argument "messages" is not valid JSON.');
    assertSuccess(await flags(bob, { messages: [id], op: 'add', flag: 'collapsed' }));
    expect(await messageFlags(ts, bob, id)).toEqual(['collapsed']);
  });

  test('starring a public message never received makes it part of the history', async () => {
    const id = await sendToChannel(ts, alice, town, 'history', 'for everyone');
    expect(await messageFlags(ts, carol, id)).toEqual(['read', 'historical']);
    assertSuccess(await flags(carol, { messages: [id], op: 'add', flag: 'starred' }));
    expect(await messageFlags(ts, carol, id)).toEqual(['read', 'starred', 'historical']);
    const starred = await fetchMessages(ts, carol, { narrow: [['is', 'starred']] });
    expect(starred.messages.map((m: { id: number }) => m.id)).toEqual([id]);
  });

  test('messages one cannot see are "Invalid message(s)" (except marking read, which changes nothing)', async () => {
    const secret = await subscribe(ts, owner, 'secret', [owner, alice], { invite_only: true });
    const hidden = await sendToChannel(ts, alice, secret, 't', 'hush');
    const dm = await sendDirect(ts, alice, [owner], 'private');
    assertError(await flags(bob, { messages: [hidden], op: 'add', flag: 'starred' }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await flags(bob, { messages: [dm], op: 'add', flag: 'starred' }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await flags(bob, { messages: [987654], op: 'add', flag: 'starred' }), 'BAD_REQUEST', 'Invalid message(s)');
    expect(assertSuccess(await flags(bob, { messages: [hidden, 987654], op: 'add', flag: 'read' })).messages).toEqual([]);
  });

  test('marking read at once from several clients reports each message changed exactly once', async () => {
    const ids = [
      await sendToChannel(ts, alice, town, 'race', 'one'),
      await sendToChannel(ts, alice, town, 'race', 'two'),
      await sendToChannel(ts, alice, town, 'race', 'three'),
    ];
    const capture = captureEvents(ts);
    // Overlapping lists, in different orders, with a duplicate and an id nobody has.
    const answers = await Promise.all([
      flags(bob, { messages: [ids[2], ids[0], ids[0]], op: 'add', flag: 'read' }),
      flags(bob, { messages: [ids[1], ids[2], 987654], op: 'add', flag: 'read' }),
      flags(bob, { messages: [...ids], op: 'add', flag: 'read' }),
      flags(bob, { messages: [ids[0], ids[1]], op: 'add', flag: 'read' }),
    ]);
    const reported = answers.flatMap((a) => assertSuccess(a).messages as number[]);
    expect([...reported].sort((a, b) => a - b)).toEqual(ids);
    // Each answer lists its changes in the order the client gave them.
    const first = assertSuccess(answers[0]).messages as number[];
    expect(first).toEqual([ids[2], ids[0]].filter((id) => first.includes(id)));
    for (const id of ids) expect(await messageFlags(ts, bob, id)).toEqual(['read']);
    capture.stop();
    const events = capture.for(bob.id).filter(ofType('update_message_flags'));
    expect(events).toHaveLength(4);
    expect(events.flatMap((e) => e.messages as number[]).sort((a, b) => a - b)).toEqual(ids);
    // Reading again changes nothing, and unstarring what was never starred neither.
    expect(assertSuccess(await flags(bob, { messages: ids, op: 'add', flag: 'read' })).messages).toEqual([]);
    expect(assertSuccess(await flags(bob, { messages: ids, op: 'remove', flag: 'starred' })).messages).toEqual([]);
    expect(await unreadIds(bob)).not.toEqual(expect.arrayContaining([ids[0]]));
  });

  test('several users marking read at once each change and hear of their own rows only', async () => {
    const ids = [await sendToChannel(ts, alice, town, 'together', 'a'), await sendToChannel(ts, alice, town, 'together', 'b')];
    const capture = captureEvents(ts);
    const [o, b, c] = await Promise.all([
      flags(owner, { messages: ids, op: 'add', flag: 'read' }),
      flags(bob, { messages: [...ids].reverse(), op: 'add', flag: 'read' }),
      // Carol is not subscribed: she has no rows, and marking read changes nothing for her.
      flags(carol, { messages: ids, op: 'add', flag: 'read' }),
    ]);
    capture.stop();
    expect(assertSuccess(o).messages).toEqual(ids);
    expect(assertSuccess(b).messages).toEqual([...ids].reverse());
    expect(assertSuccess(c).messages).toEqual([]);
    for (const who of [owner, bob]) {
      expect(capture.for(who.id).filter(ofType('update_message_flags'))).toHaveLength(1);
      for (const id of ids) expect(await messageFlags(ts, who, id)).toEqual(['read']);
    }
    expect(capture.for(carol.id).filter(ofType('update_message_flags'))).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: false },
    ]);
  });

  test('marking unread skips unsubscribed channels and describes the messages', async () => {
    const elsewhere = await subscribe(ts, owner, 'elsewhere', [owner, bob]);
    const stay = await sendToChannel(ts, alice, town, 'unread topic', 'hi @**Bob Builder**');
    const leave = await sendToChannel(ts, owner, elsewhere, 'leaving', 'x');
    const group = await sendDirect(ts, alice, [bob, carol], 'group');
    assertSuccess(await flags(bob, { messages: [stay, leave, group], op: 'add', flag: 'read' }));
    assertSuccess(await client(ts, bob).delete('/users/me/subscriptions', { subscriptions: ['elsewhere'] }));
    const capture = captureEvents(ts);
    const res = assertSuccess(await flags(bob, { messages: [stay, leave, group], op: 'remove', flag: 'read' }));
    capture.stop();
    expect(res).toMatchObject({ messages: [stay, group], ignored_because_not_subscribed_channels: [elsewhere] });
    const [event] = capture.for(bob.id).filter(ofType('update_message_flags'));
    expect(event).toEqual({
      type: 'update_message_flags',
      op: 'remove',
      operation: 'remove',
      flag: 'read',
      messages: [stay, group],
      all: false,
      message_details: {
        [stay]: { type: 'stream', stream_id: town, topic: 'unread topic', unmuted_stream_msg: true, mentioned: true },
        [group]: { type: 'private', user_ids: [alice.id, carol.id].sort((a, b) => a - b) },
      },
    });
    expect(await messageFlags(ts, bob, leave)).toEqual(['read']);
  });
});

describe('bulk read marking', () => {
  test('POST /messages/flags/narrow over a window', async () => {
    const room = await subscribe(ts, owner, 'window', [owner, alice, carol]);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push(await sendToChannel(ts, alice, room, 'w', `message ${i}`));
    const res = assertSuccess(
      await client(ts, carol).post('/messages/flags/narrow', {
        anchor: ids[1],
        num_before: 0,
        num_after: 2,
        narrow: [['channel', 'window']],
        op: 'add',
        flag: 'read',
      }),
    );
    expect(res).toEqual({
      result: 'success',
      msg: '',
      processed_count: 3,
      updated_count: 3,
      first_processed_id: ids[1],
      last_processed_id: ids[3],
      found_oldest: false,
      found_newest: false,
    });
    const again = assertSuccess(
      await client(ts, carol).post('/messages/flags/narrow', {
        anchor: 'oldest',
        num_before: 0,
        num_after: 100,
        narrow: [['channel', 'window']],
        op: 'add',
        flag: 'read',
      }),
    );
    expect(again).toMatchObject({
      processed_count: 5,
      updated_count: 2,
      first_processed_id: ids[0],
      last_processed_id: ids[4],
      found_oldest: true,
      found_newest: true,
    });
    const none = assertSuccess(
      await client(ts, carol).post('/messages/flags/narrow', {
        anchor: 'newest',
        num_before: 10,
        num_after: 0,
        narrow: [
          ['channel', 'window'],
          ['is', 'unread'],
        ],
        op: 'add',
        flag: 'read',
      }),
    );
    expect(none).toMatchObject({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null });
    const unread = assertSuccess(
      await client(ts, carol).post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [], op: 'remove', flag: 'read' }),
    );
    expect(unread).toMatchObject({ processed_count: 1, updated_count: 1, ignored_because_not_subscribed_channels: [] });
    assertError(
      await client(ts, carol).post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'read' }),
      'REQUEST_VARIABLE_MISSING',
      "Missing 'narrow' argument",
    );
    assertError(
      await client(ts, carol).post('/messages/flags/narrow', { anchor: 'newest', num_before: 1, num_after: 0, narrow: [], op: 'add', flag: 'mentioned' }),
      'BAD_REQUEST',
      "Flag not editable: 'mentioned'",
    );
  });

  test('mark_all_as_read, mark_stream_as_read, mark_topic_as_read', async () => {
    const dave = await makeUser(ts, 400);
    const room = await subscribe(ts, owner, 'reading-room', [owner, dave]);
    const t1 = await sendToChannel(ts, owner, room, 'one', 'a');
    const t2 = await sendToChannel(ts, owner, room, 'two', 'b');
    const chat = await sendToChannel(ts, owner, room, '', 'c');
    const dm = await sendDirect(ts, owner, [dave], 'd');
    expect(await unreadIds(dave)).toEqual([t1, t2, chat, dm]);

    const capture = captureEvents(ts);
    assertSuccess(await client(ts, dave).post('/mark_topic_as_read', { stream_id: room, topic_name: 'ONE' }));
    expect(await unreadIds(dave)).toEqual([t2, chat, dm]);
    assertSuccess(await client(ts, dave).post('/mark_topic_as_read', { stream_id: room, topic_name: 'general chat' }));
    expect(await unreadIds(dave)).toEqual([t2, dm]);
    assertError(await client(ts, dave).post('/mark_topic_as_read', { stream_id: room, topic_name: 'missing' }), 'BAD_REQUEST', "No such topic 'missing'");
    assertSuccess(await client(ts, dave).post('/mark_stream_as_read', { stream_id: room }));
    expect(await unreadIds(dave)).toEqual([dm]);
    assertError(await client(ts, dave).post('/mark_stream_as_read', { stream_id: 999999 }), 'BAD_REQUEST', 'Invalid channel ID');
    expect(assertSuccess(await client(ts, dave).post('/mark_all_as_read'))).toEqual({ result: 'success', msg: '', complete: true });
    expect(await unreadIds(dave)).toEqual([]);
    capture.stop();
    expect(capture.for(dave.id).filter(ofType('update_message_flags'))).toEqual([
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [t1], all: false },
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [chat], all: false },
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [t2], all: false },
      { type: 'update_message_flags', op: 'add', operation: 'add', flag: 'read', messages: [], all: true },
    ]);
    expect(capture.recipientsOf(ofType('update_message_flags'))).toEqual([dave.id]);
  });
});
