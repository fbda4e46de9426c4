import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { verifyAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer } from '../helpers/server';

let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
});

test('DELETE /users/me deactivates the caller; everyone hears it', async () => {
  const user = await makeUser(ts, 400);
  const events = await verifyAction(ts, ts.owner, () => client(ts, user).delete('/users/me'));
  expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: user.id, is_active: false } }));
  assertError(await client(ts, user).get('/users/me'), 'UNAUTHORIZED', 'Account is deactivated', 401);
  assertError(
    await client(ts, null).post('/fetch_api_key', { username: user.email, password: user.password }),
    'AUTHENTICATION_FAILED',
    'Your username or password is incorrect',
    401,
  );
});

test('the only user cannot leave, nor the only owner; with a second owner they can', async () => {
  // Everyone else has left by now.
  const alone = assertError(await client(ts, ts.owner).delete('/users/me'), 'CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only user.');
  expect(alone).toMatchObject({ is_last_owner: false, entity: 'user' });
  await makeUser(ts, 400);
  const res = await client(ts, ts.owner).delete('/users/me');
  const body = assertError(res, 'CANNOT_DEACTIVATE_LAST_USER', 'Cannot deactivate the only organization owner.');
  expect(body.is_last_owner).toBe(true);
  expect(body.entity).toBe('organization owner');
  assertSuccess(await client(ts, ts.owner).get('/users/me'));

  const second = await makeUser(ts, 100);
  assertSuccess(await client(ts, second).delete('/users/me'));
  assertSuccess(await client(ts, ts.owner).get('/users/me'));
});

test('administrators and guests may leave too; through GraphQL as well', async () => {
  const admin = await makeUser(ts, 200);
  assertSuccess(await client(ts, admin).delete('/users/me'));
  const guest = await makeUser(ts, 600);
  const res = await graphql(ts, guest, 'mutation { deactivateOwnAccount { userId isActive } }');
  expect(res.errors).toBeUndefined();
  expect(res.data!.deactivateOwnAccount).toEqual({ userId: guest.id, isActive: false });
  expect((await client(ts, guest).get('/users/me')).status).toBe(401);
});
