import { openDatabase } from '../../src/db/connect';
import { namespaceFor } from '../../src/realtime/redis';
import { persistentDatabase, startOn } from './persistent';
import { REDIS_URL, removeKeys } from './redis';
import type { TestServer } from './server';

export interface RedisPair {
  a: TestServer;
  b: TestServer;
  /** Stops both servers, drops the database and deletes the servers' Redis keys. */
  close(): Promise<void>;
}

/**
 * Two server processes (two servers in this test process, each with its own Redis connections) on
 * one database and one Redis, the second started for the first's owner. Two PGlite instances
 * cannot share files, so on PGlite both servers use one open instance.
 */
export async function startRedisPair(env: Record<string, string> = {}): Promise<RedisPair> {
  const db = await persistentDatabase();
  const shared = db.pgliteDir ? await openDatabase({ url: null, pgliteDir: db.pgliteDir }) : undefined;
  const started: TestServer[] = [];
  const close = async () => {
    const last = started.at(-1);
    const prefix = last ? await namespaceFor(last.server.deps.knex, last.server.deps.realmId).catch(() => null) : null;
    for (const server of started) await server.close();
    await shared?.close();
    await db.drop();
    if (prefix) await removeKeys(prefix);
  };
  try {
    const a = await startOn(db, null, { REDIS_URL, ...env }, shared);
    started.push(a);
    const b = await startOn(db, a.owner, { REDIS_URL, ...env }, shared);
    started.push(b);
    return { a, b, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
