import { savedSnippetsSlice } from '../../src/core/saved-snippets/state';
import { User } from '../../src/core/users/model';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { defaultRegisterOptions } from '../helpers/register-options';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 600);
}, 120_000);
afterAll(async () => {
  await ts.close();
});

const create = async (who: TestUser, title = 'Welcome', content = 'Welcome to the organization.') =>
  assertSuccess(await client(ts, who).post('/saved_snippets', { title, content })).saved_snippet_id as number;

describe('POST /saved_snippets', () => {
  test('creates a trimmed snippet and sends an add event to the user', async () => {
    const me = await makeUser(ts, 400);
    const events = captureEvents(ts);
    const before = Math.floor(Date.now() / 1000);
    let id: number;
    try {
      id = await create(me, '  Greeting ', '\n Hello there!  ');
      expect(typeof id).toBe('number');
      const [event] = events.ofType('saved_snippets');
      expect(event.userIds).toEqual([me.id]);
      expect(event.event).toMatchObject({ type: 'saved_snippets', op: 'add', saved_snippet: { id, title: 'Greeting', content: 'Hello there!' } });
    } finally {
      events.stop();
    }
    const { saved_snippets } = assertSuccess(await client(ts, me).get('/saved_snippets'));
    expect(saved_snippets).toEqual([{ id, title: 'Greeting', content: 'Hello there!', date_created: expect.any(Number) }]);
    expect(saved_snippets[0].date_created).toBeGreaterThanOrEqual(before - 1);
    expect(saved_snippets[0].date_created).toBeLessThanOrEqual(Math.ceil(Date.now() / 1000) + 1);
  });

  test('title and content must not be empty', async () => {
    assertError(await client(ts, alice).post('/saved_snippets', { title: '  ', content: 'x' }), 'BAD_REQUEST', 'Title cannot be empty.');
    assertError(await client(ts, alice).post('/saved_snippets', { title: 'x', content: '\n' }), 'BAD_REQUEST', 'Content cannot be empty.');
    assertError(await client(ts, alice).post('/saved_snippets', { title: '', content: '' }), 'BAD_REQUEST', 'Title cannot be empty.');
  });

  test('both parameters are required and bounded', async () => {
    assertError(await client(ts, alice).post('/saved_snippets', { content: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'title' argument");
    assertError(await client(ts, alice).post('/saved_snippets', { title: 'x' }), 'REQUEST_VARIABLE_MISSING', "Missing 'content' argument");
    assertError(
      await client(ts, alice).post('/saved_snippets', { title: 't'.repeat(61), content: 'x' }),
      'BAD_REQUEST',
      'title is too long (limit: 60 characters)',
    );
    assertError(
      await client(ts, alice).post('/saved_snippets', { title: 't', content: 'c'.repeat(10001) }),
      'BAD_REQUEST',
      'content is too long (limit: 10000 characters)',
    );
    expect(typeof (await create(alice, 't'.repeat(60), 'c'.repeat(10000)))).toBe('number');
  });

  test('guests keep snippets too', async () => {
    const id = await create(bob, 'Mine');
    expect(assertSuccess(await client(ts, bob).get('/saved_snippets')).saved_snippets.map((s: any) => s.id)).toContain(id);
  });
});

describe('GET /saved_snippets', () => {
  test('lists only the user own snippets, oldest first', async () => {
    const me = await makeUser(ts, 400);
    const first = await create(me, 'One');
    const second = await create(me, 'Two');
    await create(alice, 'Not mine');
    expect(assertSuccess(await client(ts, me).get('/saved_snippets')).saved_snippets.map((s: any) => s.id)).toEqual([first, second]);
  });
});

describe('PATCH /saved_snippets/{id}', () => {
  test('changes the given fields and sends an update event', async () => {
    const me = await makeUser(ts, 400);
    const id = await create(me, 'Old title', 'Old content');
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).patch(`/saved_snippets/${id}`, { title: ' New title ' }));
      assertSuccess(await client(ts, me).patch(`/saved_snippets/${id}`, { content: 'New content' }));
      const updates = events.ofType('saved_snippets');
      expect(updates.map((u) => [u.event.op, u.event.saved_snippet, u.userIds])).toEqual([
        ['update', expect.objectContaining({ id, title: 'New title', content: 'Old content' }), [me.id]],
        ['update', expect.objectContaining({ id, title: 'New title', content: 'New content' }), [me.id]],
      ]);
    } finally {
      events.stop();
    }
    const [snippet] = assertSuccess(await client(ts, me).get('/saved_snippets')).saved_snippets;
    expect(snippet).toMatchObject({ id, title: 'New title', content: 'New content' });
  });

  test('a request without changes succeeds without an event', async () => {
    const id = await create(alice);
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, alice).patch(`/saved_snippets/${id}`, {}));
      expect(events.ofType('saved_snippets')).toEqual([]);
    } finally {
      events.stop();
    }
  });

  test('empty values are refused', async () => {
    const id = await create(alice);
    assertError(await client(ts, alice).patch(`/saved_snippets/${id}`, { title: ' ' }), 'BAD_REQUEST', 'Title cannot be empty.');
    assertError(await client(ts, alice).patch(`/saved_snippets/${id}`, { content: '' }), 'BAD_REQUEST', 'Content cannot be empty.');
  });

  test('a missing snippet and another user snippet get the same answer', async () => {
    const theirs = await create(bob, 'Private');
    for (const id of [theirs, 987654]) {
      assertError(await client(ts, alice).patch(`/saved_snippets/${id}`, { title: 'Mine now' }), 'BAD_REQUEST', 'Saved snippet does not exist.', 404);
    }
    const mine = assertSuccess(await client(ts, bob).get('/saved_snippets')).saved_snippets.find((s: any) => s.id === theirs);
    expect(mine.title).toBe('Private');
  });
});

describe('DELETE /saved_snippets/{id}', () => {
  test('deletes and sends a remove event', async () => {
    const me = await makeUser(ts, 400);
    const id = await create(me);
    const events = captureEvents(ts);
    try {
      assertSuccess(await client(ts, me).delete(`/saved_snippets/${id}`));
      expect(events.ofType('saved_snippets')).toEqual([{ event: { type: 'saved_snippets', op: 'remove', saved_snippet_id: id }, userIds: [me.id] }]);
    } finally {
      events.stop();
    }
    expect(assertSuccess(await client(ts, me).get('/saved_snippets')).saved_snippets).toEqual([]);
    assertError(await client(ts, me).delete(`/saved_snippets/${id}`), 'BAD_REQUEST', 'Saved snippet does not exist.', 404);
  });

  test('another user snippet cannot be deleted, even by an owner', async () => {
    const theirs = await create(bob);
    assertError(await client(ts, ts.owner).delete(`/saved_snippets/${theirs}`), 'BAD_REQUEST', 'Saved snippet does not exist.', 404);
    assertError(await client(ts, alice).delete(`/saved_snippets/${theirs}`), 'BAD_REQUEST', 'Saved snippet does not exist.', 404);
    expect(assertSuccess(await client(ts, bob).get('/saved_snippets')).saved_snippets.some((s: any) => s.id === theirs)).toBe(true);
  });
});

describe('register slice', () => {
  test('fetches the snippets and applies events idempotently', async () => {
    const me = await makeUser(ts, 400);
    const id = await create(me);
    const user = (await User.query(ts.server.deps.knex).findById(me.id))!;
    const state = await savedSnippetsSlice.fetch(ts.server.deps, user, defaultRegisterOptions);
    expect((state.saved_snippets as any[]).map((s) => s.id)).toEqual([id]);
    const apply = (event: any) => savedSnippetsSlice.apply!(state, event, user, defaultRegisterOptions);
    const extra = { id: id + 1000, title: 'T', content: 'C', date_created: 1 };
    apply({ type: 'saved_snippets', op: 'add', saved_snippet: extra });
    apply({ type: 'saved_snippets', op: 'add', saved_snippet: extra });
    apply({ type: 'saved_snippets', op: 'update', saved_snippet: { ...extra, title: 'U' } });
    expect(state.saved_snippets).toEqual([expect.objectContaining({ id }), { ...extra, title: 'U' }]);
    apply({ type: 'saved_snippets', op: 'remove', saved_snippet_id: extra.id });
    apply({ type: 'saved_snippets', op: 'remove', saved_snippet_id: extra.id });
    expect((state.saved_snippets as any[]).map((s) => s.id)).toEqual([id]);
  });
});

describe('GraphQL', () => {
  test('creates, lists, edits and deletes snippets through the same rules', async () => {
    const me = await makeUser(ts, 400);
    const created = await graphql(ts, me, 'mutation { createSavedSnippet(title: " Hi ", content: "Hello!") { id title content dateCreated } }');
    const snippet = created.data!.createSavedSnippet;
    expect(snippet).toEqual({ id: expect.any(String), title: 'Hi', content: 'Hello!', dateCreated: expect.any(Number) });
    expect((await graphql(ts, me, '{ savedSnippets { id } }')).data!.savedSnippets).toEqual([{ id: snippet.id }]);
    const edited = await graphql(ts, me, `mutation { editSavedSnippet(id: ${snippet.id}, content: "Bye") { title content } }`);
    expect(edited.data!.editSavedSnippet).toEqual({ title: 'Hi', content: 'Bye' });
    expect(graphqlError(await graphql(ts, me, 'mutation { createSavedSnippet(title: "", content: "x") { id } }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Title cannot be empty.',
    });
    expect(graphqlError(await graphql(ts, alice, `mutation { editSavedSnippet(id: ${snippet.id}, title: "Mine") { id } }`))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Saved snippet does not exist.',
    });
    expect((await graphql(ts, me, `mutation { deleteSavedSnippet(id: ${snippet.id}) { id } }`)).data).toEqual({
      deleteSavedSnippet: { id: String(snippet.id) },
    });
  });
});
