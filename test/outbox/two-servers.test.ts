import crypto from 'node:crypto';
import { openDatabase, Database } from '../../src/db/connect';
import { persistentDatabase, PersistentDatabase, startOn } from '../helpers/persistent';
import type { TestServer } from '../helpers/server';
import { startRefusingSmtp } from './refusing-smtp';

// Two servers on one database (two connection pools on PostgreSQL): each outbox item is sent by
// exactly one of them.
jest.setTimeout(180_000);

let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;
let db: PersistentDatabase;
let shared: Database | undefined;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  smtp = await startRefusingSmtp();
  db = await persistentDatabase();
  shared = db.pgliteDir ? await openDatabase({ url: null, pgliteDir: db.pgliteDir }) : undefined;
  a = await startOn(db, null, { SMTP_URL: smtp.url }, shared);
  b = await startOn(db, a.owner, { SMTP_URL: smtp.url }, shared);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
  await shared?.close();
  await db?.drop();
  await smtp?.close();
});

test('items due at once are sent by one server or the other, each once', async () => {
  const { knex, realmId } = a.server.deps;
  const items = Array.from({ length: 30 }, (_, i) => ({
    realm_id: realmId,
    kind: 'email',
    payload: JSON.stringify({ to: `two-servers-${i}@example.org`, subject: `two servers ${i}`, text: 'hello' }),
    key: crypto.randomUUID(),
  }));
  await knex('deliveries').insert(items);
  // Both servers' workers run at once (and may be running already): they race for the same rows.
  await Promise.all([a.server.outbox.runNow(), b.server.outbox.runNow(), a.server.outbox.runNow(), b.server.outbox.runNow()]);
  const subjects = smtp.attempts.filter((m) => m.subject.startsWith('two servers ')).map((m) => m.subject);
  expect(subjects.sort()).toEqual(items.map((_, i) => `two servers ${i}`).sort());
  const rows = await knex('deliveries').whereIn(
    'key',
    items.map((i) => i.key),
  );
  expect(rows.map((r) => [r.state, r.attempts])).toEqual(items.map(() => ['sent', 1]));
});
