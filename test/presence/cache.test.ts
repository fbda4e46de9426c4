import type { Knex } from 'knex';
import { PRESENCE_WRITTEN, PresenceCache, SYNC_MS } from '../../src/core/presence/cache';
import { writePresence } from '../../src/core/presence/store';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

/**
 * The presence cache answers reports and polls without the database; these check that it never
 * answers with an update id whose change it has not included, whoever wrote it.
 */
describe('PresenceCache, on its own', () => {
  /** A database whose presence table is empty, counter at `watermark`. */
  const emptyDb = (watermark = 0) => ({ raw: async () => ({ rows: [{ watermark, rows: '[]' }] }) }) as unknown as Knex;
  const at = (seconds: number) => new Date(seconds * 1000);

  test('ids beyond a gap are held back until the gap is filled', async () => {
    const cache = new PresenceCache(emptyDb(), 1);
    expect(await cache.ready()).toBe(true);
    cache.applyWrite(11, at(1000), at(1000), at(0), true, 2);
    // Id 1 was taken by a write not seen yet: nothing after 0 can be answered beyond it.
    expect(cache.changedAfter(0)).toEqual([]);
    expect(cache.own(11)?.lastActiveMs).toBe(1_000_000);
    cache.applyWrite(10, at(999), at(999), at(0), true, 1);
    expect(cache.changedAfter(0).map((e) => [e.userId, e.updateId])).toEqual([
      [10, 1],
      [11, 2],
    ]);
    expect(cache.changedAfter(1).map((e) => e.userId)).toEqual([11]);
  });

  test("a user's newer write replaces the older one in answers", async () => {
    const cache = new PresenceCache(emptyDb(), 1);
    await cache.ready();
    cache.applyWrite(10, at(1000), at(1000), at(0), true, 1);
    cache.applyWrite(11, at(1000), at(1000), at(0), true, 2);
    cache.applyWrite(10, at(1100), at(1100), at(0), true, 3);
    expect(cache.changedAfter(0).map((e) => [e.userId, e.updateId, e.active])).toEqual([
      [11, 2, 1000],
      [10, 3, 1100],
    ]);
  });

  test('a write announced by another process makes the next use read what changed', async () => {
    let reads = 0;
    const db = {
      raw: async () => {
        reads += 1;
        return { rows: [{ watermark: 0, rows: '[]' }] };
      },
    } as unknown as Knex;
    const cache = new PresenceCache(db, 1);
    await cache.ready();
    expect(reads).toBe(1);
    await cache.ready();
    expect(reads).toBe(1);
    cache.onDeliveries([{ realmId: 1, userIds: [], event: { type: PRESENCE_WRITTEN, update_id: 1 } }]);
    await cache.ready();
    expect(reads).toBe(2);
    cache.onDeliveries([{ realmId: 1, userIds: [], event: { type: 'realm_user', op: 'update', person: { user_id: 3 } } }]);
    await cache.ready();
    expect(reads).toBe(3);
  });

  test('a slow database still leaves the cache usable: a refresh that began after the request is fresh enough', async () => {
    // Each read takes 1.5 s (longer than the 1 s between syncs), as under heavy load.
    let clock = 1_000_000;
    let reads = 0;
    const slowDb = {
      raw: async () => {
        reads += 1;
        clock += 1_500;
        return { rows: [{ watermark: 0, rows: '[]' }] };
      },
    } as unknown as Knex;
    const cache = new PresenceCache(slowDb, 1, () => clock);
    expect(await cache.ready()).toBe(true);
    expect(reads).toBe(1);
    // The last sync is now 1.5 s old: one sync, then the answer, not a fall back to the database.
    expect(await cache.ready()).toBe(true);
    expect(reads).toBe(2);
  });

  test('while a write to the watched tables is in flight the cache is not used', async () => {
    const cache = new PresenceCache(emptyDb(), 1);
    await cache.ready();
    cache.hold('query:1');
    expect(await cache.ready()).toBe(false);
    cache.release('query:1');
    expect(await cache.ready()).toBe(true);
  });
});

describe('presence cache in a server', () => {
  let ts: TestServer;
  let knex: Knex;

  beforeAll(async () => {
    ts = await startTestServer();
    knex = ts.server.deps.knex;
  }, 120_000);
  afterAll(async () => {
    await ts.close();
  });

  const report = (user: TestUser, params: Record<string, unknown> = {}) => client(ts, user).post('/users/me/presence', { status: 'active', ...params });

  /** A write as another server process sharing the database makes it: this process is not told. */
  const writeElsewhere = (user: TestUser, when: Date) => writePresence(knex, ts.server.deps.realmId, user.id, when, when);

  test('a write by another process is never skipped: answered once known, never claimed before', async () => {
    const watcher = await makeUser(ts);
    const local = await makeUser(ts);
    const remote = await makeUser(ts);
    const start = assertSuccess(await report(watcher, { last_update_id: -1 })).presence_last_update_id as number;
    const remoteId = await writeElsewhere(remote, new Date());
    // Not known yet, or already read: either way the answer covers every id up to what it returns.
    const first = assertSuccess(await report(watcher, { last_update_id: start }));
    if (first.presence_last_update_id >= remoteId) expect(first.presences[String(remote.id)]).toBeDefined();
    else expect(first.presence_last_update_id).toBeLessThan(remoteId);
    // A local write after it leaves a gap, which makes the cache read what it missed.
    assertSuccess(await report(local, { ping_only: true }));
    const next = assertSuccess(await report(watcher, { last_update_id: start }));
    expect(next.presences[String(remote.id)]).toBeDefined();
    expect(next.presences[String(local.id)]).toBeDefined();
  });

  test("without any local write, another process's write shows within a second or so", async () => {
    const watcher = await makeUser(ts);
    const remote = await makeUser(ts);
    const start = assertSuccess(await report(watcher, { last_update_id: -1 })).presence_last_update_id as number;
    // A cache on this database, on a clock the test moves: loaded now, and so not yet aware of the write.
    let clock = Date.now();
    const cache = new PresenceCache(knex, ts.server.deps.realmId, () => clock);
    expect(await cache.ready()).toBe(true);
    await writeElsewhere(remote, new Date());
    expect(cache.own(remote.id)).toBeUndefined();
    // A second later, its next use reads the write.
    clock += SYNC_MS + 1;
    expect(await cache.ready()).toBe(true);
    expect(cache.changedAfter(start).map((e) => e.userId)).toContain(remote.id);
    // The server's own cache does the same: a poll shows the write.
    await waitUntil(async () => assertSuccess(await report(watcher, { last_update_id: start })).presences[String(remote.id)] !== undefined);
  });

  test('rows changed by other statements (scripts, other features) are reread at once', async () => {
    const watcher = await makeUser(ts);
    const member = await makeUser(ts);
    assertSuccess(await report(member, { ping_only: true }));
    await knex('users').where({ id: member.id }).update({ is_active: false });
    const all = assertSuccess(await report(watcher, { last_update_id: -1 }));
    expect(all.presences[String(member.id)]).toBeUndefined();
    await knex('users').where({ id: member.id }).update({ is_active: true });
    await knex('user_presence')
      .where({ user_id: member.id })
      .update({ last_connected_time: new Date(Date.now() - 3600_000), last_active_time: new Date(Date.now() - 3600_000) });
    // The stored time is an hour old now: the report writes again.
    const before = await knex('user_presence').where({ user_id: member.id }).first();
    assertSuccess(await report(member, { ping_only: true }));
    const after = await knex('user_presence').where({ user_id: member.id }).first();
    expect(Number(after.last_update_id)).toBeGreaterThan(Number(before.last_update_id));
  });

  test('on the embedded database, credentials stay cached past the one-minute ping interval', () => {
    // Only this process can write the embedded database, so its own writes invalidate exactly.
    if (process.env.TEST_DATABASE_URL) expect(ts.server.deps.authCache.ttlMs).toBeLessThan(60_000);
    else expect(ts.server.deps.authCache.ttlMs).toBeGreaterThan(60_000);
  });

  test('reports arriving together are written together, under consecutive ids', async () => {
    const watcher = await makeUser(ts);
    const users: TestUser[] = [];
    for (let i = 0; i < 12; i++) users.push(await makeUser(ts));
    const start = assertSuccess(await report(watcher, { last_update_id: -1 })).presence_last_update_id as number;
    const answers = await Promise.all(users.map((u) => report(u, { ping_only: true })));
    for (const answer of answers) assertSuccess(answer);
    const rows = await knex('user_presence').whereIn(
      'user_id',
      users.map((u) => u.id),
    );
    const ids = rows.map((r) => Number(r.last_update_id)).sort((a, b) => a - b);
    expect(ids).toEqual(ids.map((_, i) => start + 1 + i));
    const polled = assertSuccess(await report(watcher, { last_update_id: start }));
    for (const u of users) expect(polled.presences[String(u.id)]).toBeDefined();
    expect(polled.presence_last_update_id).toBeGreaterThanOrEqual(ids[ids.length - 1]);
  });
});
