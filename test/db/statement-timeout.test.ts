import knexFactory, { Knex } from 'knex';
import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { isDatabaseUnavailable } from '../../src/db/connect';

/**
 * A database that is unreachable or too slow answers 503 with Retry-After, never a hang or a 500.
 * On PostgreSQL a second connection holds a lock the server's statements need: they are cancelled
 * by statement_timeout, or their backends are terminated; on PGlite (one connection, nothing else
 * can hold a lock) there is no statement timeout to apply.
 */
const TIMEOUT_MS = 400;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

let ts: TestServer;
let alice: TestUser;
let channelId: number;
beforeAll(async () => {
  ts = await startTestServer({ PARLEY_DB_STATEMENT_TIMEOUT_MS: String(TIMEOUT_MS) });
  alice = await makeUser(ts, 400);
  const created = assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'locks' }], principals: [alice.id] }));
  expect(created.subscribed).toBeDefined();
  channelId = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'locks' })).stream_id;
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const send = (content: string) => client(ts, alice).post('/messages', { type: 'stream', to: channelId, topic: 'waits', content });

/** A connection of its own that holds an exclusive lock on the messages table until released. */
async function lockMessages(): Promise<{ other: Knex; release: () => Promise<void> }> {
  const other = knexFactory({ client: 'pg', connection: ts.server.deps.config.databaseUrl!, pool: { min: 0, max: 2 } });
  const trx = await other.transaction();
  await trx.raw('LOCK TABLE messages IN ACCESS EXCLUSIVE MODE');
  return {
    other,
    release: async () => {
      await trx.rollback();
      await other.destroy();
    },
  };
}

test('connection-level failures are told apart from faults of the request or the code', () => {
  for (const code of ['57014', '57P01', '57P03', '55P03', '08006', '53300']) {
    expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code, severity: 'ERROR' }))).toBe(true);
  }
  expect(isDatabaseUnavailable(Object.assign(new Error('Knex: Timeout acquiring a connection.'), { name: 'KnexTimeoutError' }))).toBe(true);
  expect(isDatabaseUnavailable({ nativeError: { code: '57P01' } })).toBe(true);
  for (const code of ['23505', '42P01', '22P02']) expect(isDatabaseUnavailable(Object.assign(new Error('x'), { code }))).toBe(false);
  // A refused connection elsewhere (an S3 store, a push service) is not the database's.
  expect(isDatabaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }))).toBe(false);
  expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(false);
});

test('the statement timeout applies to PostgreSQL connections only, and migrations run without it', async () => {
  const { db } = ts.server;
  if (onPostgres) {
    expect(db.kind).toBe('postgres');
    const shown = await db.knex.raw('SHOW statement_timeout');
    expect(shown.rows[0].statement_timeout).toBe(`${TIMEOUT_MS}ms`);
    expect(db.unbounded).toBeDefined();
    const unbounded = await db.unbounded!((knex) => knex.raw('SHOW statement_timeout'));
    expect(unbounded.rows[0].statement_timeout).toBe('0');
  } else {
    // The embedded database has one connection, held by this process alone: nothing to wait on.
    expect(db.kind).toBe('pglite');
    expect(db.unbounded).toBeUndefined();
    assertSuccess(await send('no lock to wait for'));
  }
});

test(
  'a statement blocked past the timeout answers 503 with Retry-After (REST and GraphQL), and the pool stays usable',
  async () => {
    if (!onPostgres) {
      // Without a second connection there is no lock to wait for: requests are served.
      const res = await graphql(ts, alice, '{ messages(anchor: "newest", numBefore: 5, numAfter: 0) { __typename } }');
      expect(res.status).toBe(200);
      expect(res.errors).toBeUndefined();
      return;
    }
    const lock = await lockMessages();
    try {
      const started = Date.now();
      const res = await send('waits for the lock');
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 5000);
      assertError(res, 'SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly.', 503);
      expect(res.headers.get('retry-after')).toBe('5');

      const gql = await graphql(ts, alice, '{ messages(anchor: "newest", numBefore: 5, numAfter: 0) { __typename } }');
      expect(gql.status).toBe(503);
      expect(gql.errors?.[0]).toMatchObject({ message: 'The database is unavailable; try again shortly.', extensions: { code: 'SERVICE_UNAVAILABLE' } });
    } finally {
      await lock.release();
    }
    // The connections whose statements were cancelled serve the next requests.
    for (let i = 0; i < 12; i++) assertSuccess(await send(`after the lock ${i}`));
  },
  SERVER_HOOK_TIMEOUT,
);

test(
  'a pool whose connections all wait: the next request gets 503 once the acquire timeout passes; terminated backends: 503, never 500',
  async () => {
    if (!onPostgres) {
      assertSuccess(await send('no backend to terminate'));
      return;
    }
    // Long enough that the statements wait to be terminated, not to time out.
    const slow = await startTestServer({ PARLEY_DB_STATEMENT_TIMEOUT_MS: '60000', PARLEY_DB_ACQUIRE_TIMEOUT_MS: '500' });
    const bob = await makeUser(slow, 400);
    const other = knexFactory({ client: 'pg', connection: slow.server.deps.config.databaseUrl!, pool: { min: 0, max: 2 } });
    const dm = (content: string) => client(slow, bob).post('/messages', { type: 'private', to: [slow.owner.id], content });
    try {
      const trx = await other.transaction();
      await trx.raw('LOCK TABLE messages IN ACCESS EXCLUSIVE MODE');
      // As many sends as the pool has connections (10), each holding one while it waits.
      const burst = Array.from({ length: 10 }, (_, i) => dm(`burst ${i}`));
      const waiting = async () =>
        (await other.raw("SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'")).rows as { pid: number }[];
      await waitUntil(async () => (await waiting()).length === 10);

      const started = Date.now();
      const users = await client(slow, bob).get('/users');
      assertError(users, 'SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly.', 503);
      expect(Date.now() - started).toBeLessThan(5000);
      // Credentials never seen: checking them needs the database, before any resolver runs.
      const gql = await graphql(slow, { email: 'nobody@example.com', apiKey: 'k'.repeat(32) }, '{ me { id } }');
      expect(gql.status).toBe(503);
      expect(gql.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');

      for (const { pid } of await waiting()) await other.raw('SELECT pg_terminate_backend(?)', [pid]);
      for (const res of await Promise.all(burst)) {
        assertError(res, 'SERVICE_UNAVAILABLE', 'The database is unavailable; try again shortly.', 503);
        expect(res.headers.get('retry-after')).toBe('5');
      }
      await trx.rollback();
      for (let i = 0; i < 12; i++) assertSuccess(await dm(`again ${i}`));
    } finally {
      await other.destroy();
      await slow.close();
    }
  },
  SERVER_HOOK_TIMEOUT,
);
