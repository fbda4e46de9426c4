import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { loadConfig } from '../../src/config';
import type { Database } from '../../src/db/connect';
import { startServer } from '../../src/server';
import { seedPgliteDir } from './pglite-template';
import { TEST_ENV, TestServer } from './server';

/**
 * A database that outlives one server, for tests that stop a server and start another on the same
 * data (restart, several processes): a PostgreSQL database when TEST_DATABASE_URL is set, else a
 * PGlite directory.
 */
export interface PersistentDatabase {
  env: Record<string, string>;
  pgliteDir: string | null;
  drop(): Promise<void>;
}

export async function persistentDatabase(): Promise<PersistentDatabase> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-test-'));
    await seedPgliteDir(dir);
    return { env: {}, pgliteDir: dir, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `parley_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE "${name}"`);
  await admin.destroy();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    pgliteDir: null,
    drop: async () => {
      const again = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
      await again.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await again.destroy();
    },
  };
}

export const OWNER_PASSWORD = 'owner-password-123';

/**
 * Starts a server on the database. The first start creates the owner; later starts reuse `owner`
 * (pass the first server's). Closing the returned server leaves the database in place.
 */
export async function startOn(
  db: PersistentDatabase,
  owner: TestServer['owner'] | null,
  env: Record<string, string> = {},
  database?: Database,
): Promise<TestServer> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    PARLEY_OWNER_PASSWORD: OWNER_PASSWORD,
    PARLEY_REALM_NAME: 'Test Org',
    ...TEST_ENV,
    ...db.env,
    ...env,
  });
  const server = await startServer(config, { pgliteDir: db.pgliteDir, zuliprcDir: null, database });
  const created = server.owner;
  const theOwner =
    owner ??
    (created
      ? { id: created.userId, email: created.email, apiKey: created.apiKey, password: OWNER_PASSWORD, fullName: 'Organization Owner', role: 100 }
      : null);
  if (!theOwner) throw new Error('the database already has an owner: pass it');
  return { url: server.url, server, owner: theOwner, close: () => server.close() };
}
