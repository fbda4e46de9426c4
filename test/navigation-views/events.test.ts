import { assertSuccess, client } from '../helpers/api';
import { verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Navigation views are personal: every client of their owner follows them; nobody else hears of them.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const watch = (action: () => Promise<unknown>) => verifyPersonalAction(ts, alice, bob, action);

test('adding a built-in view and a custom one', async () => {
  const events = await watch(() => client(ts, alice).post('/navigation_views', { fragment: 'inbox', is_pinned: false }));
  expect(events).toEqual([{ type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: false, name: null } }]);
  await watch(() => client(ts, alice).post('/navigation_views', { fragment: 'narrow/channel/9-ops', is_pinned: true, name: 'Ops' }));
});

test('pinning, unpinning and renaming a view', async () => {
  assertSuccess(await client(ts, alice).post('/navigation_views', { fragment: 'narrow/is/dm', is_pinned: true, name: 'DMs' }));
  const events = await watch(() => client(ts, alice).patch('/navigation_views/narrow/is/dm', { is_pinned: false }));
  expect(events).toEqual([{ type: 'navigation_view', op: 'update', fragment: 'narrow/is/dm', data: { is_pinned: false } }]);
  await watch(() => client(ts, alice).patch('/navigation_views/narrow/is/dm', { name: 'At me' }));
  await watch(() => client(ts, alice).patch('/navigation_views/narrow/is/dm', { name: 'Me', is_pinned: true }));
  await watch(() => client(ts, alice).patch('/navigation_views/inbox', { is_pinned: true }));
});

test('removing a view', async () => {
  assertSuccess(await client(ts, alice).post('/navigation_views', { fragment: 'recent', is_pinned: true }));
  expect(await watch(() => client(ts, alice).delete('/navigation_views/recent'))).toEqual([{ type: 'navigation_view', op: 'remove', fragment: 'recent' }]);
});
