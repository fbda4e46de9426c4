import { registerReadReceiptsSetting, ZULIP_DEFAULT_READ_RECEIPTS } from '../../src/core/messages/read-receipts';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { sendDirect, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;
let dave: TestUser;
let erin: TestUser;
let town: number;

const receipts = (who: TestUser, id: number) => client(ts, who).get(`/messages/${id}/read_receipts`);
const markRead = async (who: TestUser, id: number) => assertSuccess(await client(ts, who).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }));

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  dave = await makeUser(ts, 400, { fullName: 'Dave Dormant' });
  erin = await makeUser(ts, 400, { fullName: 'Erin Eager' });
  town = await subscribe(ts, owner, 'town', [owner, alice, bob, carol, dave, erin]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('GET /messages/{message_id}/read_receipts', () => {
  test('lists readers, leaving out the sender, the deactivated and those who turned receipts off', async () => {
    const id = await sendToChannel(ts, alice, town, 'receipts', 'who read this?');
    expect(assertSuccess(await receipts(bob, id)).user_ids).toEqual([]);
    for (const who of [bob, carol, dave, erin]) await markRead(who, id);
    assertSuccess(await client(ts, carol).patch('/settings', { send_read_receipts: false }));
    assertSuccess(await client(ts, owner).delete(`/users/${dave.id}`));
    const res = assertSuccess(await receipts(owner, id));
    expect(res.user_ids).toEqual([bob.id, erin.id]);
    // Marking it unread takes the receipt back.
    assertSuccess(await client(ts, erin).post('/messages/flags', { messages: [id], op: 'remove', flag: 'read' }));
    expect(assertSuccess(await receipts(alice, id)).user_ids).toEqual([bob.id]);
    assertSuccess(await client(ts, carol).patch('/settings', { send_read_receipts: true }));
    expect(assertSuccess(await receipts(alice, id)).user_ids).toEqual([bob.id, carol.id]);
  });

  test('muting hides readers both ways: those who muted the caller, and those the caller muted', async () => {
    const id = await sendToChannel(ts, alice, town, 'receipts', 'muting');
    for (const who of [bob, carol, erin]) await markRead(who, id);
    assertSuccess(await client(ts, carol).post(`/users/me/muted_users/${owner.id}`));
    assertSuccess(await client(ts, owner).post(`/users/me/muted_users/${bob.id}`));
    try {
      expect(assertSuccess(await receipts(owner, id)).user_ids).toEqual([erin.id]);
      expect(assertSuccess(await receipts(alice, id)).user_ids).toEqual([bob.id, carol.id, erin.id]);
    } finally {
      assertSuccess(await client(ts, carol).delete(`/users/me/muted_users/${owner.id}`));
      assertSuccess(await client(ts, owner).delete(`/users/me/muted_users/${bob.id}`));
    }
    expect(assertSuccess(await receipts(owner, id)).user_ids).toEqual([bob.id, carol.id, erin.id]);
  });

  test('someone who cannot see the message gets "Invalid message(s)", as for a missing one', async () => {
    const dm = await sendDirect(ts, alice, [bob], 'just us');
    await markRead(bob, dm);
    expect(assertSuccess(await receipts(alice, dm)).user_ids).toEqual([bob.id]);
    assertError(await receipts(carol, dm), 'BAD_REQUEST', 'Invalid message(s)');
    const inTown = await sendToChannel(ts, alice, town, 'receipts', 'guests are not subscribed');
    assertError(await receipts(guest, inTown), 'BAD_REQUEST', 'Invalid message(s)');
    assertError(await receipts(alice, 99_999_999), 'BAD_REQUEST', 'Invalid message(s)');
  });

  test('an organization with read receipts off refuses, after the access check', async () => {
    const id = await sendToChannel(ts, alice, town, 'receipts', 'off');
    registerReadReceiptsSetting(async () => false);
    try {
      assertError(await receipts(bob, id), 'BAD_REQUEST', 'Read receipts are disabled in this organization.');
      assertError(await receipts(guest, id), 'BAD_REQUEST', 'Invalid message(s)');
    } finally {
      registerReadReceiptsSetting(ZULIP_DEFAULT_READ_RECEIPTS);
    }
  });

  test('GraphQL answers the same', async () => {
    const id = await sendToChannel(ts, alice, town, 'receipts', 'graphql');
    await markRead(bob, id);
    const res = await graphql(ts, owner, 'query($id: Int!) { readReceipts(messageId: $id) }', { id });
    expect(res.errors).toBeUndefined();
    expect(res.data!.readReceipts).toEqual([bob.id]);
    expect(graphqlError(await graphql(ts, guest, 'query($id: Int!) { readReceipts(messageId: $id) }', { id }))).toEqual({
      message: 'Invalid message(s)',
      code: 'BAD_REQUEST',
    });
  });
});
