import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell', email: 'alice@example.com' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder', email: 'bob@example.com' });
}, 120_000);
afterAll(() => ts.close(), 60_000);

test('GET and PATCH /users/{email} name the same user as their id', async () => {
  expect(assertSuccess(await client(ts, bob).get('/users/alice@example.com')).user.user_id).toBe(alice.id);
  assertSuccess(await client(ts, owner).patch('/users/ALICE@example.com', { full_name: 'Alice Pleasance', role: 300 }));
  const after = assertSuccess(await client(ts, owner).get(`/users/${alice.id}`)).user;
  expect({ name: after.full_name, role: after.role }).toEqual({ name: 'Alice Pleasance', role: 300 });
});

test('unknown addresses and non-administrators are refused, and nothing changes', async () => {
  assertError(await client(ts, owner).patch('/users/nobody@example.com', { full_name: 'Nobody' }), 'BAD_REQUEST', 'No such user');
  assertError(await client(ts, bob).patch('/users/alice@example.com', { full_name: 'Hijacked' }), 'BAD_REQUEST', 'Insufficient permission');
  expect(assertSuccess(await client(ts, owner).get(`/users/${alice.id}`)).user.full_name).toBe('Alice Pleasance');
});

test('GraphQL: userByEmail and updateUserByEmail', async () => {
  const found = await graphql(ts, bob, 'query { userByEmail(email: "bob@example.com") { userId fullName } }');
  expect(found.data).toEqual({ userByEmail: { userId: bob.id, fullName: 'Bob Builder' } });
  const updated = await graphql(ts, owner, 'mutation { updateUserByEmail(email: "bob@example.com", input: { fullName: "Robert Builder" }) { fullName } }');
  expect(updated.data).toEqual({ updateUserByEmail: { fullName: 'Robert Builder' } });
  const missing = await graphql(ts, owner, 'mutation { updateUserByEmail(email: "x@example.com", input: { fullName: "X" }) { fullName } }');
  expect(graphqlError(missing)).toEqual({ message: 'No such user', code: 'BAD_REQUEST' });
});
