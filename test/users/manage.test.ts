import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser, SERVER_HOOK_TIMEOUT } from '../helpers/server';

let ts: TestServer;
let creator: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  creator = await makeUser(ts, 200, { canCreateUsers: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

let seq = 0;
const fresh = () => `new${++seq}@example.com`;
const roleOf = async (id: number) => (await ts.server.deps.knex('users').where({ id }).first('role')).role as number;
const activeOf = async (id: number) => (await ts.server.deps.knex('users').where({ id }).first('is_active')).is_active as boolean;

describe('POST /users', () => {
  test('an administrator with can_create_users creates a member who can log in', async () => {
    const email = fresh();
    const body = assertSuccess(await client(ts, creator).post('/users', { email, password: 'a-good-password', full_name: 'New Person' }));
    expect(Object.keys(body).sort()).toEqual(['msg', 'result', 'user_id']);
    const user = assertSuccess(await client(ts, creator).get(`/users/${body.user_id}`)).user;
    expect(user).toMatchObject({ email, full_name: 'New Person', role: 400, is_active: true });
    const login = assertSuccess(await client(ts, null).post('/fetch_api_key', { username: email, password: 'a-good-password' }));
    expect(login.user_id).toBe(body.user_id);
  });

  test('the name is stored without surrounding spaces', async () => {
    const body = assertSuccess(await client(ts, creator).post('/users', { email: fresh(), password: 'a-good-password', full_name: '  Spaced Name  ' }));
    expect(assertSuccess(await client(ts, creator).get(`/users/${body.user_id}`)).user.full_name).toBe('Spaced Name');
  });

  test.each([300, 400, 600] as const)('role %i is refused with "Must be an organization administrator"', async (role) => {
    const who = await makeUser(ts, role, { canCreateUsers: true });
    const res = await client(ts, who).post('/users', { email: fresh(), password: 'a-good-password', full_name: 'X Y' });
    assertError(res, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  });

  test('an administrator without can_create_users is refused', async () => {
    const admin = await makeUser(ts, 200);
    const res = await client(ts, admin).post('/users', { email: fresh(), password: 'a-good-password', full_name: 'X Y' });
    assertError(res, 'BAD_REQUEST', 'User not authorized to create users');
  });

  test('an owner needs can_create_users as well', async () => {
    const owner = await makeUser(ts, 100);
    const res = await client(ts, owner).post('/users', { email: fresh(), password: 'a-good-password', full_name: 'X Y' });
    assertError(res, 'BAD_REQUEST', 'User not authorized to create users');
  });

  test('an address already in use, in any case, is refused', async () => {
    const email = fresh();
    assertSuccess(await client(ts, creator).post('/users', { email, password: 'a-good-password', full_name: 'First One' }));
    for (const again of [email, email.toUpperCase()]) {
      const res = await client(ts, creator).post('/users', { email: again, password: 'a-good-password', full_name: 'Second One' });
      assertError(res, 'BAD_REQUEST', 'Email is already in use.');
    }
  });

  test.each(['not-an-email', 'a@b', 'two@@example.com', 'spaces in@example.com', ''])('address %j is "Bad name or username"', async (email) => {
    const res = await client(ts, creator).post('/users', { email, password: 'a-good-password', full_name: 'Good Name' });
    assertError(res, 'BAD_REQUEST', 'Bad name or username');
  });

  test.each([
    ['A', 'Name too short!'],
    ['   ', 'Name too short!'],
    ['x'.repeat(101), 'Name too long!'],
    ['Star*Name', 'Invalid characters in name!'],
    ['At@Name', 'Invalid characters in name!'],
    ['Quote"Name', 'Invalid characters in name!'],
    ['Tab\tName', 'Invalid characters in name!'],
    ['Name|123', 'Invalid format!'],
  ])('name %j is refused with %j', async (fullName, msg) => {
    const res = await client(ts, creator).post('/users', { email: fresh(), password: 'a-good-password', full_name: fullName });
    assertError(res, 'BAD_REQUEST', msg);
  });

  test('the name is checked before the address, the address before the password', async () => {
    assertError(await client(ts, creator).post('/users', { email: 'bad', password: 'x', full_name: 'A' }), 'BAD_REQUEST', 'Name too short!');
    assertError(await client(ts, creator).post('/users', { email: 'bad', password: 'x', full_name: 'Good Name' }), 'BAD_REQUEST', 'Bad name or username');
    assertError(
      await client(ts, creator).post('/users', { email: creator.email, password: 'x', full_name: 'Good Name' }),
      'BAD_REQUEST',
      'Email is already in use.',
    );
  });

  test('a weak password is refused', async () => {
    const res = await client(ts, creator).post('/users', { email: fresh(), password: 'abc', full_name: 'Good Name' });
    assertError(res, 'BAD_REQUEST', 'The password is too weak.');
    // Long enough, but guessed too soon: the strength estimate the server announces is enforced.
    assertError(
      await client(ts, creator).post('/users', { email: fresh(), password: 'qwerty12', full_name: 'Good Name' }),
      'BAD_REQUEST',
      'The password is too weak.',
    );
    const announced = assertSuccess(await client(ts, creator).post('/register', { fetch_event_types: JSON.stringify(['realm']) }));
    expect({ length: announced.password_min_length, guesses: announced.password_min_guesses }).toEqual({ length: 6, guesses: 10000 });
  });

  test('each parameter is required', async () => {
    const full = { email: fresh(), password: 'a-good-password', full_name: 'Good Name' };
    for (const name of ['email', 'password', 'full_name'] as const) {
      const { [name]: _dropped, ...rest } = full;
      const body = assertError(await client(ts, creator).post('/users', rest), 'REQUEST_VARIABLE_MISSING', `Missing '${name}' argument`);
      expect(body.var_name).toBe(name);
    }
  });
});

describe('PATCH /users/{user_id}', () => {
  test('an administrator renames a user', async () => {
    const admin = await makeUser(ts, 200);
    const member = await makeUser(ts);
    assertSuccess(await client(ts, admin).patch(`/users/${member.id}`, { full_name: 'Renamed Person' }));
    expect(assertSuccess(await client(ts, member).get('/users/me')).full_name).toBe('Renamed Person');
  });

  test('an administrator may rename an owner', async () => {
    const admin = await makeUser(ts, 200);
    const owner = await makeUser(ts, 100);
    assertSuccess(await client(ts, admin).patch(`/users/${owner.id}`, { full_name: 'Owner Renamed' }));
    expect(assertSuccess(await client(ts, owner).get('/users/me')).full_name).toBe('Owner Renamed');
  });

  test('a blank name is ignored; a bad name is refused', async () => {
    const member = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { full_name: '   ' }));
    expect(assertSuccess(await client(ts, member).get('/users/me')).full_name).toBe(member.fullName);
    assertError(await client(ts, ts.owner).patch(`/users/${member.id}`, { full_name: 'Bad>Name' }), 'BAD_REQUEST', 'Invalid characters in name!');
  });

  test('an administrator changes roles below owner', async () => {
    const admin = await makeUser(ts, 200);
    const member = await makeUser(ts);
    for (const role of [300, 600, 200, 400]) {
      assertSuccess(await client(ts, admin).patch(`/users/${member.id}`, { role }));
      const me = assertSuccess(await client(ts, member).get('/users/me'));
      expect({ role: me.role, is_admin: me.is_admin, is_guest: me.is_guest }).toEqual({ role, is_admin: role === 200, is_guest: role === 600 });
    }
  });

  test('only owners grant the owner role', async () => {
    const admin = await makeUser(ts, 200);
    const member = await makeUser(ts);
    assertError(await client(ts, admin).patch(`/users/${member.id}`, { role: 100 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(await roleOf(member.id)).toBe(400);
    assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 100 }));
    const me = assertSuccess(await client(ts, member).get('/users/me'));
    expect({ role: me.role, is_owner: me.is_owner, is_admin: me.is_admin }).toEqual({ role: 100, is_owner: true, is_admin: true });
  });

  test('only owners remove the owner role', async () => {
    const admin = await makeUser(ts, 200);
    const owner = await makeUser(ts, 100);
    assertError(await client(ts, admin).patch(`/users/${owner.id}`, { role: 400 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(await roleOf(owner.id)).toBe(100);
    assertSuccess(await client(ts, ts.owner).patch(`/users/${owner.id}`, { role: 200 }));
    expect(await roleOf(owner.id)).toBe(200);
  });

  test('the only owner cannot be demoted, even by themself', async () => {
    // Other owners made by earlier tests are demoted first, so ts.owner is the only one.
    await ts.server.deps.knex('users').where('role', 100).whereNot('id', ts.owner.id).update({ role: 200 });
    const res = await client(ts, ts.owner).patch(`/users/${ts.owner.id}`, { role: 200 });
    assertError(res, 'BAD_REQUEST', 'The owner permission cannot be removed from the only organization owner.');
    expect(await roleOf(ts.owner.id)).toBe(100);
    // Setting the role it already has is no change, so it is allowed.
    assertSuccess(await client(ts, ts.owner).patch(`/users/${ts.owner.id}`, { role: 100 }));
  });

  test('with a second owner, an owner may step down', async () => {
    const second = await makeUser(ts, 100);
    assertSuccess(await client(ts, second).patch(`/users/${second.id}`, { role: 400 }));
    expect(await roleOf(second.id)).toBe(400);
  });

  test.each([300, 400, 600] as const)('role %i gets "Insufficient permission"', async (role) => {
    const who = await makeUser(ts, role);
    const member = await makeUser(ts);
    assertError(await client(ts, who).patch(`/users/${member.id}`, { full_name: 'Not Allowed' }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, who).patch(`/users/${member.id}`, { role: 300 }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, who).patch(`/users/${who.id}`, { role: 200 }), 'BAD_REQUEST', 'Insufficient permission');
    expect(await roleOf(member.id)).toBe(400);
  });

  test('role values are checked', async () => {
    const member = await makeUser(ts);
    const patch = (role: string) => client(ts, ts.owner).patch(`/users/${member.id}`, { role });
    assertError(await patch('500'), 'BAD_REQUEST', 'Invalid role');
    assertError(await patch('"admin"'), 'BAD_REQUEST', 'role is not an integer');
    assertError(await patch('admin'), 'INVALID_JSON', 'Argument "role" is not valid JSON.');
    assertError(await patch('4.5'), 'BAD_REQUEST', 'role is not an integer');
    expect(await roleOf(member.id)).toBe(400);
  });

  test('an unknown user is "No such user", by id or by address (anything not a number is an address)', async () => {
    assertError(await client(ts, ts.owner).patch('/users/999999', { full_name: 'Nobody Here' }), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, ts.owner).patch('/users/abc', { full_name: 'Nobody Here' }), 'BAD_REQUEST', 'No such user');
  });

  test('deactivated users can be edited', async () => {
    const member = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`));
    assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { full_name: 'Edited While Away' }));
    expect(assertSuccess(await client(ts, ts.owner).get(`/users/${member.id}`)).user.full_name).toBe('Edited While Away');
  });
});

describe('DELETE /users/{user_id} and POST /users/{user_id}/reactivate', () => {
  test('an administrator deactivates and reactivates a member', async () => {
    const admin = await makeUser(ts, 200);
    const member = await makeUser(ts);
    assertSuccess(await client(ts, admin).delete(`/users/${member.id}`));
    expect(await activeOf(member.id)).toBe(false);
    assertSuccess(await client(ts, admin).post(`/users/${member.id}/reactivate`));
    expect(await activeOf(member.id)).toBe(true);
  });

  test('deactivating a deactivated user is refused; reactivating an active one succeeds', async () => {
    const member = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`));
    assertError(await client(ts, ts.owner).delete(`/users/${member.id}`), 'BAD_REQUEST', 'User is deactivated');
    assertSuccess(await client(ts, ts.owner).post(`/users/${member.id}/reactivate`));
    assertSuccess(await client(ts, ts.owner).post(`/users/${member.id}/reactivate`));
    expect(await activeOf(member.id)).toBe(true);
  });

  test.each([300, 400, 600] as const)('role %i gets "Insufficient permission"', async (role) => {
    const who = await makeUser(ts, role);
    const member = await makeUser(ts);
    assertError(await client(ts, who).delete(`/users/${member.id}`), 'BAD_REQUEST', 'Insufficient permission');
    expect(await activeOf(member.id)).toBe(true);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`));
    assertError(await client(ts, who).post(`/users/${member.id}/reactivate`), 'BAD_REQUEST', 'Insufficient permission');
    expect(await activeOf(member.id)).toBe(false);
  });

  test('only owners deactivate owners', async () => {
    const admin = await makeUser(ts, 200);
    const owner = await makeUser(ts, 100);
    assertError(await client(ts, admin).delete(`/users/${owner.id}`), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    expect(await activeOf(owner.id)).toBe(true);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${owner.id}`));
    expect(await activeOf(owner.id)).toBe(false);
  });

  test('the only owner cannot be deactivated', async () => {
    await ts.server.deps.knex('users').where('role', 100).whereNot('id', ts.owner.id).update({ role: 200 });
    assertError(await client(ts, ts.owner).delete(`/users/${ts.owner.id}`), 'BAD_REQUEST', 'Cannot deactivate the only organization owner');
    expect(await activeOf(ts.owner.id)).toBe(true);
  });

  test('an unknown user is "No such user", however large the id', async () => {
    for (const id of [999999, 3000000000]) {
      assertError(await client(ts, ts.owner).delete(`/users/${id}`), 'BAD_REQUEST', 'No such user');
      assertError(await client(ts, ts.owner).post(`/users/${id}/reactivate`), 'BAD_REQUEST', 'No such user');
      assertError(await client(ts, ts.owner).patch(`/users/${id}`, { role: 400 }), 'BAD_REQUEST', 'No such user');
    }
  });
});
