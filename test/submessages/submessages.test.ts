import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { getEvents, registerQueue, verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { fetchMessages, sendDirect, sendToChannel, subscribe } from '../messages/helpers';
import { countStatements } from '../helpers/statements';

/**
 * Polls and to-do lists as Zulip stores them: a `/poll` or `/todo` message gets its widget as its
 * first submessage; POST /submessage adds actions on it, checked as Zulip checks them, announced
 * by `submessage` events and carried by every message dictionary.
 */
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let dave: TestUser;
let outsider: TestUser;
let town: number;
let vault: number;

type Dict = Record<string, any>;

const submit = (who: TestUser, messageId: number | string, content: unknown, msgType = 'widget') =>
  client(ts, who).post('/submessage', { message_id: messageId, msg_type: msgType, content: typeof content === 'string' ? content : JSON.stringify(content) });
const submessagesOf = async (who: TestUser, id: number): Promise<Dict[]> => assertSuccess(await client(ts, who).get(`/messages/${id}`)).message.submessages;
const storedCount = async () => Number((await ts.server.deps.knex('submessages').count({ n: '*' }))[0].n);

/** Events of a queue up to (and including) the first one matching, waiting for them as they come. */
async function eventsUntil(who: TestUser, queue: { queueId: string; lastEventId: number }, done: (events: Dict[]) => boolean): Promise<Dict[]> {
  const seen: Dict[] = [];
  while (!done(seen)) {
    const batch = await getEvents(ts, who, queue.queueId, queue.lastEventId);
    for (const event of batch) {
      queue.lastEventId = Math.max(queue.lastEventId, event.id);
      if (event.type !== 'heartbeat') seen.push(event);
    }
  }
  return seen;
}

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  dave = await makeUser(ts, 400, { fullName: 'Dave Reader' });
  outsider = await makeUser(ts, 400, { fullName: 'Olive Outsider' });
  town = await subscribe(ts, alice, 'town', [alice, bob, carol, dave]);
  vault = await subscribe(ts, alice, 'vault', [alice, bob], { invite_only: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), SERVER_HOOK_TIMEOUT);

describe('polls', () => {
  test('a /poll message carries its widget as its first submessage, in the message event too', async () => {
    const queue = await registerQueue(ts, dave, { eventTypes: ['message'] });
    const id = await sendToChannel(ts, alice, town, 'lunch', '/poll What for lunch?\n- Pizza\n- Salad');
    const widget = {
      id: expect.any(Number),
      message_id: id,
      sender_id: alice.id,
      msg_type: 'widget',
      content: '{"widget_type": "poll", "extra_data": {"question": "What for lunch?", "options": ["Pizza", "Salad"]}}',
    };
    expect(await submessagesOf(bob, id)).toEqual([widget]);
    const [event] = await eventsUntil(dave, queue, (events) => events.some((e) => e.type === 'message'));
    expect(event.message.submessages).toEqual([widget]);
    expect(JSON.parse(event.message.submessages[0].content)).toEqual({
      widget_type: 'poll',
      extra_data: { question: 'What for lunch?', options: ['Pizza', 'Salad'] },
    });
  });

  test('votes from two users reach a third as submessage events and appear in GET /messages', async () => {
    const id = await sendToChannel(ts, alice, town, 'lunch', '/poll Dessert?\nCake\nFruit');
    const queue = await registerQueue(ts, dave, { eventTypes: ['submessage'] });
    const bobVote = { type: 'vote', key: 'canned,0', vote: 1 };
    const carolVote = { type: 'vote', key: 'canned,1', vote: 1 };
    assertSuccess(await submit(bob, id, bobVote));
    assertSuccess(await submit(carol, id, carolVote));
    const events = await eventsUntil(dave, queue, (seen) => seen.length >= 2);
    const [widget] = await submessagesOf(dave, id);
    expect(events).toEqual([
      {
        id: expect.any(Number),
        type: 'submessage',
        msg_type: 'widget',
        message_id: id,
        sender_id: bob.id,
        submessage_id: widget.id + 1,
        content: JSON.stringify(bobVote),
      },
      {
        id: expect.any(Number),
        type: 'submessage',
        msg_type: 'widget',
        message_id: id,
        sender_id: carol.id,
        submessage_id: widget.id + 2,
        content: JSON.stringify(carolVote),
      },
    ]);
    const { messages } = await fetchMessages(ts, dave, { narrow: [{ operator: 'topic', operand: 'lunch' }] });
    const fetched = messages.find((m: Dict) => m.id === id);
    expect(fetched.submessages.map((s: Dict) => [s.id, s.sender_id, s.content])).toEqual([
      [widget.id, alice.id, widget.content],
      [widget.id + 1, bob.id, JSON.stringify(bobVote)],
      [widget.id + 2, carol.id, JSON.stringify(carolVote)],
    ]);
  });

  test('anyone may add an option; only the author may change the question', async () => {
    const id = await sendToChannel(ts, alice, town, 'lunch', '/poll Drinks?');
    assertSuccess(await submit(bob, id, { type: 'new_option', option: 'Tea', idx: 1 }));
    assertSuccess(await submit(alice, id, { type: 'question', question: 'Drinks tonight?' }));
    const before = await storedCount();
    assertError(await submit(bob, id, { type: 'question', question: 'Mine now' }), 'BAD_REQUEST', "You can't edit a question unless you are the author.");
    assertError(await submit(bob, id, { type: 'vote', key: 'canned,0', vote: 2 }), 'BAD_REQUEST', 'Invalid poll data["vote"]');
    assertError(await submit(bob, id, { type: 'vote', key: 'canned,0' }), 'BAD_REQUEST', 'vote key is missing from poll data');
    assertError(await submit(bob, id, { type: 'close' }), 'BAD_REQUEST', 'Unknown type for poll data: close');
    expect(await storedCount()).toBe(before);
    expect((await submessagesOf(carol, id)).map((s) => JSON.parse(s.content))).toEqual([
      { widget_type: 'poll', extra_data: { question: 'Drinks?', options: [] } },
      { type: 'new_option', option: 'Tea', idx: 1 },
      { type: 'question', question: 'Drinks tonight?' },
    ]);
  });
});

describe('to-do lists', () => {
  test('tasks from the message text; new tasks and strikes by others; the title by its author only', async () => {
    const id = await sendDirect(ts, alice, [bob, carol], '/todo Groceries\n- Milk: two liters\n- Eggs');
    const [widget] = await submessagesOf(carol, id);
    expect(JSON.parse(widget.content)).toEqual({
      widget_type: 'todo',
      extra_data: {
        task_list_title: 'Groceries',
        tasks: [
          { task: 'Milk', desc: 'two liters' },
          { task: 'Eggs', desc: '' },
        ],
      },
    });
    assertSuccess(await submit(bob, id, { type: 'new_task', key: 2, task: 'Bread', desc: 'wholemeal', completed: false }));
    assertSuccess(await submit(carol, id, { type: 'strike', key: '0,canned' }));
    assertSuccess(await submit(alice, id, { type: 'new_task_list_title', title: 'Weekend shopping' }));
    const before = await storedCount();
    assertError(
      await submit(bob, id, { type: 'new_task_list_title', title: 'Bob list' }),
      'BAD_REQUEST',
      "You can't edit the task list title unless you are the author.",
    );
    assertError(await submit(bob, id, { type: 'new_task', key: 3, task: 'Jam', desc: '' }), 'BAD_REQUEST', 'completed key is missing from todo data');
    assertError(await submit(carol, id, { type: 'strike', key: 0 }), 'BAD_REQUEST', 'todo data["key"] is not a string');
    expect(await storedCount()).toBe(before);
    expect((await submessagesOf(alice, id)).map((s) => [s.sender_id, JSON.parse(s.content).type ?? 'widget'])).toEqual([
      [alice.id, 'widget'],
      [bob.id, 'new_task'],
      [carol.id, 'strike'],
      [alice.id, 'new_task_list_title'],
    ]);
  });
});

describe('refusals change nothing', () => {
  test("invalid JSON, unknown or unseen messages, and messages without a widget get Zulip's errors", async () => {
    const poll = await sendToChannel(ts, alice, town, 'errors', '/poll Sure?');
    const plain = await sendToChannel(ts, alice, town, 'errors', 'just text');
    const secret = await sendToChannel(ts, alice, vault, 'errors', '/poll Secret?');
    const direct = await sendDirect(ts, alice, [bob], '/poll Between us?');
    const queue = await registerQueue(ts, alice, { eventTypes: ['submessage'] });
    const before = await storedCount();
    assertError(await submit(bob, poll, '{"type": "vote"'), 'BAD_REQUEST', 'Invalid json for submessage');
    assertError(await submit(bob, 999999999, { type: 'vote', key: 'canned,0', vote: 1 }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await submit(bob, plain, { type: 'vote', key: 'canned,0', vote: 1 }), 'BAD_REQUEST', 'You cannot attach a submessage to this message.');
    assertError(await submit(carol, secret, { type: 'vote', key: 'canned,0', vote: 1 }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await submit(carol, direct, { type: 'vote', key: 'canned,0', vote: 1 }), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await submit(bob, 'seven', { type: 'vote' }), 'INVALID_JSON', 'Argument "message_id" is not valid JSON.');
    assertError(await client(ts, bob).post('/submessage', { message_id: poll, msg_type: 'widget' }), 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument");
    expect(await storedCount()).toBe(before);
    expect(await getEvents(ts, alice, queue.queueId, queue.lastEventId, { dontBlock: true })).toEqual([]);
    // A message's author may attach data to it (Zulip's rule), after which others may too.
    assertSuccess(await submit(alice, plain, { anything: true }));
    assertSuccess(await submit(bob, plain, { more: 1 }));
    expect(await storedCount()).toBe(before + 2);
  });

  test('a widget message keeps its widget: its content cannot be edited, its topic can', async () => {
    const id = await sendToChannel(ts, alice, town, 'edits', '/poll Keep?\nYes');
    assertError(await client(ts, alice).patch(`/messages/${id}`, { content: '/poll Changed?\nNo' }), 'BAD_REQUEST', 'Widgets cannot be edited.');
    assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { topic: 'edits moved' }));
    const message = assertSuccess(await client(ts, alice).get(`/messages/${id}`, { apply_markdown: false })).message;
    expect(message.content).toBe('/poll Keep?\nYes');
    expect(JSON.parse(message.submessages[0].content).extra_data.question).toBe('Keep?');
  });

  test('deleting a message deletes its submessages', async () => {
    const id = await sendToChannel(ts, alice, town, 'gone', '/poll Delete me?');
    assertSuccess(await submit(bob, id, { type: 'vote', key: 'canned,0', vote: 1 }));
    assertSuccess(await client(ts, alice).delete(`/messages/${id}`));
    expect(await ts.server.deps.knex('submessages').where('message_id', id)).toEqual([]);
  });
});

describe('clients stay in step', () => {
  test('register state plus submessage events equals a fresh register', async () => {
    const id = await sendToChannel(ts, alice, town, 'sync', '/poll Synced?\nYes\nNo');
    const events = await verifyAction(ts, dave, () => submit(bob, id, { type: 'vote', key: 'canned,1', vote: 1 }));
    expect(events.map((e) => [e.type, e.message_id, e.sender_id])).toEqual([['submessage', id, bob.id]]);
  });

  test('a page of messages reads the submessages of all of them in one statement', async () => {
    for (let i = 0; i < 6; i++) await sendToChannel(ts, alice, town, 'page', i % 2 === 0 ? `/poll Page ${i}?\nA` : `text ${i}`);
    const narrow = [{ operator: 'topic', operand: 'page' }];
    let page: Dict[] = [];
    const reads = await countStatements(
      ts,
      async () => {
        page = (await fetchMessages(ts, dave, { narrow })).messages;
      },
      (sql) => /from "submessages"/i.test(sql),
    );
    expect(reads).toBe(1);
    expect(page.map((m) => m.submessages.length)).toEqual([1, 0, 1, 0, 1, 0]);
  });

  test('a fetched message list plus the events since equals a fresh fetch', async () => {
    const first = await sendToChannel(ts, alice, town, 'replay', '/poll One?\nA\nB');
    const second = await sendToChannel(ts, carol, town, 'replay', '/todo Two\nTask');
    const narrow = [
      { operator: 'channel', operand: 'town' },
      { operator: 'topic', operand: 'replay' },
    ];
    const queue = await registerQueue(ts, dave, { eventTypes: ['submessage'] });
    const list: Dict[] = (await fetchMessages(ts, dave, { narrow })).messages;
    assertSuccess(await submit(bob, first, { type: 'vote', key: 'canned,0', vote: 1 }));
    assertSuccess(await submit(alice, second, { type: 'strike', key: '0,canned' }));
    assertSuccess(await submit(bob, first, { type: 'vote', key: 'canned,0', vote: -1 }));
    const events = await eventsUntil(dave, queue, (seen) => seen.length >= 3);
    for (const event of events) {
      const message = list.find((m) => m.id === event.message_id)!;
      message.submessages.push({
        id: event.submessage_id,
        message_id: event.message_id,
        sender_id: event.sender_id,
        msg_type: event.msg_type,
        content: event.content,
      });
    }
    expect((await fetchMessages(ts, dave, { narrow })).messages).toEqual(list);
  });
});

describe('GraphQL', () => {
  test('sendSubmessage acts on the widget; messages carry their submessages', async () => {
    const id = await sendToChannel(ts, alice, town, 'graphql', '/poll Typed?\nYes');
    const res = await graphql(
      ts,
      bob,
      `mutation ($id: Int!, $content: String!) { sendSubmessage(messageId: $id, content: $content) { message { id submessages { id messageId senderId msgType content } } } }`,
      { id, content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) },
    );
    expect(res.errors).toBeUndefined();
    const submessages = res.data!.sendSubmessage.message.submessages;
    expect(submessages.map((s: Dict) => [s.messageId, s.senderId, s.msgType])).toEqual([
      [id, alice.id, 'widget'],
      [id, bob.id, 'widget'],
    ]);
    expect(submessages).toEqual(
      (await submessagesOf(carol, id)).map((s) => ({
        id: String(s.id),
        messageId: s.message_id,
        senderId: s.sender_id,
        msgType: s.msg_type,
        content: s.content,
      })),
    );
    const refused = await graphql(ts, outsider, `mutation ($id: Int!) { sendSubmessage(messageId: $id, content: "{") { message { id } } }`, {
      id: await sendDirect(ts, alice, [bob], '/poll Private?'),
    });
    expect(refused.errors?.[0].message).toBe('Invalid message(s)');
  });
});
