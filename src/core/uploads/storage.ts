import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { asStorageError } from './store-errors';

/**
 * Where uploaded files' bytes live, by key (an attachment's path_id). Writing is two steps so the
 * database row can be written between them: `stage` streams the bytes somewhere invisible, then
 * `commit` makes them readable under their key (or `discard` drops them). A crash before the
 * commit leaves no readable file; one after it but before the row commits leaves a file no row
 * names, never a row naming no file.
 */
export interface FileStore {
  /**
   * Streams `source` to a staging area; the returned handle is committed or discarded. A full
   * disk fails with the API's 507 error (store-errors.ts), nothing left behind.
   */
  stage(source: Readable): Promise<StagedFile>;
  read(key: string): Promise<StoredFile | null>;
  /** Removes the file; reading the key answers null from then on. Idempotent. */
  delete(key: string): Promise<void>;
  /** At start-up: throws FileStoreUnavailableError when the store cannot be used; tidies staging. */
  check(): Promise<void>;
  /** Every stored key with the time it was written, in no particular order (staging excluded). */
  list(): AsyncIterable<ListedFile>;
}

export interface ListedFile {
  key: string;
  modified: Date;
}

export interface StagedFile {
  size: number;
  commit(key: string): Promise<void>;
  discard(): Promise<void>;
}

export interface StoredFile {
  size: number;
  /** The bytes, read as they are consumed; destroying the stream releases whatever it holds. */
  open(): Readable;
}

/** The configured store cannot be used (unreachable, refused, missing); the message says why. */
export class FileStoreUnavailableError extends Error {}

/** Keys are path_ids; nothing outside the store's directory may be named by one. */
export function isSafeKey(key: string): boolean {
  if (key === '' || key.includes('\0') || key.includes('\\') || key.startsWith('/')) return false;
  return key.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Staged files older than this are left over from a process that stopped mid-upload. */
const ABANDONED_MS = 24 * 3600 * 1000;

/** Temporary files in one directory, where both stores put an upload while it arrives. */
export class DiskStaging {
  constructor(readonly dir: string) {}

  /** Streams `source` to a new file; on failure nothing is left (a full disk: the API's 507). */
  async write(source: Readable): Promise<{ file: string; size: number }> {
    await fs.promises.mkdir(this.dir, { recursive: true }).catch((error: unknown) => {
      throw asStorageError(error);
    });
    const file = path.join(this.dir, crypto.randomBytes(16).toString('hex'));
    let size = 0;
    source.on('data', (chunk: Buffer) => (size += chunk.length));
    try {
      await pipeline(source, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await fs.promises.rm(file, { force: true });
      throw asStorageError(error);
    }
    return { file, size };
  }

  /**
   * Removes what a crashed process left. Only old files: another process sharing the directory
   * may be receiving the newer ones.
   */
  async sweep(now = Date.now()): Promise<void> {
    let names: string[];
    try {
      names = await fs.promises.readdir(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const file = path.join(this.dir, name);
      const stat = await fs.promises.stat(file).catch(() => null);
      if (stat?.isFile() && now - stat.mtimeMs > ABANDONED_MS) await fs.promises.rm(file, { force: true });
    }
  }
}

/** Files under one directory (DATA_DIR/uploads by default); staging happens in its `.staging`. */
export class LocalFileStore implements FileStore {
  private readonly staging: DiskStaging;

  constructor(readonly root: string) {
    this.staging = new DiskStaging(path.join(root, '.staging'));
  }

  async check(): Promise<void> {
    await this.staging.sweep();
  }

  async stage(source: Readable): Promise<StagedFile> {
    const { file: temp, size } = await this.staging.write(source);
    return {
      size,
      commit: async (key) => {
        const target = this.pathOf(key);
        try {
          await fs.promises.mkdir(path.dirname(target), { recursive: true });
          await fs.promises.rename(temp, target);
        } catch (error) {
          throw asStorageError(error);
        }
      },
      discard: () => fs.promises.rm(temp, { force: true }),
    };
  }

  async read(key: string): Promise<StoredFile | null> {
    if (!isSafeKey(key)) return null;
    const file = this.pathOf(key);
    try {
      const stat = await fs.promises.stat(file);
      if (!stat.isFile()) return null;
      return { size: stat.size, open: () => fs.createReadStream(file) };
    } catch {
      return null;
    }
  }

  async delete(key: string): Promise<void> {
    if (!isSafeKey(key)) return;
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<ListedFile> {
    yield* this.walk(this.root, []);
  }

  private async *walk(dir: string, prefix: string[]): AsyncIterable<ListedFile> {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      // Staging has a sweep of its own, which knows the files there are not stored ones.
      if (prefix.length === 0 && entry.name === '.staging') continue;
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) yield* this.walk(file, [...prefix, entry.name]);
      else if (entry.isFile()) {
        const stat = await fs.promises.stat(file).catch(() => null);
        if (stat) yield { key: [...prefix, entry.name].join('/'), modified: stat.mtime };
      }
    }
  }

  /**
   * Removes the empty directories last changed before `before` (deleted files leave them behind).
   * A younger one may be one an upload has just made for the file it is about to move in.
   */
  async pruneEmptyDirectories(before: Date, dir = this.root): Promise<boolean> {
    const entries = await fs.promises.readdir(dir, { withFileTypes: true }).catch(() => null);
    if (!entries) return false;
    let empty = true;
    for (const entry of entries) {
      const skip = dir === this.root && entry.name === '.staging';
      if (!skip && entry.isDirectory() && (await this.pruneEmptyDirectories(before, path.join(dir, entry.name)))) continue;
      empty = false;
    }
    if (!empty || dir === this.root) return false;
    const stat = await fs.promises.stat(dir).catch(() => null);
    if (!stat || stat.mtime >= before) return false;
    return fs.promises.rmdir(dir).then(
      () => true,
      () => false,
    );
  }

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error('unsafe file key');
    return path.join(this.root, ...key.split('/'));
  }
}
