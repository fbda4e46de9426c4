import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resumeExports } from '../../src/core/exports/runner';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { exportedMessages, finishedExport } from './export-files';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

/** Data exports through the API: requests, permissions, limits, the background run, events, the file. */
jest.setTimeout(120_000);

let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-realm-export-'));

beforeAll(async () => {
  ts = await startTestServer({ DATA_DIR: dataDir });
  admin = await makeUser(ts, 200, { fullName: 'Ada Admin' });
  alice = await makeUser(ts, 400, { fullName: 'Alice' });
  bob = await makeUser(ts, 400, { fullName: 'Bob' });
  const o = client(ts, ts.owner);
  assertSuccess(
    await o.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'town square' }]), principals: JSON.stringify([alice.id, bob.id]) }),
  );
  assertSuccess(await o.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'back room' }]), invite_only: true }));
  assertSuccess(await o.post('/messages', { type: 'stream', to: 'town square', topic: 'news', content: 'Public news' }));
  assertSuccess(await o.post('/messages', { type: 'stream', to: 'back room', topic: 'plans', content: 'Private plans' }));
  assertSuccess(await o.post('/messages', { type: 'direct', to: JSON.stringify([alice.id]), content: 'To Alice' }));
  assertSuccess(await o.post('/messages', { type: 'direct', to: JSON.stringify([bob.id]), content: 'To Bob' }));
  assertSuccess(await client(ts, alice).patch('/settings', { allow_private_data_export: true }));
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await ts?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const finished = (queue: { queueId: string; lastEventId: number }, id: number) => finishedExport(ts, admin, queue, id);
const contents = (exportUrl: string) => exportedMessages(ts, dataDir, exportUrl);

test('who may export, and what is refused', async () => {
  assertError(await client(ts, alice).get('/export/realm'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await client(ts, alice).post('/export/realm'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await client(ts, alice).get('/export/realm/consents'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  // Private data goes to owners only; all of it only where owners have access to all content.
  assertError(await client(ts, admin).post('/export/realm', { export_type: 'full_with_consent' }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  assertError(
    await client(ts, ts.owner).post('/export/realm', { export_type: 'full_without_consent' }),
    'BAD_REQUEST',
    "This organization's owners do not have access to all private content.",
  );
  assertError(await client(ts, ts.owner).post('/export/realm', { export_type: 2 }), 'BAD_REQUEST', 'Invalid export_type');
  assertError(await client(ts, admin).delete('/export/realm/999999'), 'BAD_REQUEST', 'Invalid data export ID');
  expect(assertSuccess(await client(ts, admin).get('/export/realm')).exports).toEqual([]);
});

test('consents list every member', async () => {
  const consents = assertSuccess(await client(ts, admin).get('/export/realm/consents')).export_consents;
  expect(consents).toEqual(
    expect.arrayContaining([
      { user_id: alice.id, consented: true, email_address_visibility: expect.any(Number) },
      { user_id: bob.id, consented: false, email_address_visibility: expect.any(Number) },
      { user_id: admin.id, consented: false, email_address_visibility: expect.any(Number) },
    ]),
  );
});

test('a public export, then one with consent: events, listing, the file, deletion', async () => {
  const queue = await registerQueue(ts, admin, { eventTypes: ['realm_export'] });
  const publicId = assertSuccess(await client(ts, admin).post('/export/realm')).id;
  const done = await finished(queue, publicId);
  expect(done).toMatchObject({
    id: publicId,
    acting_user_id: admin.id,
    export_type: 'public',
    pending: false,
    failed_timestamp: null,
    deleted_timestamp: null,
  });
  expect(done.export_url).toMatch(/\/user_avatars\/exports\/\d+\/[\w-]+\/zulip-export-[\w-]+\.tar\.gz$/);
  // Public data only: no private channel, no direct messages.
  expect(await contents(done.export_url)).toEqual(['Public news']);

  const fullId = assertSuccess(await client(ts, ts.owner).post('/export/realm', { export_type: 'full_with_consent' })).id;
  const full = await finished(queue, fullId);
  expect(full).toMatchObject({ export_type: 'full_with_consent', pending: false });
  // Alice consented: what she received comes along; Bob did not, nor did the owner.
  expect(await contents(full.export_url)).toEqual(['Public news', 'To Alice']);

  const listed = assertSuccess(await client(ts, admin).get('/export/realm')).exports;
  expect(listed.map((e: Record<string, any>) => [e.id, e.export_type, e.pending])).toEqual([
    [publicId, 'public', false],
    [fullId, 'full_with_consent', false],
  ]);

  assertSuccess(await client(ts, admin).delete(`/export/realm/${publicId}`));
  const [deleted] = (await getEvents(ts, admin, queue.queueId, queue.lastEventId)).map((e) => e.exports.find((x: Record<string, any>) => x.id === publicId));
  expect(deleted.deleted_timestamp).toEqual(expect.any(Number));
  expect((await fetch(done.export_url.replace(/^https?:\/\/[^/]+/, ts.url))).status).toBe(404);
  assertError(await client(ts, admin).delete(`/export/realm/${publicId}`), 'BAD_REQUEST', 'Export already deleted');

  // GraphQL sees the same list.
  const res = await graphql(ts, admin, '{ realmExports { id exportType pending deletedTimestamp exportUrl } }');
  expect(res.errors).toBeUndefined();
  expect(res.data!.realmExports.map((e: Record<string, any>) => [Number(e.id), e.exportType, e.deletedTimestamp !== null])).toEqual([
    [publicId, 'public', true],
    [fullId, 'full_with_consent', false],
  ]);
});

test('GraphQL starts and deletes exports, for administrators only', async () => {
  const queue = await registerQueue(ts, admin, { eventTypes: ['realm_export'] });
  const started = await graphql(ts, admin, 'mutation { startExport(exportType: "public") { id pending exportType actingUserId } }');
  expect(started.errors).toBeUndefined();
  expect(started.data!.startExport).toMatchObject({ pending: true, exportType: 'public', actingUserId: admin.id });
  const id = Number(started.data!.startExport.id);
  await finished(queue, id);
  const removed = await graphql(ts, admin, `mutation { deleteExport(id: ${id}) { id } }`);
  expect(removed.errors).toBeUndefined();
  expect(graphqlError(await graphql(ts, alice, 'mutation { startExport { id } }')).message).toBe('Must be an organization administrator');
  expect(graphqlError(await graphql(ts, alice, '{ exportConsents { userId consented } }')).message).toBe('Must be an organization administrator');
  const consents = await graphql(ts, admin, '{ exportConsents { userId consented } }');
  expect(consents.data!.exportConsents).toEqual(expect.arrayContaining([{ userId: alice.id, consented: true }]));
});

test('at start-up, requested exports are made and long-abandoned ones marked failed', async () => {
  const knex = ts.server.deps.knex;
  const realmId = ts.server.deps.realmId;
  const queue = await registerQueue(ts, admin, { eventTypes: ['realm_export'] });
  const [requested] = await knex('realm_exports').insert({ realm_id: realmId, acting_user_id: admin.id, export_type: 1, status: 1 }).returning('id');
  const [abandoned] = await knex('realm_exports')
    .insert({ realm_id: realmId, acting_user_id: admin.id, export_type: 1, status: 2, date_started: new Date(Date.now() - 7 * 3600 * 1000) })
    .returning('id');
  resumeExports(ts.server.deps);
  const done = await finished(queue, requested.id);
  expect(done.export_url).toEqual(expect.any(String));
  const listed = assertSuccess(await client(ts, admin).get('/export/realm')).exports;
  expect(listed.find((e: Record<string, any>) => e.id === abandoned.id)).toMatchObject({
    pending: false,
    failed_timestamp: expect.any(Number),
    export_url: null,
  });
});

test('at most five exports a week', async () => {
  const knex = ts.server.deps.knex;
  const realmId = ts.server.deps.realmId;
  // Earlier tests made five this week; a sixth is refused.
  expect(Number((await knex('realm_exports').where('realm_id', realmId).count({ n: '*' }))[0].n)).toBe(5);
  assertError(await client(ts, admin).post('/export/realm'), 'BAD_REQUEST', 'Exceeded rate limit.');
  // Failed exports have nothing to delete.
  const failed = (await knex('realm_exports').where({ realm_id: realmId, status: 4 }).first('id')).id;
  assertError(await client(ts, admin).delete(`/export/realm/${failed}`), 'BAD_REQUEST', 'Export failed, nothing to delete');
});
