import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let guest: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  moderator = await makeUser(ts, 300);
  member = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
});

const add = (fields: Record<string, string>, who: TestUser = admin) =>
  client(ts, who).post('/realm/playgrounds', {
    name: 'Python playground',
    pygments_language: 'Python',
    url_template: 'https://python.example.com?code={code}',
    ...fields,
  });
const playgrounds = async () => assertSuccess(await client(ts, member).post('/register', { fetch_event_types: ['realm_playgrounds'] })).realm_playgrounds;

const fresh = (fields: Record<string, string> = {}) => add({ name: `Playground ${Math.random().toString(36).slice(2, 8)}`, ...fields });

describe('POST /realm/playgrounds', () => {
  test('adds one (trimmed), listed in register; everyone is told the whole list', async () => {
    const events = await verifySharedAction(ts, [admin, member, guest], () => add({ name: ' Python playground ' }), { fetchEventTypes: ['realm_playgrounds'] });
    const [playground] = events[0].realm_playgrounds;
    expect(events).toEqual([
      {
        type: 'realm_playgrounds',
        realm_playgrounds: [
          { id: playground.id, name: 'Python playground', pygments_language: 'Python', url_template: 'https://python.example.com?code={code}' },
        ],
      },
    ]);
    expect(await playgrounds()).toEqual(events[0].realm_playgrounds);
  });

  test("Zulip's validation", async () => {
    assertError(await fresh({ pygments_language: 'py!' }), 'BAD_REQUEST', 'Invalid characters in pygments language');
    assertError(await fresh({ pygments_language: 'x'.repeat(41) }), 'BAD_REQUEST', 'pygments_language is too long (limit: 40 characters)');
    let body = assertError(await fresh({ url_template: 'https://python.example.com?code={code' }), 'BAD_REQUEST', 'Invalid URL template.');
    expect(body.errors).toEqual({ url_template: ['Invalid URL template.'] });
    assertError(await fresh({ url_template: 'https://python.example.com' }), 'BAD_REQUEST', 'Missing the required variable "code" in the URL template');
    assertError(
      await fresh({ url_template: 'https://python.example.com?code={code}&x={x}' }),
      'BAD_REQUEST',
      '"code" should be the only variable present in the URL template',
    );
    body = assertError(await add({ name: '  ' }), 'BAD_REQUEST', 'This field cannot be blank.');
    expect(body.errors).toEqual({ name: ['This field cannot be blank.'] });
    body = assertError(await add({}), 'BAD_REQUEST', 'Realm playground with this Realm, Pygments language and Name already exists.');
    expect(body.errors).toEqual({ __all__: ['Realm playground with this Realm, Pygments language and Name already exists.'] });
    assertError(
      await client(ts, admin).post('/realm/playgrounds', { name: 'x', url_template: 'https://x?c={code}' }),
      'REQUEST_VARIABLE_MISSING',
      "Missing 'pygments_language' argument",
    );
    // Any language made of the allowed characters, not only Pygments' own.
    assertSuccess(await fresh({ pygments_language: 'C++ / C#, v1.0_x' }));
    expect(await playgrounds()).toHaveLength(2);
  });

  test('administrators only', async () => {
    for (const who of [moderator, member, guest]) {
      assertError(await add({ name: 'Mine' }, who), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
      assertError(await client(ts, who).post('/realm/playgrounds', {}), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    assertSuccess(await add({ name: 'Owner playground' }, ts.owner));
  });
});

describe('DELETE /realm/playgrounds/{id}', () => {
  test('removes it; everyone is told; unknown ids are "Invalid playground"', async () => {
    const id = assertSuccess(await add({ name: 'Doomed' })).id;
    for (const who of [moderator, member]) {
      assertError(await client(ts, who).delete(`/realm/playgrounds/${id}`), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    const events = await verifySharedAction(ts, [admin, member], () => client(ts, admin).delete(`/realm/playgrounds/${id}`), {
      fetchEventTypes: ['realm_playgrounds'],
    });
    expect(events[0].realm_playgrounds.map((p: { id: number }) => p.id)).not.toContain(id);
    assertError(await client(ts, admin).delete(`/realm/playgrounds/${id}`), 'BAD_REQUEST', 'Invalid playground');
    assertError(await client(ts, admin).delete('/realm/playgrounds/99999999999'), 'BAD_REQUEST', 'Invalid playground');
  });
});

test('GraphQL: the same actions and checks', async () => {
  const id = (
    await graphql(ts, admin, 'mutation { addCodePlayground(name: "Rust", pygmentsLanguage: "Rust", urlTemplate: "https://play.rust-lang.org/?code={code}") }')
  ).data!.addCodePlayground as number;
  expect((await graphql(ts, member, '{ codePlaygrounds { id name pygmentsLanguage urlTemplate } }')).data!.codePlaygrounds).toContainEqual({
    id: String(id),
    name: 'Rust',
    pygmentsLanguage: 'Rust',
    urlTemplate: 'https://play.rust-lang.org/?code={code}',
  });
  expect(graphqlError(await graphql(ts, member, 'mutation($id: Int!) { removeCodePlayground(id: $id) { id } }', { id }))).toEqual({
    code: 'UNAUTHORIZED_PRINCIPAL',
    message: 'Must be an organization administrator',
  });
  expect((await graphql(ts, admin, 'mutation($id: Int!) { removeCodePlayground(id: $id) { id } }', { id })).data).toEqual({
    removeCodePlayground: { id: String(id) },
  });
  expect(
    graphqlError(await graphql(ts, admin, 'mutation { addCodePlayground(name: "R", pygmentsLanguage: "R", urlTemplate: "https://r.example.com") }')),
  ).toEqual({
    code: 'BAD_REQUEST',
    message: 'Missing the required variable "code" in the URL template',
  });
});
