import crypto from 'node:crypto';
import knexFactory, { Knex } from 'knex';
import pg from 'pg';
import { migrateLatest } from '../../src/db/migrate';
import { migrationsHash } from './migrations-hash';

/**
 * Test databases on PostgreSQL: one database per test server, dropped again when it closes. A
 * migrated one is cloned from a template database made once per set of migrations (CREATE
 * DATABASE ... TEMPLATE copies files, far cheaper than running the migrations again).
 */
export interface PostgresDatabase {
  url: string;
  drop: () => Promise<void>;
}

const adminKnex = (url: string): Knex => knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 1 } });

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** An empty database, or (`migrated`) one holding the current schema. */
export async function freshPostgresDatabase(adminUrl: string, { migrated = false } = {}): Promise<PostgresDatabase> {
  const name = `parley_test_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
  const template = migrated ? await migratedTemplate(adminUrl) : null;
  const admin = adminKnex(adminUrl);
  try {
    await admin.raw(template ? `CREATE DATABASE "${name}" TEMPLATE "${template}"` : `CREATE DATABASE "${name}"`);
  } finally {
    await admin.destroy();
  }
  return {
    url: databaseUrl(adminUrl, name),
    drop: async () => {
      const again = adminKnex(adminUrl);
      try {
        await again.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await again.destroy();
      }
    },
  };
}

let templateName: Promise<string> | null = null;

function migratedTemplate(adminUrl: string): Promise<string> {
  templateName ??= makeTemplate(adminUrl).catch((error) => {
    templateName = null;
    throw error;
  });
  return templateName;
}

/**
 * Test workers race to make the template: an advisory lock lets one of them build it, under a
 * temporary name renamed once migrated, so no worker ever clones half a schema.
 */
async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `parley_template_${migrationsHash()}`;
  // One session: the advisory lock is held by the connection that took it.
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (exists.rows.length === 0) {
      const building = `${name}_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
      await admin.query(`CREATE DATABASE "${building}"`);
      const db = adminKnex(databaseUrl(adminUrl, building));
      try {
        await migrateLatest(db);
      } finally {
        await db.destroy();
      }
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${name}"`);
    }
  } finally {
    await admin.end();
  }
  return name;
}
