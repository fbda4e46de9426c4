import { assertError, assertSuccess, client } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { persistentDatabase, PersistentDatabase, startOn } from '../helpers/persistent';
import { makeUser, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(180_000);

let db: PersistentDatabase;
let first: TestServer;
let second: TestServer | null = null;
afterAll(async () => {
  await first?.close();
  await second?.close();
  await db?.drop();
});

test('a graceful restart keeps every queue, its pending events and its ids', async () => {
  db = await persistentDatabase();
  first = await startOn(db, null);
  const alice: TestUser = await makeUser(first, 400);

  // Alice has a queue for everything and one for realm_user only; a third is deleted before the stop.
  const all = await registerQueue(first, alice, { fetchEventTypes: [] });
  const usersOnly = await registerQueue(first, alice, { fetchEventTypes: [], eventTypes: ['realm_user'] });
  const deleted = await registerQueue(first, alice, { fetchEventTypes: [] });
  assertSuccess(await client(first, alice).delete('/events', { queue_id: deleted.queueId }));

  const bob = await makeUser(first, 400);
  // Alice reads what Bob's creation caused (realm_user/add, then his system groups) and waits for more.
  const caused = await getEvents(first, alice, all.queueId, -1);
  expect(caused[0]).toMatchObject({ id: 0, type: 'realm_user', op: 'add', person: { user_id: bob.id } });
  const seen = caused[caused.length - 1].id as number;
  const waiting = getEvents(first, alice, all.queueId, seen);
  await waitUntil(() => first.server.deps.realtime!.queues.waitingCount > 0);

  const port = new URL(first.url).port;
  await first.close();
  // The stop answered the waiting request with a heartbeat.
  expect(await waiting).toEqual([{ type: 'heartbeat', id: seen + 1 }]);
  const savedRows = await countSaved(db);
  expect(savedRows).toBeGreaterThanOrEqual(2);

  second = await startOn(db, first.owner, { PORT: port });
  expect(second.url).toBe(first.url);
  // Loaded queues leave no saved rows behind.
  expect(await countSavedWith(second)).toBe(0);

  // Polling on with the same queue and last_event_id: the restart notice comes next.
  const afterRestart = await getEvents(second, alice, all.queueId, seen + 1);
  expect(afterRestart).toEqual([
    {
      id: seen + 2,
      type: 'restart',
      zulip_version: expect.any(String),
      zulip_merge_base: expect.any(String),
      zulip_feature_level: expect.any(Number),
      server_generation: expect.any(Number),
    },
  ]);
  // Events caused on the new server follow in the same numbering.
  assertSuccess(await client(second, second.owner).patch(`/users/${bob.id}`, { full_name: 'Bob Renamed' }));
  expect(await getEvents(second, alice, all.queueId, seen + 2)).toEqual([
    { id: seen + 3, type: 'realm_user', op: 'update', person: { user_id: bob.id, full_name: 'Bob Renamed' } },
  ]);

  // The realm_user-only queue kept its unread event, got no restart notice, and receives new events.
  const usersEvents = await getEvents(second, alice, usersOnly.queueId, -1);
  expect(usersEvents.map((e) => [e.id, e.type, e.op])).toEqual([
    [0, 'realm_user', 'add'],
    [1, 'realm_user', 'update'],
  ]);

  // A queue deleted before the stop stays deleted.
  assertError(
    await client(second, alice).get('/events', { queue_id: deleted.queueId, last_event_id: -1 }),
    'BAD_EVENT_QUEUE_ID',
    `Bad event queue ID: ${deleted.queueId}`,
  );
});

async function countSaved(database: PersistentDatabase): Promise<number> {
  // Opened briefly on its own: the first server is stopped.
  const probe = await startOnlyDatabase(database);
  try {
    return Number((await probe('saved_event_queues').count('* as n').first())!.n);
  } finally {
    await probe.destroy();
  }
}

async function countSavedWith(ts: TestServer): Promise<number> {
  return Number((await ts.server.deps.knex('saved_event_queues').count('* as n').first())!.n);
}

async function startOnlyDatabase(database: PersistentDatabase) {
  const { openDatabase } = await import('../../src/db/connect');
  const opened = await openDatabase({ url: database.env.DATABASE_URL ?? null, pgliteDir: database.pgliteDir });
  const knex = opened.knex;
  return Object.assign((table: string) => knex(table), { destroy: () => opened.close() });
}
