import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import type { Config } from '../config';
import { embeddedDatabaseDir } from '../config';
import type { Database } from '../db/connect';
import { lockDatabaseDir } from '../db/lock';
import { describeDatabaseUrl } from '../startup-errors';
import { PARLEY_VERSION } from '../version';
import { CommandError, Out } from './types';
import type { Progress } from './progress';

/**
 * A backup is one gzipped tar: `parley-backup.json` (what it holds), the database (PGlite's data
 * directory dump, or pg_dump's custom format for PostgreSQL) and DATA_DIR/uploads when it exists.
 */
const MANIFEST = 'parley-backup.json';
const PGLITE_FILE = 'database/pgdata.tar.gz';
const POSTGRES_FILE = 'database/postgres.dump';

interface Manifest {
  format: 1;
  parleyVersion: string;
  created: string;
  database: 'pglite' | 'postgres';
  uploads: boolean;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'], env });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('error', (error) => reject(new CommandError(`could not run ${command}: ${error.message}`)));
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new CommandError(`${command} failed (exit code ${code}): ${stderr.trim().split('\n').slice(-3).join(' ')}`)),
    );
  });
}

/** pg_dump and pg_restore take the URL with its password; the password goes in the environment. */
function libpqArgs(url: string): { target: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const env = { ...process.env };
  if (parsed.password) env.PGPASSWORD = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { target: parsed.toString(), env };
}

const countFiles = (dir: string): number =>
  fs.readdirSync(dir, { withFileTypes: true }).reduce((n, entry) => n + (entry.isDirectory() ? countFiles(path.join(dir, entry.name)) : 1), 0);

/** Writes a consistent snapshot of the database and the uploads to `file`. */
export async function writeBackup(db: Database, config: Config, file: string, out: Out, progress: Progress): Promise<void> {
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-backup-'));
  try {
    fs.mkdirSync(path.join(staging, 'database'));
    progress(0.05, 'dumping the database');
    if (db.kind === 'pglite') {
      if (!db.dumpDataDir) throw new CommandError('this database cannot be dumped');
      const dump = await db.dumpDataDir();
      fs.writeFileSync(path.join(staging, PGLITE_FILE), Buffer.from(await dump.arrayBuffer()));
    } else {
      if (!config.databaseUrl) throw new CommandError('DATABASE_URL is not set');
      const { target, env } = libpqArgs(config.databaseUrl);
      // One transaction snapshot: consistent while the server keeps writing.
      await run('pg_dump', ['--format=custom', '--no-owner', '--file', path.join(staging, POSTGRES_FILE), target], env);
    }
    const uploadsDir = path.join(config.dataDir, 'uploads');
    // Files kept in an S3 bucket are backed up with the bucket (versioning, replication).
    const uploads = !config.s3 && fs.existsSync(uploadsDir);
    if (uploads) fs.symlinkSync(uploadsDir, path.join(staging, 'uploads'));
    const manifest: Manifest = { format: 1, parleyVersion: PARLEY_VERSION, created: new Date().toISOString(), database: db.kind, uploads };
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    progress(0.5, 'writing the archive');
    const total = 2 + (uploads ? countFiles(uploadsDir) : 0);
    let written = 0;
    const partial = `${file}.partial`;
    await tar.c(
      {
        gzip: true,
        file: partial,
        cwd: staging,
        follow: true,
        portable: true,
        onWriteEntry: () => {
          written += 1;
          progress(0.5 + 0.5 * Math.min(1, written / total), 'writing the archive');
        },
      },
      [MANIFEST, 'database', ...(uploads ? ['uploads'] : [])],
    );
    fs.renameSync(partial, file);
    progress(1, 'done');
    const size = fs.statSync(file).size;
    out(
      `Backed up the ${db.kind === 'pglite' ? 'embedded database' : `PostgreSQL database at ${describeDatabaseUrl(config.databaseUrl!)}`}${uploads ? ' and uploads' : ''} to ${file} (${(size / 1024 / 1024).toFixed(1)} MiB).`,
    );
    if (config.s3) out(`Uploaded files are in the S3 bucket "${config.s3.bucket}" and not in the backup.`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function isEmptyDir(dir: string): boolean {
  return !fs.existsSync(dir) || fs.readdirSync(dir).length === 0;
}

/** Restores a backup into this configuration's database (empty) and DATA_DIR/uploads; the server must be stopped. */
export async function restoreBackup(config: Config, file: string, out: Out, progress: Progress): Promise<void> {
  if (!fs.existsSync(file)) throw new CommandError(`No such file: ${file}`);
  const staging = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-restore-'));
  try {
    progress(0.05, 'reading the archive');
    try {
      await tar.x({ file, cwd: staging, strict: true });
    } catch (error) {
      throw new CommandError(`${file} is not a Parley backup (${(error as Error).message})`);
    }
    const manifestFile = path.join(staging, MANIFEST);
    if (!fs.existsSync(manifestFile)) throw new CommandError(`${file} is not a Parley backup (no ${MANIFEST})`);
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
    const target = config.databaseUrl ? 'postgres' : 'pglite';
    if (manifest.database !== target) {
      throw new CommandError(
        `this backup holds ${manifest.database === 'pglite' ? 'an embedded (PGlite)' : 'a PostgreSQL'} database; restore it with ${manifest.database === 'pglite' ? 'DATABASE_URL unset' : 'DATABASE_URL set'}`,
      );
    }
    const uploadsDir = path.join(config.dataDir, 'uploads');
    if (manifest.uploads && !isEmptyDir(uploadsDir)) throw new CommandError(`${uploadsDir} is not empty; restore into an empty DATA_DIR`);
    progress(0.3, 'restoring the database');
    if (target === 'pglite') {
      const dir = embeddedDatabaseDir(config)!;
      if (!isEmptyDir(dir)) throw new CommandError(`${dir} is not empty; restore into an empty DATA_DIR`);
      fs.mkdirSync(dir, { recursive: true });
      const unlock = lockDatabaseDir(dir);
      try {
        const { PGlite } = await import('@electric-sql/pglite');
        const dump = new Blob([fs.readFileSync(path.join(staging, PGLITE_FILE))]);
        const pglite = new PGlite(path.resolve(dir), { loadDataDir: dump });
        await pglite.waitReady;
        await pglite.close();
      } finally {
        unlock();
      }
    } else {
      const { target: url, env } = libpqArgs(config.databaseUrl!);
      // Into an empty database: objects that exist already would make the restore fail half-way.
      await run('pg_restore', ['--no-owner', '--exit-on-error', '--single-transaction', '--dbname', url, path.join(staging, POSTGRES_FILE)], env);
    }
    if (manifest.uploads) {
      progress(0.8, 'restoring uploads');
      fs.mkdirSync(uploadsDir, { recursive: true });
      fs.cpSync(path.join(staging, 'uploads'), uploadsDir, { recursive: true });
    }
    progress(1, 'done');
    out(`Restored the backup of ${manifest.created} (Parley ${manifest.parleyVersion})${manifest.uploads ? ' with its uploads' : ''}.`);
    if (manifest.uploads && config.s3) out(`Its uploads went to ${uploadsDir}; copy them into the S3 bucket "${config.s3.bucket}" under the same keys.`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
