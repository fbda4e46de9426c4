import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer } from '../helpers/server';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.close();
});

test('the owner reads their own account', async () => {
  const body = assertSuccess(await client(ts, ts.owner).get('/users/me'));
  expect(body).toMatchObject({ user_id: ts.owner.id, email: ts.owner.email, role: 100, is_owner: true, is_admin: true });
});

test('a member cannot create users', async () => {
  const member = await makeUser(ts, 400);
  const res = await client(ts, member).post('/users', { email: 'x@example.com', password: 'secret-pass', full_name: 'X Y' });
  assertError(res, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
});

test('GraphQL me', async () => {
  const res = await graphql(ts, ts.owner, '{ me { userId role } }');
  expect(res.data).toEqual({ me: { userId: ts.owner.id, role: 100 } });
});

test('role changes move the user between system groups', async () => {
  const member = await makeUser(ts, 400);
  const groupsOf = async (id: number) =>
    (await ts.server.deps.knex('user_group_members').join('user_groups', 'user_groups.id', 'group_id').where('user_id', id).pluck('name')).sort();
  expect(await groupsOf(member.id)).toEqual(['role:fullmembers', 'role:members']);
  assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 300 }));
  expect(await groupsOf(member.id)).toEqual(['role:moderators']);
  assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 600 }));
  expect(await groupsOf(member.id)).toEqual(['role:everyone']);
});
