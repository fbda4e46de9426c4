import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';

/**
 * Where uploaded files' bytes live, by key (an attachment's path_id). Writing is two steps so the
 * database row can be written between them: `stage` streams the bytes somewhere invisible, then
 * `commit` makes them readable under their key (or `discard` drops them). A crash before the
 * commit leaves no readable file; one after it but before the row commits leaves a file no row
 * names, never a row naming no file.
 */
export interface FileStore {
  /** Streams `source` to a staging area; the returned handle is committed or discarded. */
  stage(source: Readable): Promise<StagedFile>;
  read(key: string): Promise<StoredFile | null>;
  /** Removes the file; reading the key answers null from then on. Idempotent. */
  delete(key: string): Promise<void>;
}

export interface StagedFile {
  size: number;
  commit(key: string): Promise<void>;
  discard(): Promise<void>;
}

export interface StoredFile {
  size: number;
  open(): Readable;
}

/** Keys are path_ids; nothing outside the store's directory may be named by one. */
export function isSafeKey(key: string): boolean {
  if (key === '' || key.includes('\0') || key.includes('\\') || key.startsWith('/')) return false;
  return key.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** Files under one directory (DATA_DIR/uploads by default); staging happens in its `.staging`. */
export class LocalFileStore implements FileStore {
  private readonly staging: string;

  constructor(readonly root: string) {
    this.staging = path.join(root, '.staging');
  }

  async stage(source: Readable): Promise<StagedFile> {
    await fs.promises.mkdir(this.staging, { recursive: true });
    const temp = path.join(this.staging, crypto.randomBytes(16).toString('hex'));
    let size = 0;
    source.on('data', (chunk: Buffer) => (size += chunk.length));
    try {
      await pipeline(source, fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
    } catch (error) {
      await fs.promises.rm(temp, { force: true });
      throw error;
    }
    return {
      size,
      commit: async (key) => {
        const target = this.pathOf(key);
        await fs.promises.mkdir(path.dirname(target), { recursive: true });
        await fs.promises.rename(temp, target);
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

  private pathOf(key: string): string {
    if (!isSafeKey(key)) throw new Error('unsafe file key');
    return path.join(this.root, ...key.split('/'));
  }
}

const stores = new Map<string, FileStore>();

/** The store for a configuration (one per directory, so every request shares it). */
export function fileStore(config: { dataDir: string }): FileStore {
  const root = path.join(config.dataDir, 'uploads');
  let store = stores.get(root);
  if (!store) {
    store = new LocalFileStore(root);
    stores.set(root, store);
  }
  return store;
}
