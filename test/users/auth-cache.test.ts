import { EventEmitter } from 'node:events';
import type { Knex } from 'knex';
import { AuthCache, KeyOwner, watchWrites } from '../../src/core/users/auth-cache';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer } from '../helpers/server';
import { countStatements } from '../helpers/statements';

/**
 * Authentication results are cached briefly; every change that affects who a key belongs to, or
 * what that account may do, must be visible on the very next request.
 */
let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(async () => {
  await ts.close();
});

/** Queries that authenticate: the ones reading API keys. */
const countQueries = (work: () => Promise<unknown>) => countStatements(ts, work, (sql) => sql.includes('api_keys'));

test('a repeated request by the same key does not query the database to authenticate', async () => {
  const member = await makeUser(ts, 400);
  assertSuccess(await client(ts, member).get('/users/me'));
  const queries = await countQueries(async () => assertSuccess(await client(ts, member).get('/users/me')));
  expect(queries).toBe(0);
});

test('an unknown key is refused every time, and is never remembered', async () => {
  const member = await makeUser(ts, 400);
  const forged = { email: member.email, apiKey: 'A'.repeat(32) };
  for (let i = 0; i < 2; i++) {
    const queries = await countQueries(async () => assertError(await client(ts, forged).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401));
    expect(queries).toBe(1);
  }
});

test("the right key with another account's address is refused, cached or not", async () => {
  const member = await makeUser(ts, 400);
  const other = await makeUser(ts, 400);
  assertSuccess(await client(ts, member).get('/users/me'));
  assertError(await client(ts, { email: other.email, apiKey: member.apiKey }).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
});

test('after regenerating, the old key is refused at once and the new one works', async () => {
  const member = await makeUser(ts, 400);
  assertSuccess(await client(ts, member).get('/users/me'));
  const { api_key: newKey } = assertSuccess(await client(ts, member).post('/users/me/api_key/regenerate'));
  assertError(await client(ts, member).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
  const me = assertSuccess(await client(ts, { email: member.email, apiKey: newKey }).get('/users/me'));
  expect(me.user_id).toBe(member.id);
});

test('after regenerating through GraphQL, the old key is refused at once', async () => {
  const member = await makeUser(ts, 400);
  expect((await graphql(ts, member, '{ me { userId } }')).data).toEqual({ me: { userId: member.id } });
  const regenerated = await graphql(ts, member, 'mutation { regenerateApiKey }');
  expect(typeof regenerated.data?.regenerateApiKey).toBe('string');
  expect(graphqlError(await graphql(ts, member, '{ me { userId } }'))).toEqual({ message: 'Invalid API key', code: 'UNAUTHORIZED' });
});

test('a deactivated account is refused at once, and its key works again after reactivation', async () => {
  const member = await makeUser(ts, 400);
  assertSuccess(await client(ts, member).get('/users/me'));
  assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`));
  assertError(await client(ts, member).get('/users/me'), 'UNAUTHORIZED', 'Account is deactivated', 401);
  assertSuccess(await client(ts, ts.owner).post(`/users/${member.id}/reactivate`));
  assertSuccess(await client(ts, member).get('/users/me'));
});

test('a role change is visible at once, in what the account sees and what it may do', async () => {
  const admin = await makeUser(ts, 200);
  const target = await makeUser(ts, 400);
  expect(assertSuccess(await client(ts, admin).get('/users/me')).role).toBe(200);
  assertSuccess(await client(ts, admin).patch(`/users/${target.id}`, { full_name: 'Renamed By Admin' }));

  assertSuccess(await client(ts, ts.owner).patch(`/users/${admin.id}`, { role: 400 }));
  const me = assertSuccess(await client(ts, admin).get('/users/me'));
  expect(me).toMatchObject({ role: 400, is_admin: false });
  assertError(await client(ts, admin).patch(`/users/${target.id}`, { full_name: 'Renamed Again' }), 'BAD_REQUEST', 'Insufficient permission');

  assertSuccess(await client(ts, ts.owner).patch(`/users/${admin.id}`, { role: 200 }));
  expect(assertSuccess(await client(ts, admin).get('/users/me')).role).toBe(200);
  assertSuccess(await client(ts, admin).patch(`/users/${target.id}`, { full_name: 'Renamed Again' }));
});

test('a name change is visible at once', async () => {
  const member = await makeUser(ts, 400);
  assertSuccess(await client(ts, member).get('/users/me'));
  assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { full_name: 'Brand New Name' }));
  expect(assertSuccess(await client(ts, member).get('/users/me')).full_name).toBe('Brand New Name');
});

test('a write to users from outside the actions (a script, another feature) is seen at once', async () => {
  const member = await makeUser(ts, 400);
  assertSuccess(await client(ts, member).get('/users/me'));
  await ts.server.deps.knex('users').where({ id: member.id }).update({ full_name: 'Changed Directly' });
  expect(assertSuccess(await client(ts, member).get('/users/me')).full_name).toBe('Changed Directly');
  await ts.server.deps.knex.transaction((trx) => trx('users').where({ id: member.id }).update({ role: 600 }));
  expect(assertSuccess(await client(ts, member).get('/users/me')).role).toBe(600);
  await ts.server.deps
    .knex('users')
    .where({ id: member.id })
    .update({ delivery_email: `moved-${member.email}` });
  assertError(await client(ts, member).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
  const moved = { email: `moved-${member.email}`, apiKey: member.apiKey };
  assertSuccess(await client(ts, moved).get('/users/me'));
  await ts.server.deps.knex('api_keys').where({ user_id: member.id }).delete();
  assertError(await client(ts, moved).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
});

test('a realm_user event on the bus, as another process publishes it, drops the cached account', async () => {
  const member = await makeUser(ts, 400);
  assertSuccess(await client(ts, member).get('/users/me'));
  expect(await countQueries(async () => assertSuccess(await client(ts, member).get('/users/me')))).toBe(0);
  await ts.server.deps.bus.publish([
    {
      realmId: ts.server.deps.realmId,
      userIds: [ts.owner.id],
      event: { type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Elsewhere' } },
    },
  ]);
  expect(await countQueries(async () => assertSuccess(await client(ts, member).get('/users/me')))).toBe(1);
});

describe('AuthCache', () => {
  const owner = (id: number): KeyOwner => ({ user: { id } as KeyOwner['user'], realmDeactivated: false });

  test('entries expire after their lifetime', () => {
    let now = 1_000;
    const cache = new AuthCache(5_000, 100, () => now);
    cache.remember('k', owner(1), cache.ticket());
    now += 4_999;
    expect(cache.get('k')?.user.id).toBe(1);
    now += 1;
    expect(cache.get('k')).toBeUndefined();
  });

  test('a lookup that started before an invalidation does not store its result', () => {
    const cache = new AuthCache();
    const ticket = cache.ticket();
    cache.forgetUser(1);
    cache.remember('k', owner(1), ticket);
    expect(cache.get('k')).toBeUndefined();
    cache.remember('k', owner(1), cache.ticket());
    expect(cache.get('k')?.user.id).toBe(1);
  });

  test("forgetting a user drops all of their keys and nobody else's", () => {
    const cache = new AuthCache();
    cache.remember('a1', owner(1), cache.ticket());
    cache.remember('a2', owner(1), cache.ticket());
    cache.remember('b', owner(2), cache.ticket());
    cache.forgetUser(1);
    expect([cache.get('a1'), cache.get('a2'), cache.get('b')?.user.id]).toEqual([undefined, undefined, 2]);
  });

  test('bus deliveries invalidate: realm_user changes per user, realm deactivation entirely', () => {
    const cache = new AuthCache();
    cache.remember('a', owner(1), cache.ticket());
    cache.remember('b', owner(2), cache.ticket());
    cache.forgetFromDeliveries([{ realmId: 1, userIds: [3], event: { type: 'realm_user', op: 'update', person: { user_id: 1, role: 200 } } }]);
    expect([cache.get('a'), cache.get('b')?.user.id]).toEqual([undefined, 2]);
    cache.forgetFromDeliveries([{ realmId: 1, userIds: [3], event: { type: 'stream', op: 'create', streams: [] } }]);
    expect(cache.get('b')?.user.id).toBe(2);
    cache.forgetFromDeliveries([{ realmId: 1, userIds: [3], event: { type: 'realm', op: 'deactivated', realm_id: 1 } }]);
    expect(cache.size).toBe(0);
  });

  test('auth_changed (keys, role, activation; sent to no client) forgets that user', () => {
    const cache = new AuthCache();
    cache.remember('a', owner(1), cache.ticket());
    cache.remember('b', owner(2), cache.ticket());
    cache.forgetFromDeliveries([{ realmId: 1, userIds: [], event: { type: 'auth_changed', user_id: 1 } }]);
    expect([cache.get('a'), cache.get('b')?.user.id]).toEqual([undefined, 2]);
  });

  test('it holds at most its capacity, dropping the oldest entries', () => {
    const cache = new AuthCache(5_000, 2);
    cache.remember('a', owner(1), cache.ticket());
    cache.remember('b', owner(2), cache.ticket());
    cache.remember('c', owner(3), cache.ticket());
    expect([cache.get('a'), cache.get('b')?.user.id, cache.get('c')?.user.id]).toEqual([undefined, 2, 3]);
  });

  test('nothing is stored while a write is in flight, nor by a lookup that began before it settled', () => {
    const cache = new AuthCache();
    cache.hold('w');
    cache.remember('k', owner(1), cache.ticket());
    expect(cache.get('k')).toBeUndefined();
    const during = cache.ticket();
    cache.release('w');
    cache.remember('k', owner(1), during);
    expect(cache.get('k')).toBeUndefined();
    cache.remember('k', owner(1), cache.ticket());
    expect(cache.get('k')?.user.id).toBe(1);
  });

  test('a write whose end is never seen stops holding the cache after a minute', () => {
    let now = 0;
    const cache = new AuthCache(5_000, 100, () => now);
    cache.hold('lost');
    now += 60_001;
    cache.remember('k', owner(1), cache.ticket());
    expect(cache.get('k')?.user.id).toBe(1);
  });

  test('watchWrites holds for writes to users, api_keys and realms until their statement or transaction ends', () => {
    const knex = new EventEmitter();
    const cache = new AuthCache();
    watchWrites(knex as unknown as Knex, cache);
    const stored = () => {
      cache.remember('k', owner(1), cache.ticket());
      const found = cache.get('k') !== undefined;
      cache.forgetAll();
      return found;
    };
    knex.emit('query', { sql: 'select * from "users" where "id" = $1', __knexQueryUid: 'a' });
    knex.emit('query', { sql: 'update "channels" set "name" = $1', __knexQueryUid: 'b' });
    expect(stored()).toBe(true);

    const write = { sql: 'update "users" set "full_name" = $1 where "id" = $2', __knexQueryUid: 'c' };
    knex.emit('query', write);
    expect(stored()).toBe(false);
    knex.emit('query-response', [], write);
    expect(stored()).toBe(true);

    const failing = { sql: 'DELETE FROM api_keys WHERE user_id = $1', __knexQueryUid: 'd' };
    knex.emit('query', failing);
    expect(stored()).toBe(false);
    knex.emit('query-error', new Error('lost'), failing);
    expect(stored()).toBe(true);

    knex.emit('query', { sql: 'BEGIN;', __knexTxId: 'trx1' });
    knex.emit('query', { sql: 'insert into "api_keys" ("user_id") values ($1)', __knexTxId: 'trx1', __knexQueryUid: 'e' });
    knex.emit('query-response', [], { sql: 'insert into "api_keys" ("user_id") values ($1)', __knexTxId: 'trx1', __knexQueryUid: 'e' });
    expect(stored()).toBe(false);
    knex.emit('query', { sql: 'COMMIT;', __knexTxId: 'trx1' });
    expect(stored()).toBe(true);

    knex.emit('query', { sql: 'alter table "realms" add column "x" integer', __knexTxId: 'trx2', __knexQueryUid: 'f' });
    expect(stored()).toBe(false);
    knex.emit('query', { sql: 'ROLLBACK', __knexTxId: 'trx2' });
    expect(stored()).toBe(true);
  });
});
