import { assertSuccess, client } from '../helpers/api';
import { verifyAction, verifyActionFor, verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Drafts are personal: every client of their owner follows them; nobody else hears of them.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let channelId: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'drafting' }] }));
  channelId = assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: 'drafting' })).stream_id;
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const draft = (extra: Record<string, unknown> = {}) => ({ type: 'stream', to: [channelId], topic: 'plans', content: 'Hello', timestamp: 1595479019, ...extra });

/** Two clients of alice and one of bob watch the action; bob must hear nothing. */
const watch = (action: () => Promise<unknown>) => verifyPersonalAction(ts, alice, bob, action);

test('creating drafts of every kind', async () => {
  const events = await watch(() =>
    client(ts, alice).post('/drafts', {
      drafts: [
        draft(),
        { type: 'private', to: [bob.id], topic: '', content: 'Hi Bob', timestamp: 1595479020 },
        { type: '', to: [], topic: '', content: 'Nowhere' },
      ],
    }),
  );
  expect(events).toEqual([
    {
      type: 'drafts',
      op: 'add',
      drafts: [expect.objectContaining({ type: 'stream' }), expect.objectContaining({ type: 'private' }), expect.objectContaining({ type: '' })],
    },
  ]);
});

test('editing a draft: content, topic and addressee', async () => {
  const [id] = assertSuccess(await client(ts, alice).post('/drafts', { drafts: [draft()] })).ids;
  await watch(() => client(ts, alice).patch(`/drafts/${id}`, { draft: draft({ content: 'Edited', topic: 'later' }) }));
  const events = await watch(() =>
    client(ts, alice).patch(`/drafts/${id}`, { draft: { type: 'private', to: [bob.id], topic: '', content: 'Now private', timestamp: 1595479100 } }),
  );
  expect(events).toEqual([
    { type: 'drafts', op: 'update', draft: { id, type: 'private', to: [bob.id], topic: '', content: 'Now private', timestamp: 1595479100 } },
  ]);
});

test('deleting a draft', async () => {
  const [id] = assertSuccess(await client(ts, alice).post('/drafts', { drafts: [draft()] })).ids;
  const events = await watch(() => client(ts, alice).delete(`/drafts/${id}`));
  expect(events).toEqual([{ type: 'drafts', op: 'remove', draft_id: id }]);
});

test('a client that did not fetch drafts stays consistent', async () => {
  await verifyActionFor(ts, [alice], () => client(ts, alice).post('/drafts', { drafts: [draft()] }), { fetchEventTypes: ['realm_user'] });
});

test('a client of bob follows his own drafts', async () => {
  await verifyAction(ts, bob, () => client(ts, bob).post('/drafts', { drafts: [draft({ content: 'Bob’s' })] }));
});

test('turning draft synchronization off and on again', async () => {
  const carol = await makeUser(ts, 400);
  assertSuccess(await client(ts, carol).post('/drafts', { drafts: [draft({ content: 'Kept on the server' })] }));
  const options = { capabilities: { user_settings_object: true } };
  await verifyAction(ts, carol, () => client(ts, carol).patch('/settings', { enable_drafts_synchronization: false }), options);
  await verifyAction(ts, carol, () => client(ts, carol).patch('/settings', { enable_drafts_synchronization: true }), options);
  await verifyAction(ts, carol, () => client(ts, carol).post('/drafts', { drafts: [draft({ content: 'Synced again' })] }), options);
});

test('a client that subscribed to other event types hears nothing of drafts', async () => {
  const [events] = await verifyActionFor(ts, [alice], () => client(ts, alice).post('/drafts', { drafts: [draft({ content: 'Unheard' })] }), {
    eventTypes: ['realm_user'],
  });
  expect(events).toEqual([]);
});
