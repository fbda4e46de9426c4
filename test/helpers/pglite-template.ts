import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/connect';
import { migrateLatest } from '../../src/db/migrate';
import { migrationsHash } from './migrations-hash';

/**
 * A migrated PGlite database, dumped once and shared by every test server that starts on PGlite:
 * loading the dump takes a fraction of creating a database and migrating it. The dump is kept in
 * the temporary directory under a name taken from the migrations' sources, so a changed migration
 * makes a new one; test workers that race to make it each write their own and rename it in place.
 */
function templateFile(): string {
  return path.join(os.tmpdir(), `parley-test-pglite-${migrationsHash()}.tar.gz`);
}

let cached: Promise<Blob> | null = null;

export function pgliteTemplate(): Promise<Blob> {
  cached ??= load().catch((error) => {
    cached = null;
    throw error;
  });
  return cached;
}

async function load(): Promise<Blob> {
  const file = templateFile();
  if (!fs.existsSync(file)) {
    const db = await openDatabase({ url: null, pgliteDir: null });
    try {
      await migrateLatest(db.knex);
      const dump = Buffer.from(await (await db.dumpDataDir!()).arrayBuffer());
      const partial = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
      fs.writeFileSync(partial, dump);
      fs.renameSync(partial, file);
    } finally {
      await db.close();
    }
  }
  return new Blob([fs.readFileSync(file)]);
}

/** Fills a new PGlite directory with the migrated template. */
export async function seedPgliteDir(dir: string): Promise<void> {
  const db = await openDatabase({ url: null, pgliteDir: dir, loadDataDir: await pgliteTemplate() });
  await db.close();
}
