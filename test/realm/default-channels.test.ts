import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listOutbox } from '../../src/core/email/outbox';
import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { registerQueue, verifyActionFor, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let dataDir: string;
let admin: TestUser;
let alice: TestUser;
let guest: TestUser;
let lobby: number;
let news: number;
let secret: number;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-default-channels-'));
  ts = await startTestServer({ DATA_DIR: dataDir });
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  lobby = await channel('lobby');
  news = await channel('news');
  secret = await channel('secret', { invite_only: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

async function channel(name: string, extra: Record<string, unknown> = {}): Promise<number> {
  assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name }], ...extra }));
  return assertSuccess(await client(ts, admin).get('/get_stream_id', { stream: name })).stream_id;
}
const add = (who: TestUser, streamId: number) => client(ts, who).post('/default_streams', { stream_id: streamId });
const remove = (who: TestUser, streamId: number) => client(ts, who).delete('/default_streams', { stream_id: streamId });
const subscriptionIds = async (who: { email: string; apiKey: string }) =>
  (assertSuccess(await client(ts, who).get('/users/me/subscriptions')).subscriptions as { stream_id: number }[]).map((s) => s.stream_id).sort((a, b) => a - b);

test('administrators add default channels; members hear it, guests do not', async () => {
  const [adminEvents, aliceEvents, guestEvents] = await verifyActionFor(ts, [admin, alice, guest], () => add(admin, lobby));
  expect(adminEvents.map(({ id: _id, ...e }) => e)).toEqual([{ type: 'default_streams', default_streams: [lobby] }]);
  expect(aliceEvents).toHaveLength(1);
  expect(guestEvents).toEqual([]);
  expect(assertSuccess(await client(ts, alice).get('/default_streams')).default_streams).toEqual([lobby]);
  expect(assertSuccess(await client(ts, guest).get('/default_streams')).default_streams).toEqual([]);
  expect((await registerQueue(ts, alice, { fetchEventTypes: ['default_streams'] })).state.realm_default_streams).toEqual([lobby]);
  // Adding it again changes nothing and says nothing.
  assertSuccess(await add(admin, lobby));
});

test('refusals: members, private channels, unknown channels', async () => {
  assertError(await add(alice, news), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await remove(alice, lobby), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await add(admin, secret), 'BAD_REQUEST', 'Private channels cannot be made default.');
  assertError(await add(admin, 999999), 'BAD_REQUEST', 'Invalid channel ID');
  assertError(await client(ts, admin).post('/default_streams', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'stream_id' argument");
  expect(assertSuccess(await client(ts, admin).get('/default_streams')).default_streams).toEqual([lobby]);
});

test('new accounts are subscribed to the default channels', async () => {
  const newcomer = await makeUser(ts, 400);
  expect(await subscriptionIds(newcomer)).toEqual([lobby]);
});

test('invitations: include_realm_default_subscriptions, and default channels need no subscribing permission', async () => {
  const groups = await systemGroups(ts);
  assertSuccess(await client(ts, ts.owner).patch('/realm', { can_add_subscribers_group: { new: groups['role:administrators'] } }));
  assertSuccess(await add(admin, news));
  const invite = (params: Record<string, unknown>) => client(ts, alice).post('/invites', params);
  // A channel that is not a default one still needs the permission.
  const other = await channel('other');
  assertError(
    await invite({ invitee_emails: 'x@example.org', stream_ids: [other] }),
    'BAD_REQUEST',
    'You do not have permission to subscribe other users to channels.',
  );
  assertSuccess(await invite({ invitee_emails: 'joiner@example.org', stream_ids: [news], include_realm_default_subscriptions: true }));
  assertSuccess(await invite({ invitee_emails: 'plain@example.org', stream_ids: [] }));
  assertSuccess(await client(ts, ts.owner).patch('/realm', { can_add_subscribers_group: { new: groups['role:members'] } }));

  const keyFor = (email: string) =>
    /\/join\/([a-z0-9]{24})\//.exec(
      listOutbox(ts.server.deps.config)
        .filter((m) => m.to === email)
        .pop()!.text,
    )![1];
  const joined = assertSuccess(await client(ts, null).post(`/join/${keyFor('joiner@example.org')}`, { full_name: 'Joiner', password: 'joiner-password' }));
  expect(await subscriptionIds({ email: 'joiner@example.org', apiKey: joined.api_key })).toEqual([lobby, news]);
  const plain = assertSuccess(await client(ts, null).post(`/join/${keyFor('plain@example.org')}`, { full_name: 'Plain', password: 'plain-password' }));
  expect(await subscriptionIds({ email: 'plain@example.org', apiKey: plain.api_key })).toEqual([]);
});

test('removing a default channel, and channels that become private or archived stop being defaults', async () => {
  const events = await verifySharedAction(ts, [alice, admin], () => remove(admin, news));
  expect(events).toEqual([{ type: 'default_streams', default_streams: [lobby] }]);
  const temp = await channel('temporary');
  assertSuccess(await add(admin, temp));
  await verifySharedAction(ts, [alice], () => client(ts, admin).patch(`/streams/${temp}`, { is_private: true }));
  expect(assertSuccess(await client(ts, alice).get('/default_streams')).default_streams).toEqual([lobby]);
  const gone = await channel('going-away');
  assertSuccess(await add(admin, gone));
  await verifySharedAction(ts, [alice], () => client(ts, admin).delete(`/streams/${gone}`));
  expect(assertSuccess(await client(ts, alice).get('/default_streams')).default_streams).toEqual([lobby]);
});
