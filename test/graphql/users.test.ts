import { assertError, assertSuccess, basicAuth, client, graphql, graphqlError } from '../helpers/api';
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

const USER_FIELDS = `userId email deliveryEmail fullName dateJoined isActive isOwner isAdmin isGuest isBot botType botOwnerId
  role timezone avatarUrl avatarVersion`;

/** The REST user dict (client_gravatar off) in GraphQL's field names. */
function restAsGraphQL(user: Record<string, any>) {
  return {
    userId: user.user_id,
    email: user.email,
    deliveryEmail: user.delivery_email,
    fullName: user.full_name,
    dateJoined: user.date_joined,
    isActive: user.is_active,
    isOwner: user.is_owner,
    isAdmin: user.is_admin,
    isGuest: user.is_guest,
    isBot: user.is_bot,
    botType: user.bot_type,
    botOwnerId: user.bot_owner_id,
    role: user.role,
    timezone: user.timezone,
    avatarUrl: user.avatar_url,
    avatarVersion: user.avatar_version,
  };
}

const restUser = async (viewer: TestUser, id: number) => assertSuccess(await client(ts, viewer).get(`/users/${id}`, { client_gravatar: false })).user;

describe('queries', () => {
  test('me returns the authenticated account, as REST shows it', async () => {
    const member = await makeUser(ts);
    const res = await graphql(ts, member, `{ me { ${USER_FIELDS} } }`);
    expect(res.errors).toBeUndefined();
    expect(res.data!.me).toEqual(restAsGraphQL(await restUser(member, member.id)));
  });

  test('user(id) applies the same visibility rules as REST', async () => {
    const member = await makeUser(ts);
    const hidden = await makeUser(ts);
    await ts.server.deps.knex('users').where({ id: hidden.id }).update({ email_address_visibility: 3 });
    const res = await graphql(ts, member, `query ($id: Int!) { user(id: $id) { ${USER_FIELDS} } }`, { id: hidden.id });
    expect(res.data!.user).toEqual(restAsGraphQL(await restUser(member, hidden.id)));
    expect(res.data!.user.deliveryEmail).toBeNull();
    expect(res.data!.user.email).toMatch(new RegExp(`^user${hidden.id}@`));
  });

  test('user(id) of an unknown id is "No such user"', async () => {
    const res = await graphql(ts, creator, '{ user(id: 999999) { userId } }');
    expect(graphqlError(res)).toEqual({ message: 'No such user', code: 'BAD_REQUEST' });
  });

  test('users lists every account', async () => {
    const res = await graphql(ts, creator, '{ users { userId isActive role } }');
    const rest = assertSuccess(await client(ts, creator).get('/users')).members;
    expect(res.data!.users).toEqual(rest.map((u: any) => ({ userId: u.user_id, isActive: u.is_active, role: u.role })));
  });
});

describe('mutations', () => {
  test('createUser creates an account that can log in', async () => {
    const res = await graphql(ts, creator, 'mutation ($input: CreateUserInput!) { createUser(input: $input) { userId email fullName role isActive } }', {
      input: { email: 'gql-new@example.com', password: 'a-good-password', fullName: 'Graph Person' },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data!.createUser).toMatchObject({ email: 'gql-new@example.com', fullName: 'Graph Person', role: 400, isActive: true });
    const login = assertSuccess(await client(ts, null).post('/fetch_api_key', { username: 'gql-new@example.com', password: 'a-good-password' }));
    expect(login.user_id).toBe(res.data!.createUser.userId);
  });

  test('createUser errors carry the Zulip code', async () => {
    const member = await makeUser(ts);
    const admin = await makeUser(ts, 200);
    const mutation = 'mutation ($input: CreateUserInput!) { createUser(input: $input) { userId } }';
    const input = { email: 'gql-x@example.com', password: 'a-good-password', fullName: 'X Y' };
    expect(graphqlError(await graphql(ts, member, mutation, { input }))).toEqual({
      message: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    expect(graphqlError(await graphql(ts, admin, mutation, { input }))).toEqual({
      message: 'User not authorized to create users',
      code: 'BAD_REQUEST',
    });
    expect(graphqlError(await graphql(ts, creator, mutation, { input: { ...input, email: creator.email } }))).toEqual({
      message: 'Email is already in use.',
      code: 'BAD_REQUEST',
    });
    expect(graphqlError(await graphql(ts, creator, mutation, { input: { ...input, email: 'nope' } }))).toEqual({
      message: 'Bad name or username',
      code: 'BAD_REQUEST',
    });
  });

  test('updateUser changes name and role and returns the user', async () => {
    const member = await makeUser(ts);
    const res = await graphql(
      ts,
      ts.owner,
      'mutation ($id: Int!) { updateUser(id: $id, input: { fullName: "Graph Renamed", role: 300 }) { fullName role isAdmin } }',
      {
        id: member.id,
      },
    );
    expect(res.data!.updateUser).toEqual({ fullName: 'Graph Renamed', role: 300, isAdmin: false });
    expect(assertSuccess(await client(ts, member).get('/users/me'))).toMatchObject({ full_name: 'Graph Renamed', role: 300 });
  });

  test('updateUser enforces the same rules as REST', async () => {
    const member = await makeUser(ts);
    const admin = await makeUser(ts, 200);
    const update = (who: TestUser, id: number, input: string) =>
      graphql(ts, who, `mutation ($id: Int!) { updateUser(id: $id, input: ${input}) { role } }`, { id });
    expect(graphqlError(await update(member, admin.id, '{ fullName: "No Way" }'))).toEqual({ message: 'Insufficient permission', code: 'BAD_REQUEST' });
    expect(graphqlError(await update(admin, member.id, '{ role: 100 }'))).toEqual({ message: 'Must be an organization owner', code: 'UNAUTHORIZED_PRINCIPAL' });
    expect(graphqlError(await update(ts.owner, member.id, '{ role: 500 }'))).toEqual({ message: 'Invalid role', code: 'BAD_REQUEST' });
    expect(graphqlError(await update(ts.owner, ts.owner.id, '{ role: 200 }'))).toEqual({
      message: 'The owner permission cannot be removed from the only organization owner.',
      code: 'BAD_REQUEST',
    });
  });

  test('deactivateUser and reactivateUser', async () => {
    const member = await makeUser(ts);
    const off = await graphql(ts, ts.owner, 'mutation ($id: Int!) { deactivateUser(id: $id) { userId isActive } }', { id: member.id });
    expect(off.data!.deactivateUser).toEqual({ userId: member.id, isActive: false });
    assertError(await client(ts, member).get('/users/me'), 'UNAUTHORIZED', 'Account is deactivated', 401);
    const on = await graphql(ts, ts.owner, 'mutation ($id: Int!) { reactivateUser(id: $id) { userId isActive } }', { id: member.id });
    expect(on.data!.reactivateUser).toEqual({ userId: member.id, isActive: true });
    assertSuccess(await client(ts, member).get('/users/me'));
  });

  test('deactivateUser errors carry the Zulip code', async () => {
    const member = await makeUser(ts);
    const deactivate = (who: TestUser, id: number) => graphql(ts, who, 'mutation ($id: Int!) { deactivateUser(id: $id) { userId } }', { id });
    expect(graphqlError(await deactivate(member, ts.owner.id))).toEqual({ message: 'Insufficient permission', code: 'BAD_REQUEST' });
    expect(graphqlError(await deactivate(ts.owner, ts.owner.id))).toEqual({
      message: 'Cannot deactivate the only organization owner',
      code: 'BAD_REQUEST',
    });
  });

  test('regenerateApiKey replaces every key', async () => {
    const member = await makeUser(ts);
    const res = await graphql(ts, member, 'mutation { regenerateApiKey }');
    const key = res.data!.regenerateApiKey;
    expect(key).toMatch(/^[A-Za-z0-9]{32}$/);
    assertError(await client(ts, member).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
    assertSuccess(await client(ts, { email: member.email, apiKey: key }).get('/users/me'));
  });

  test('fetchApiKey needs no credentials and gives a working key', async () => {
    const member = await makeUser(ts);
    const res = await graphql(ts, null, 'mutation ($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { apiKey email userId } }', {
      u: member.email,
      p: member.password,
    });
    expect(res.data!.fetchApiKey).toEqual({ apiKey: expect.stringMatching(/^[A-Za-z0-9]{32}$/), email: member.email, userId: member.id });
    const me = await graphql(ts, { email: member.email, apiKey: res.data!.fetchApiKey.apiKey }, '{ me { userId } }');
    expect(me.data!.me.userId).toBe(member.id);
  });

  test('fetchApiKey with a wrong password is AUTHENTICATION_FAILED', async () => {
    const member = await makeUser(ts);
    const res = await graphql(ts, null, 'mutation ($u: String!) { fetchApiKey(username: $u, password: "wrong-password") { apiKey } }', { u: member.email });
    expect(graphqlError(res)).toEqual({ message: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' });
  });
});

describe('authentication', () => {
  test.each([
    ['{ me { userId } }'],
    ['{ user(id: 1) { userId } }'],
    ['{ users { userId } }'],
    ['mutation { regenerateApiKey }'],
    ['mutation { deactivateUser(id: 1) { userId } }'],
    ['mutation { reactivateUser(id: 1) { userId } }'],
    ['mutation { updateUser(id: 1, input: { fullName: "X Y" }) { userId } }'],
    ['mutation { createUser(input: { email: "a@example.com", password: "a-good-password", fullName: "A B" }) { userId } }'],
  ])('%s without credentials is UNAUTHORIZED', async (query) => {
    const res = await graphql(ts, null, query);
    expect(graphqlError(res)).toEqual({ message: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
    expect(res.data).toBeNull();
  });

  test('a wrong key is refused with its code and a 401', async () => {
    const res = await graphql(ts, { email: ts.owner.email, apiKey: 'B'.repeat(32) }, '{ me { userId } }');
    expect(res.status).toBe(401);
    expect(graphqlError(res)).toEqual({ message: 'Invalid API key', code: 'UNAUTHORIZED' });
  });

  test('a malformed key and a deactivated account are refused', async () => {
    expect(graphqlError(await graphql(ts, { email: ts.owner.email, apiKey: 'short' }, '{ me { userId } }'))).toEqual({
      message: 'Malformed API key',
      code: 'UNAUTHORIZED',
    });
    const member = await makeUser(ts);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`));
    expect(graphqlError(await graphql(ts, member, '{ me { userId } }'))).toEqual({ message: 'Account is deactivated', code: 'UNAUTHORIZED' });
  });

  test('a scheme other than Basic and Bearer is a 400', async () => {
    const res = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Digest abc' },
      body: JSON.stringify({ query: '{ me { userId } }' }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]).toMatchObject({ message: 'This endpoint requires HTTP basic authentication.', extensions: { code: 'BAD_REQUEST' } });
  });

  test('a malformed Bearer key is a 401', async () => {
    const res = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer abc' },
      body: JSON.stringify({ query: '{ me { userId } }' }),
    });
    expect(res.status).toBe(401);
    const body = (await res.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]).toMatchObject({ message: 'Malformed API key', extensions: { code: 'UNAUTHORIZED' } });
  });

  test('credentials are checked even for fetchApiKey', async () => {
    const member = await makeUser(ts);
    const res = await graphql(
      ts,
      { email: member.email, apiKey: 'C'.repeat(32) },
      'mutation ($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { userId } }',
      {
        u: member.email,
        p: member.password,
      },
    );
    expect(graphqlError(res).code).toBe('UNAUTHORIZED');
  });
});

describe('introspection and transport', () => {
  test('introspection describes the schema', async () => {
    const res = await graphql(ts, null, '{ __schema { queryType { name } mutationType { name } types { name } } }');
    expect(res.errors).toBeUndefined();
    expect(res.data!.__schema.queryType.name).toBe('Query');
    expect(res.data!.__schema.mutationType.name).toBe('Mutation');
    const names = res.data!.__schema.types.map((t: { name: string }) => t.name);
    expect(names).toEqual(expect.arrayContaining(['User', 'ApiKeyResult', 'CreateUserInput', 'UpdateUserInput', 'Event', 'MessageEvent']));
  });

  test('fields of a type are listed', async () => {
    const res = await graphql(ts, ts.owner, '{ __type(name: "User") { fields { name } } }');
    const fields = res.data!.__type.fields.map((f: { name: string }) => f.name);
    expect(fields).toEqual(expect.arrayContaining(['id', 'userId', 'email', 'deliveryEmail', 'role', 'avatarUrl', 'botOwner']));
  });

  test('a query error is reported without a stack trace', async () => {
    const res = await graphql(ts, ts.owner, '{ me { noSuchField } }');
    expect(res.status).toBe(400);
    expect(res.errors![0].extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(JSON.stringify(res.errors)).not.toContain('stacktrace');
  });

  test('a body that is not JSON is a 400', async () => {
    const res = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(ts.owner) },
      body: '{ not json',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ result: 'error', code: 'BAD_REQUEST' });
  });
});
