import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { fetchMessages, sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let town: number;
const m: Record<string, number> = {};

const ids = async (who: TestUser, narrow: unknown[]) => (await fetchMessages(ts, who, { narrow })).messages.map((x: { id: number }) => x.id);
const get = (who: TestUser, narrow: unknown[]) => client(ts, who).get('/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow });

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob, carol]);
  m.a1 = await sendToChannel(ts, alice, town, 'alpha', 'first');
  m.b1 = await sendToChannel(ts, bob, town, 'beta', 'elsewhere');
  m.a2 = await sendToChannel(ts, bob, town, 'Alpha', 'second');
  m.dm = await sendDirect(ts, alice, [bob], 'just us');
  m.dm2 = await sendDirect(ts, bob, [alice], 'reply');
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('the with operator', () => {
  test("narrows to the message's conversation, replacing conversation terms and keeping the others", async () => {
    expect(await ids(bob, [{ operator: 'with', operand: m.a1 }])).toEqual([m.a1, m.a2]);
    expect(
      await ids(bob, [
        ['channel', 'town'],
        ['topic', 'beta'],
        ['with', String(m.a1)],
      ]),
    ).toEqual([m.a1, m.a2]);
    expect(
      await ids(bob, [
        { operator: 'with', operand: m.a1 },
        { operator: 'sender', operand: bob.id },
      ]),
    ).toEqual([m.a2]);
    expect(await ids(bob, [{ operator: 'with', operand: m.dm }])).toEqual([m.dm, m.dm2]);
    expect(await ids(alice, [{ operator: 'with', operand: m.dm2 }])).toEqual([m.dm, m.dm2]);
  });

  test('follows the message when its topic moves', async () => {
    const moved = await sendToChannel(ts, alice, town, 'wander', 'moving soon');
    assertSuccess(
      await client(ts, alice).patch(`/messages/${moved}`, { topic: 'arrived', propagate_mode: 'change_one', send_notification_to_new_thread: false }),
    );
    const stay = await sendToChannel(ts, bob, town, 'arrived', 'already here');
    expect(await ids(bob, [{ operator: 'with', operand: moved }])).toEqual([moved, stay]);
  });

  test('a message one cannot see: the rest of the narrow if it names a conversation, else an error', async () => {
    expect(
      await ids(carol, [
        ['channel', 'town'],
        ['topic', 'beta'],
        ['with', String(m.dm)],
      ]),
    ).toEqual([m.b1]);
    assertError(await get(carol, [{ operator: 'with', operand: m.dm }]), 'BAD_NARROW', "Invalid narrow operator: Invalid 'with' operator");
    assertError(await get(carol, [{ operator: 'with', operand: 2 ** 40 }]), 'BAD_NARROW', "Invalid narrow operator: Invalid 'with' operator");
    assertError(await get(bob, [{ operator: 'with', operand: 'soon' }]), 'BAD_NARROW', "Invalid narrow operator: Invalid 'with' operator");
    assertError(
      await get(bob, [
        { operator: 'with', operand: m.a1 },
        { operator: 'with', operand: m.dm },
      ]),
      'BAD_NARROW',
      "Invalid narrow operator combination: Duplicate 'with' operators.",
    );
  });

  test('with message_ids and in POST /messages/flags/narrow', async () => {
    const res = assertSuccess(await client(ts, bob).get('/messages', { message_ids: [m.a1, m.b1, m.dm], narrow: [{ operator: 'with', operand: m.a2 }] }));
    expect(res.messages.map((x: { id: number }) => x.id)).toEqual([m.a1]);
    const flagged = assertSuccess(
      await client(ts, carol).post('/messages/flags/narrow', {
        anchor: 'oldest',
        num_before: 0,
        num_after: 100,
        narrow: [{ operator: 'with', operand: m.a1 }],
        op: 'add',
        flag: 'starred',
      }),
    );
    expect(flagged).toMatchObject({ processed_count: 2, first_processed_id: m.a1, last_processed_id: m.a2 });
  });
});
