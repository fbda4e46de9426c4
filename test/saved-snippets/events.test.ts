import { assertSuccess, client } from '../helpers/api';
import { verifyPersonalAction } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';

// Saved snippets are personal: every client of their owner follows them; nobody else hears of them.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const watch = (action: () => Promise<unknown>) => verifyPersonalAction(ts, alice, bob, action);

const create = async (title: string) => assertSuccess(await client(ts, alice).post('/saved_snippets', { title, content: 'Body' })).saved_snippet_id as number;

test('creating a snippet', async () => {
  const events = await watch(() => client(ts, alice).post('/saved_snippets', { title: 'Greeting', content: 'Hello **there**' }));
  expect(events).toEqual([
    {
      type: 'saved_snippets',
      op: 'add',
      saved_snippet: { id: expect.any(Number), title: 'Greeting', content: 'Hello **there**', date_created: expect.any(Number) },
    },
  ]);
});

test('editing a snippet’s title, content, or both', async () => {
  const id = await create('Editable');
  await watch(() => client(ts, alice).patch(`/saved_snippets/${id}`, { title: 'New title' }));
  await watch(() => client(ts, alice).patch(`/saved_snippets/${id}`, { content: 'New content' }));
  const events = await watch(() => client(ts, alice).patch(`/saved_snippets/${id}`, { title: 'Both', content: 'Changed' }));
  expect(events).toEqual([{ type: 'saved_snippets', op: 'update', saved_snippet: expect.objectContaining({ id, title: 'Both', content: 'Changed' }) }]);
});

test('deleting a snippet', async () => {
  const id = await create('Doomed');
  expect(await watch(() => client(ts, alice).delete(`/saved_snippets/${id}`))).toEqual([{ type: 'saved_snippets', op: 'remove', saved_snippet_id: id }]);
});
