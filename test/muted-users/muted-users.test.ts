import { assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents, verifyAction, verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { messageFlags, sendDirect, sendToChannel, subscribe } from '../messages/helpers';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let channelId: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  channelId = await subscribe(ts, ts.owner, 'muting', [alice, bob, carol]);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const mute = (who: TestUser, target: number) => client(ts, who).post(`/users/me/muted_users/${target}`);
const unmute = (who: TestUser, target: number) => client(ts, who).delete(`/users/me/muted_users/${target}`);

test("Zulip's errors, and nothing changes", async () => {
  const user = await makeUser(ts);
  assertError(await mute(user, user.id), 'BAD_REQUEST', 'Cannot mute self');
  assertError(await mute(user, 999999), 'BAD_REQUEST', 'No such user');
  assertError(await mute(user, 2 ** 40), 'BAD_REQUEST', 'No such user');
  assertError(await unmute(user, bob.id), 'BAD_REQUEST', 'User is not muted');
  assertError(await unmute(user, 999999), 'BAD_REQUEST', 'No such user');
  assertSuccess(await mute(user, bob.id));
  assertError(await mute(user, bob.id), 'BAD_REQUEST', 'User already muted');
  expect((await client(ts, user).post('/users/me/muted_users/abc')).status).toBe(404);
  const state = assertSuccess(await client(ts, user).post('/register', { fetch_event_types: ['muted_users'] }));
  expect(state.muted_users).toEqual([{ id: bob.id, timestamp: expect.any(Number) }]);
  expect(Math.abs(state.muted_users[0].timestamp - Date.now() / 1000)).toBeLessThan(60);
});

test('muting and unmuting: the whole list goes to the muter only, and a fresh register agrees', async () => {
  const user = await makeUser(ts);
  const [mine, others] = await verifyActionFor(ts, [user, bob], () => mute(user, alice.id));
  expect(mine).toEqual([{ type: 'muted_users', muted_users: [{ id: alice.id, timestamp: expect.any(Number) }], id: expect.any(Number) }]);
  expect(others).toEqual([]);
  await verifyAction(ts, user, () => mute(user, carol.id));
  const events = await verifyAction(ts, user, () => unmute(user, alice.id));
  expect(events).toEqual([{ type: 'muted_users', muted_users: [{ id: carol.id, timestamp: expect.any(Number) }], id: expect.any(Number) }]);
});

test('bots and deactivated accounts can be muted', async () => {
  const user = await makeUser(ts);
  const bot = await makeUser(ts);
  await ts.server.deps.knex('users').where({ id: bot.id }).update({ is_bot: true });
  const gone = await makeUser(ts);
  assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
  assertSuccess(await mute(user, bot.id));
  assertSuccess(await mute(user, gone.id));
  assertSuccess(await unmute(user, gone.id));
});

test("a muted user's new messages arrive read for the muter, and only for the muter", async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'muting', [user]);
  assertSuccess(await mute(user, carol.id));
  const capture = captureEvents(ts);
  const inChannel = await sendToChannel(ts, carol, channelId, 'quiet', 'hello all');
  const direct = await sendDirect(ts, carol, [user, bob], 'hello you two');
  capture.stop();
  expect(await messageFlags(ts, user, inChannel)).toEqual(['read']);
  expect(await messageFlags(ts, user, direct)).toEqual(['read']);
  expect(await messageFlags(ts, bob, inChannel)).toEqual([]);
  expect(await messageFlags(ts, carol, direct)).toEqual(['read']);
  const received = capture.for(user.id).filter((e) => e.type === 'message');
  expect(received.map((e) => e.flags)).toEqual([['read'], ['read']]);
  // Unmuted again: new messages are unread as usual.
  assertSuccess(await unmute(user, carol.id));
  expect(await messageFlags(ts, user, await sendToChannel(ts, carol, channelId, 'quiet', 'back'))).toEqual([]);
});

test('a send through a remembered snapshot also sees a mute made since', async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'muting', [user]);
  await sendToChannel(ts, bob, channelId, 'snap', 'first');
  await sendToChannel(ts, bob, channelId, 'snap', 'second');
  assertSuccess(await mute(user, bob.id));
  expect(await messageFlags(ts, user, await sendToChannel(ts, bob, channelId, 'snap', 'third'))).toEqual(['read']);
  assertSuccess(await unmute(user, bob.id));
  expect(await messageFlags(ts, user, await sendToChannel(ts, bob, channelId, 'snap', 'fourth'))).toEqual([]);
});

test("muting marks the muted user's unread messages read, with the event a register agrees with", async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'muting', [user]);
  const ids = [await sendToChannel(ts, alice, channelId, 'loud', 'one'), await sendDirect(ts, alice, [user], 'two')];
  const other = await sendToChannel(ts, bob, channelId, 'loud', 'not from alice');
  const events = await verifyAction(ts, user, () => mute(user, alice.id));
  expect(events.map((e) => e.type)).toEqual(['update_message_flags', 'muted_users']);
  expect(events[0]).toMatchObject({ op: 'add', flag: 'read', messages: ids, all: false });
  expect(await messageFlags(ts, user, other)).toEqual([]);
  // Nothing unread left from her: muting again after unmuting sends only the list.
  assertSuccess(await unmute(user, alice.id));
  const again = await verifyAction(ts, user, () => mute(user, alice.id));
  expect(again.map((e) => e.type)).toEqual(['muted_users']);
});

test('a mute written behind the actions (another writer) is seen by the next send', async () => {
  const user = await makeUser(ts);
  await subscribe(ts, ts.owner, 'muting', [user]);
  await sendToChannel(ts, bob, channelId, 'raw', 'warm the caches');
  await ts.server.deps.knex('muted_users').insert({ realm_id: ts.server.deps.realmId, user_id: user.id, muted_user_id: bob.id, date_muted: new Date() });
  expect(await messageFlags(ts, user, await sendToChannel(ts, bob, channelId, 'raw', 'now muted'))).toEqual(['read']);
});
