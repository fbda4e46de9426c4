import { assertError, assertSuccess, client } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { subscribe } from '../messages/helpers';
import { captureEvents, ids } from './helpers';

/**
 * Channel typing through the channels feature's access rules: a subscriber's typing is settled in
 * one statement, anyone else's goes through the full access check.
 */
let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let guest: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
}, 120_000);
afterAll(() => ts.close(), 60_000);

const typing = (who: TestUser, streamId: number, op = 'start') => client(ts, who).post('/typing', { type: 'stream', op, stream_id: streamId, topic: 'plans' });
const queueOf = (who: TestUser) => registerQueue(ts, who, { fetchEventTypes: [], eventTypes: ['typing'], capabilities: { stream_typing_notifications: true } });
const heard = async (who: TestUser, queueId: string) =>
  (await getEvents(ts, who, queueId, -1, { dontBlock: true })).map((e) => `${e.op} ${(e.sender as { user_id: number }).user_id} ${e.stream_id}`);

test('a subscriber reaches the active subscribers, the sender included, of a private channel', async () => {
  const secret = await subscribe(ts, owner, 'typing secret', [owner, alice, bob], { invite_only: true });
  const [a, b, c] = [await queueOf(alice), await queueOf(bob), await queueOf(carol)];
  assertSuccess(await typing(alice, secret));
  assertSuccess(await typing(alice, secret, 'stop'));
  expect(await heard(bob, b.queueId)).toEqual([`start ${alice.id} ${secret}`, `stop ${alice.id} ${secret}`]);
  expect(await heard(alice, a.queueId)).toEqual([`start ${alice.id} ${secret}`, `stop ${alice.id} ${secret}`]);
  expect(await heard(carol, c.queueId)).toEqual([]);
});

test('someone not subscribed may type in a public channel, but not in a private one', async () => {
  const open = await subscribe(ts, owner, 'typing open', [owner, bob]);
  const secret = await subscribe(ts, owner, 'typing hidden', [owner, bob], { invite_only: true });
  const b = await queueOf(bob);
  assertSuccess(await typing(carol, open));
  assertError(await typing(carol, secret), 'BAD_REQUEST', 'Invalid channel ID');
  // A guest reaches only channels it is subscribed to.
  assertError(await typing(guest, open), 'BAD_REQUEST', 'Invalid channel ID');
  expect(await heard(bob, b.queueId)).toEqual([`start ${carol.id} ${open}`]);
});

test('an archived channel is refused even to its subscribers; ids out of range name nothing', async () => {
  const gone = await subscribe(ts, owner, 'typing archived', [owner, alice]);
  assertSuccess(await client(ts, owner).delete(`/streams/${gone}`));
  assertError(await typing(alice, gone), 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await typing(alice, 2 ** 40), 'BAD_REQUEST', 'Invalid channel ID');
});

test('a deactivated subscriber is not told', async () => {
  const room = await subscribe(ts, owner, 'typing room', [owner, alice, bob, carol]);
  assertSuccess(await client(ts, owner).delete(`/users/${carol.id}`));
  const capture = captureEvents(ts);
  assertSuccess(await typing(alice, room));
  capture.stop();
  expect(capture.recipientsOf((e) => e.type === 'typing')).toEqual(ids(owner, alice, bob));
});

test('turning typing preferences off and on through the settings API takes effect at once', async () => {
  const room = await subscribe(ts, owner, 'typing prefs', [owner, alice, bob]);
  const settings = (who: TestUser, params: Record<string, unknown>) => client(ts, who).patch('/settings', params);
  const recipients = async () => {
    const capture = captureEvents(ts);
    assertSuccess(await typing(alice, room));
    capture.stop();
    return capture.recipientsOf((e) => e.type === 'typing');
  };
  expect(await recipients()).toEqual(ids(owner, alice, bob));
  assertSuccess(await settings(bob, { receives_typing_notifications: false }));
  expect(await recipients()).toEqual(ids(owner, alice));
  assertSuccess(await settings(bob, { receives_typing_notifications: true }));
  expect(await recipients()).toEqual(ids(owner, alice, bob));
  assertSuccess(await settings(alice, { send_stream_typing_notifications: false }));
  assertError(await typing(alice, room), 'BAD_REQUEST', 'User has disabled typing notifications for channel messages');
  assertSuccess(await settings(alice, { send_stream_typing_notifications: true }));
  assertSuccess(await typing(alice, room));
});
