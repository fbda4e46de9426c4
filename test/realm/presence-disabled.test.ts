import { assertSuccess, client } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

/** presence_disabled: the organization shows nobody's presence, and reports are not announced. */
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  assertSuccess(await client(ts, alice).post('/users/me/presence', { status: 'active' }));
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const report = (who: TestUser) => client(ts, who).post('/users/me/presence', { status: 'active', slim_presence: true });

test('with presence off nobody is shown and nothing is announced', async () => {
  expect(Object.keys(assertSuccess(await report(bob)).presences)).toContain(String(alice.id));
  assertSuccess(await client(ts, ts.owner).patch('/realm', { presence_disabled: true }));

  const answer = assertSuccess(await report(bob));
  expect(answer.presences).toEqual({});
  expect(answer.presence_last_update_id).toBe(-1);
  expect(assertSuccess(await client(ts, bob).get('/realm/presence')).presences).toEqual({});
  const registered = await registerQueue(ts, bob, { eventTypes: ['presence'], fetchEventTypes: ['presence'] });
  expect(registered.state.presences).toEqual({});

  // A newcomer's first report (which would be announced) reaches nobody.
  const carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  assertSuccess(await report(carol));
  expect(await getEvents(ts, bob, registered.queueId, registered.lastEventId, { dontBlock: true })).toEqual([]);

  assertSuccess(await client(ts, ts.owner).patch('/realm', { presence_disabled: false }));
  const again = assertSuccess(await report(bob));
  expect(Object.keys(again.presences)).toEqual(expect.arrayContaining([String(alice.id), String(carol.id)]));
});
