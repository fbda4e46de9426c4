import { Database, openDatabase } from '../../src/db/connect';
import { assertSuccess, client } from '../helpers/api';
import { persistentDatabase, PersistentDatabase, startOn } from '../helpers/persistent';
import { makeUser, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { subscribe } from '../messages/helpers';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(180_000);

/** How many messages of the organization have exactly this content. */
async function copies(ts: TestServer, content: string): Promise<number> {
  const [{ count }] = await ts.server.deps.knex('messages').where({ content }).count({ count: '*' });
  return Number(count);
}

const at = (seconds: number) => Math.floor(Date.now() / 1000) + seconds;

describe('scheduled messages survive a restart', () => {
  let db: PersistentDatabase;
  let first: TestServer | undefined;
  let second: TestServer | undefined;

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await db?.drop();
  });

  test('scheduled on one server, delivered exactly once by the next one on the same database', async () => {
    db = await persistentDatabase();
    first = await startOn(db, null, { PARLEY_SCHEDULER_POLL_MS: '100' });
    const alice = await makeUser(first, 400);
    const channelId = await subscribe(first, first.owner, 'restart', [alice]);
    const due = at(60);
    const id = assertSuccess(
      await client(first, alice).post('/scheduled_messages', {
        type: 'stream',
        to: String(channelId),
        topic: 't',
        content: 'Survived the restart',
        scheduled_delivery_timestamp: due,
      }),
    ).scheduled_message_id;
    const owner = first.owner;
    // Down until after its time: the scheduler stops before the row falls due, and the row's
    // time is then moved into the past, as the time the server stays down would.
    await first.server.scheduler.stop();
    await first.server.deps
      .knex('scheduled_messages')
      .where({ id })
      .update({ scheduled_timestamp: new Date(Date.now() - 1000) });
    await first.close();
    first = undefined;

    second = await startOn(db, owner, { PARLEY_SCHEDULER_POLL_MS: '100' });
    await waitUntil(async () => (await copies(second!, 'Survived the restart')) > 0, 30_000);
    // A further tick finds nothing left to send.
    await second.server.scheduler.runNow();
    expect(await copies(second, 'Survived the restart')).toBe(1);
    const row = await second.server.deps.knex('scheduled_messages').where({ id }).first();
    expect(row).toMatchObject({ delivered: true, failed: false });
    expect(assertSuccess(await client(second, alice).get('/scheduled_messages')).scheduled_messages).toEqual([]);
  });
});

describe('two servers on one database', () => {
  let db: PersistentDatabase;
  let shared: Database | undefined;
  let a: TestServer;
  let b: TestServer;
  let alice: TestUser;

  beforeAll(async () => {
    db = await persistentDatabase();
    // PGlite serves one process: both servers share its handle. PostgreSQL: each has its own pool.
    shared = db.pgliteDir ? await openDatabase({ url: null, pgliteDir: db.pgliteDir }) : undefined;
    a = await startOn(db, null, { PARLEY_SCHEDULER_POLL_MS: '20' }, shared);
    b = await startOn(db, a.owner, { PARLEY_SCHEDULER_POLL_MS: '20' }, shared);
    alice = await makeUser(a, 400);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await shared?.close();
    await db?.drop();
  });

  test('each message due at once is delivered by exactly one of them', async () => {
    const channelId = await subscribe(a, a.owner, 'both', [alice]);
    // Far ahead, so that none falls due while the others are accepted; then all are made due at
    // once, as their time coming would, and both servers tick together.
    const due = at(3600);
    const contents = Array.from({ length: 8 }, (_, i) => `Only once #${i}`);
    for (const [i, content] of contents.entries()) {
      const server = i % 2 === 0 ? a : b;
      assertSuccess(
        await client(server, alice).post('/scheduled_messages', {
          type: 'stream',
          to: String(channelId),
          topic: 't',
          content,
          scheduled_delivery_timestamp: due,
        }),
      );
    }
    const knex = a.server.deps.knex;
    await knex('scheduled_messages')
      .whereIn('content', contents)
      .update({ scheduled_timestamp: new Date(Date.now() - 1000) });
    await Promise.all([a.server.scheduler.runNow(), b.server.scheduler.runNow()]);
    await waitUntil(async () => Number((await knex('scheduled_messages').where({ delivered: false }).count({ n: '*' }))[0].n) === 0, 60_000);
    // Further ticks on both find nothing left to send.
    await Promise.all([a.server.scheduler.runNow(), b.server.scheduler.runNow()]);
    for (const content of contents) expect(await copies(a, content)).toBe(1);
    const rows = await knex('scheduled_messages').whereIn('content', contents);
    expect(rows.every((r: { delivered: boolean; failed: boolean }) => r.delivered && !r.failed)).toBe(true);
    expect(new Set(rows.map((r: { delivered_message_id: string }) => Number(r.delivered_message_id))).size).toBe(contents.length);
  });
});
