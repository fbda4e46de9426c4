// One PGlite instance per jest worker, lent to one test server at a time and put back to the
// migrated template's contents before each loan. Opening PGlite (its file system, the data
// directory, the backend's start) costs seconds; putting ~100 small tables back costs a fraction.
//
// This module is loaded by test/environment.js with the worker's own require, so it outlives the
// test files (each of which gets fresh modules); the instance lives in the worker's realm.
const { PGlite } = require('@electric-sql/pglite');

/** Where the template's rows wait between loans: a schema the server never reads. */
const KEEP = 'parley_test_template';

let shared = null; // { pglite, tables, sequences, fingerprint }
let lent = false;
let current = null; // the lease of the running test file

/** Tables, columns, triggers and constraints: a test that changes the schema spoils the instance. */
const FINGERPRINT = `
  SELECT md5(coalesce(string_agg(item, ',' ORDER BY item), '')) AS fingerprint FROM (
    SELECT c.relname || '.' || a.attname || ':' || a.atttypid AS item
      FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
     WHERE c.relnamespace = 'public'::regnamespace AND a.attnum > 0 AND NOT a.attisdropped
    UNION ALL
    SELECT 'trigger ' || tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
     WHERE c.relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'constraint ' || conname FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT 'function ' || proname FROM pg_proc WHERE pronamespace = 'public'::regnamespace
  ) items`;

async function fingerprint(pglite) {
  return (await pglite.query(FINGERPRINT)).rows[0].fingerprint;
}

const quote = (name) => `"${name.replace(/"/g, '""')}"`;

async function open(template) {
  const pglite = new PGlite({ loadDataDir: template });
  await pglite.waitReady;
  const tables = (await pglite.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`)).rows.map((r) => r.tablename);
  // Columns the template's rows are copied through: generated ones are computed again.
  const columns = new Map();
  for (const { table, column } of (
    await pglite.query(`
      SELECT c.relname AS table, a.attname AS column FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
       WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
       ORDER BY c.relname, a.attnum`)
  ).rows) {
    if (!columns.has(table)) columns.set(table, []);
    columns.get(table).push(quote(column));
  }
  await pglite.exec(`CREATE SCHEMA ${KEEP}`);
  const filled = [];
  for (const table of tables) {
    const count = (await pglite.query(`SELECT count(*)::int AS n FROM public.${quote(table)}`)).rows[0].n;
    if (count === 0) continue;
    await pglite.exec(`CREATE TABLE ${KEEP}.${quote(table)} AS SELECT * FROM public.${quote(table)}`);
    filled.push({ table, columns: columns.get(table).join(', ') });
  }
  const sequences = [];
  for (const { name } of (await pglite.query(`SELECT sequencename AS name FROM pg_sequences WHERE schemaname = 'public'`)).rows) {
    const { last_value, is_called } = (await pglite.query(`SELECT last_value, is_called FROM public.${quote(name)}`)).rows[0];
    sequences.push({ name, lastValue: last_value, isCalled: is_called });
  }
  const restore = [
    'SET session_replication_role = replica',
    `TRUNCATE ${tables.map((t) => `public.${quote(t)}`).join(', ')}`,
    ...filled.map(
      ({ table, columns }) => `INSERT INTO public.${quote(table)} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM ${KEEP}.${quote(table)}`,
    ),
    ...sequences.map(({ name, lastValue, isCalled }) => `SELECT setval('public.${quote(name)}', ${Number(lastValue)}, ${isCalled ? 'true' : 'false'})`),
    'SET session_replication_role = DEFAULT',
  ].join(';\n');
  return { pglite, restore, fingerprint: await fingerprint(pglite) };
}

/** Puts the instance back as the template left it; false when a test changed more than rows. */
async function reset(instance) {
  const { pglite } = instance;
  if (pglite.closed) return false;
  // Whatever the last test file left behind: an open transaction, settings, locks.
  await pglite.exec('ROLLBACK');
  await pglite.exec('RESET ALL; SELECT pg_advisory_unlock_all(); UNLISTEN *;');
  if ((await fingerprint(pglite)) !== instance.fingerprint) return false;
  await pglite.exec(instance.restore);
  return true;
}

/**
 * Lends the worker's instance, holding the template's contents, as an object with PGlite's
 * methods whose close() gives it back. Null while it is lent (a test file with two servers at
 * once): that server opens its own.
 */
async function borrow(template) {
  if (lent) return null;
  lent = true;
  try {
    if (shared && !(await reset(shared).catch(() => false))) {
      if (!shared.pglite.closed) await shared.pglite.close().catch(() => undefined);
      shared = null;
    }
    shared ??= await open(template);
  } catch (error) {
    lent = false;
    throw error;
  }
  const { pglite } = shared;
  let returned = false;
  // A server left running by an earlier file must not reach the next file's rows.
  const live =
    (method) =>
    (...args) =>
      returned ? Promise.reject(new Error('the shared test database was given back')) : pglite[method](...args);
  current = {
    query: live('query'),
    exec: live('exec'),
    dumpDataDir: live('dumpDataDir'),
    waitReady: pglite.waitReady,
    get closed() {
      return returned;
    },
    close: async () => {
      if (returned) return;
      returned = true;
      lent = false;
    },
  };
  return current;
}

/**
 * An instance opened from a dump keeps node's event loop alive until it is closed, so a process
 * with no next file to run would not exit: the instance is closed once no file has started for a
 * moment. A file that starts in time cancels that.
 */
const IDLE_CLOSE_MS = 300;
let idleTimer = null;

/** A test file has ended: whatever it did not give back is free again. */
function endOfFile() {
  current?.close();
  current = null;
  lent = false;
  idleTimer = setTimeout(closeIdle, IDLE_CLOSE_MS);
  idleTimer.unref();
}

/** A test file starts. */
function startOfFile() {
  clearTimeout(idleTimer);
  idleTimer = null;
}

function closeIdle() {
  if (lent || !shared) return;
  const { pglite } = shared;
  shared = null;
  if (!pglite.closed) pglite.close().catch(() => undefined);
}

module.exports = { borrow, startOfFile, endOfFile };
