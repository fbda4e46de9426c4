import { USER_LIMIT_FOR_PRESENCE_EVENTS } from '../../src/core/presence/constants';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer } from '../helpers/server';
import { capture, Capture } from '../settings/capture';

let ts: TestServer;
let events: Capture;

beforeAll(async () => {
  ts = await startTestServer();
  events = capture(ts);
  // Enough accounts to pass the limit, inserted directly (they never log in).
  const rows = Array.from({ length: USER_LIMIT_FOR_PRESENCE_EVENTS }, (_, i) => ({
    realm_id: ts.server.deps.realmId,
    delivery_email: `bulk${i}@example.com`,
    full_name: `Bulk ${i}`,
  }));
  await ts.server.deps.knex('users').insert(rows);
}, 120_000);
afterAll(async () => {
  events.stop();
  await ts.close();
});

test('past the user limit, coming online is learned by polling, not pushed', async () => {
  const member = await makeUser(ts, 400);
  events.clear();
  assertSuccess(await client(ts, member).post('/users/me/presence', { status: 'active', ping_only: true }));
  expect(events.of('presence')).toEqual([]);
  const other = await makeUser(ts, 400);
  const polled = assertSuccess(await client(ts, other).post('/users/me/presence', { status: 'active', last_update_id: -1 }));
  expect(polled.presences[String(member.id)]).toBeDefined();
});

test('a presence_enabled change is still pushed to everyone', async () => {
  const member = await makeUser(ts, 400);
  events.clear();
  assertSuccess(await client(ts, member).patch('/settings', { presence_enabled: false }));
  const sent = events.of('presence');
  expect(sent).toHaveLength(1);
  const active = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).count('* as n').first();
  expect(sent[0].userIds).toHaveLength(Number(active!.n));
  expect(sent[0].userIds.length).toBeGreaterThan(USER_LIMIT_FOR_PRESENCE_EVENTS);
});
