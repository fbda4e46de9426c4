import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const migrationsDir = path.resolve(__dirname, '../../migrations');

/**
 * A name for the migrated schema, taken from the migrations' sources: a changed migration makes a
 * new template (PGlite dump or PostgreSQL template database) instead of reusing a stale one.
 */
export function migrationsHash(): string {
  const hash = crypto.createHash('sha256');
  for (const name of fs.readdirSync(migrationsDir).sort()) {
    hash.update(name);
    hash.update(fs.readFileSync(path.join(migrationsDir, name)));
  }
  return hash.digest('hex').slice(0, 16);
}
