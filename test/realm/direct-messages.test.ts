import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

/** direct_message_permission_group and direct_message_initiator_group, as the send path obeys them. */
let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const setting = async (params: Record<string, unknown>) => assertSuccess(await client(ts, ts.owner).patch('/realm', params));
const dm = (from: TestUser, to: TestUser[]) => client(ts, from).post('/messages', { type: 'direct', to: to.map((u) => u.id), content: 'hello' });
const messageCount = async () => Number((await ts.server.db.knex('messages').count('* as n').first())!.n);

afterEach(async () => {
  await setting({
    direct_message_permission_group: { new: groups['role:everyone'] },
    direct_message_initiator_group: { new: groups['role:everyone'] },
  });
});

test('by default everyone may send direct messages', async () => {
  assertSuccess(await dm(alice, [bob]));
  assertSuccess(await dm(alice, [bob, carol]));
});

test('outside direct_message_permission_group a conversation needs someone inside it', async () => {
  await setting({ direct_message_permission_group: { new: groups['role:administrators'] } });
  const before = await messageCount();
  assertError(await dm(alice, [bob]), 'BAD_REQUEST', 'This conversation does not include any users who can authorize it.');
  assertError(await dm(alice, [bob, carol]), 'BAD_REQUEST', 'This conversation does not include any users who can authorize it.');
  expect(await messageCount()).toBe(before);
  // An administrator in the conversation authorizes it; administrators may write to anyone.
  assertSuccess(await dm(alice, [admin]));
  assertSuccess(await dm(alice, [bob, admin]));
  assertSuccess(await dm(admin, [bob]));
  // Oneself is always allowed.
  assertSuccess(await dm(alice, [alice]));
});

test('role:nobody turns direct messages off', async () => {
  await setting({ direct_message_permission_group: { new: groups['role:nobody'] } });
  assertError(await dm(alice, [bob]), 'BAD_REQUEST', 'Direct messages are disabled in this organization.');
  assertError(await dm(admin, [bob]), 'BAD_REQUEST', 'Direct messages are disabled in this organization.');
  assertSuccess(await dm(alice, [alice]));
});

test('outside direct_message_initiator_group only existing conversations continue', async () => {
  assertSuccess(await dm(bob, [carol]));
  await setting({ direct_message_initiator_group: { new: groups['role:administrators'] } });
  assertError(await dm(alice, [carol]), 'BAD_REQUEST', 'You do not have permission to initiate direct message conversations.');
  // bob and carol already talk: either may go on.
  assertSuccess(await dm(carol, [bob]));
  assertSuccess(await dm(admin, [alice]));
  // The setting is read again after every change, in this process and (through its event) others.
  await setting({ direct_message_initiator_group: { new: { direct_members: [alice.id], direct_subgroups: [] } } });
  assertSuccess(await dm(alice, [carol]));
});
