import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiResponse, basicAuth, TEST_USER_AGENT } from '../helpers/api';
import type { TestServer, TestUser } from '../helpers/server';
import { startS3Server } from '../helpers/s3';

/** A fresh DATA_DIR for a test server, so uploaded files can be looked for on disk. */
export function tempDataDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'parley-uploads-'));
}

export interface FilePart {
  name: string;
  data: Buffer | string;
  type?: string;
}

/** POST /api/v1/user_uploads with the files as multipart parts (Zulip's clients send one). */
export function upload(ts: TestServer, who: TestUser | null, files: FilePart[], field = 'file'): Promise<ApiResponse> {
  return postFiles(ts, who, '/user_uploads', files, field);
}

/** A multipart POST of files to an /api/v1 path. */
export async function postFiles(ts: TestServer, who: TestUser | null, apiPath: string, files: FilePart[], field = 'file'): Promise<ApiResponse> {
  const form = new FormData();
  files.forEach((file, i) => form.append(files.length > 1 ? `${field}${i}` : field, new Blob([file.data], { type: file.type ?? '' }), file.name));
  const headers: Record<string, string> = { 'user-agent': TEST_USER_AGENT };
  if (who) headers.authorization = basicAuth(who);
  const res = await fetch(`${ts.url}/api/v1${apiPath}`, { method: 'POST', headers, body: form });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

/** GET of a file URL (relative to the server), with the user's Basic credentials when given. */
export async function download(ts: TestServer, url: string, who: TestUser | null = null, method = 'GET'): Promise<Response> {
  const headers: Record<string, string> = {};
  if (who) headers.authorization = basicAuth(who);
  return fetch(`${ts.url}${url}`, { method, headers });
}

export function pathIdOf(url: string): string {
  return url
    .replace(/^\/user_uploads\//, '')
    .split('/')
    .map(decodeURIComponent)
    .join('/');
}

/** Files under the store's directory, staging included (relative paths). */
export function storedFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'uploads');
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile()).sort();
}

/**
 * A file store for a test server, and a look behind the server's back at what it holds: the keys
 * stored, plus uploads still staged (as `.staging/...`).
 */
export interface UploadBackend {
  name: 'local' | 's3';
  dataDir: string;
  /** The server environment using this store. */
  env: Record<string, string>;
  storedFiles(): Promise<string[]>;
  /** A stored file's bytes, or null when the key holds none. */
  read(key: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

/** Files under a fresh DATA_DIR/uploads. */
export function localBackend(): UploadBackend {
  const dataDir = tempDataDir();
  return {
    name: 'local',
    dataDir,
    env: { DATA_DIR: dataDir },
    storedFiles: async () => storedFiles(dataDir),
    read: async (key) => {
      const file = path.join(dataDir, 'uploads', ...key.split('/'));
      return fs.existsSync(file) ? fs.readFileSync(file) : null;
    },
    close: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** Files in a bucket of an S3-compatible server started for the test; staged under DATA_DIR. */
export async function s3Backend(): Promise<UploadBackend> {
  const dataDir = tempDataDir();
  const bucket = await startS3Server();
  const staging = path.join(dataDir, 'upload-staging');
  return {
    name: 's3',
    dataDir,
    env: { DATA_DIR: dataDir, ...bucket.env },
    storedFiles: async () => {
      const staged = fs.existsSync(staging) ? fs.readdirSync(staging).map((f) => `.staging/${f}`) : [];
      return [...staged, ...(await bucket.keys())].sort();
    },
    read: (key) => bucket.read(key),
    close: async () => {
      await bucket.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
