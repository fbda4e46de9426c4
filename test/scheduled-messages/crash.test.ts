import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory, { Knex } from 'knex';
import { assertSuccess, client } from '../helpers/api';
import { freePort, startEntryPoint } from '../helpers/entry-point';
import { persistentDatabase, PersistentDatabase, startOn } from '../helpers/persistent';
import { makeUser, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { subscribe } from '../messages/helpers';

jest.setTimeout(240_000);

/**
 * A server process killed in the middle of a delivery (SIGKILL while its transaction waits on the
 * messages table) has sent nothing; the next server delivers the message, once. Two processes on
 * one database: PostgreSQL only (PGlite serves a single process).
 */
const describeOnPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

describeOnPostgres('a crash during a delivery', () => {
  let db: PersistentDatabase;
  let setup: TestServer | undefined;
  let next: TestServer | undefined;
  let locker: Knex | undefined;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-crash-'));

  afterAll(async () => {
    await setup?.close();
    await next?.close();
    await locker?.destroy();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('loses nothing and sends nothing twice', async () => {
    db = await persistentDatabase();
    setup = await startOn(db, null);
    const owner = setup.owner;
    const alice: TestUser = await makeUser(setup, 400);
    const channelId = await subscribe(setup, owner, 'crash', [alice]);
    await setup.close();
    setup = undefined;

    const port = await freePort();
    const child = await startEntryPoint(port, { ...db.env, DATA_DIR: dataDir, PARLEY_SCHEDULER_POLL_MS: '100' });
    const childServer = { url: `http://127.0.0.1:${port}` } as TestServer;
    const content = 'Interrupted, then sent once';
    const id = assertSuccess(
      await client(childServer, alice).post('/scheduled_messages', {
        type: 'stream',
        to: String(channelId),
        topic: 't',
        content,
        scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 2,
      }),
    ).scheduled_message_id;

    // Hold the messages table: the delivery claims its row, then waits to store the message.
    locker = knexFactory({ client: 'pg', connection: db.env.DATABASE_URL, pool: { min: 1, max: 2 } });
    const held = await locker.transaction();
    await held.raw('LOCK TABLE messages IN SHARE MODE');
    const waiters = async (): Promise<number[]> =>
      (await locker!.raw("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows.map(
        (r: { pid: number }) => r.pid,
      );
    await waitUntil(async () => (await waiters()).length > 0, 60_000);
    const [backend] = await waiters();
    child.child.kill('SIGKILL');
    await child.exited;
    // Let the killed server's backend go on: it finds its client gone and rolls its transaction back.
    await held.rollback();
    const alive = async () => Number((await locker!.raw('SELECT count(*) AS n FROM pg_stat_activity WHERE pid = ?', [backend])).rows[0].n) > 0;
    await waitUntil(async () => !(await alive()), 60_000);

    const row = await locker('scheduled_messages').where({ id }).first();
    expect(row).toMatchObject({ delivered: false, failed: false });
    expect(Number((await locker('messages').where({ content }).count({ n: '*' }))[0].n)).toBe(0);

    next = await startOn(db, owner, { PARLEY_SCHEDULER_POLL_MS: '100' });
    const copies = async () => Number((await locker!('messages').where({ content }).count({ n: '*' }))[0].n);
    await waitUntil(async () => (await copies()) > 0, 30_000);
    // A further tick finds nothing left to send.
    await next.server.scheduler.runNow();
    expect(await copies()).toBe(1);
    expect(await locker('scheduled_messages').where({ id }).first()).toMatchObject({ delivered: true, failed: false });
  });
});
