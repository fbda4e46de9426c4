import type { Knex } from 'knex';
import type { Config } from '../../config';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import type { FileStore, ListedFile } from './storage';
import { LocalFileStore } from './storage';
import { fileStore } from './stores';

/**
 * Removing stored files no row names: what a crash leaves between storing a file and committing
 * the row that names it (an upload, an avatar, an organization image), or between deleting a row
 * and deleting its file. Only files older than a grace period are looked at, so a file stored for
 * a row not yet committed is never taken; and only keys of the shapes this server writes, so
 * anything else sharing the bucket or directory is left alone. A file's age is its modification
 * time on disk, its LastModified in S3 (for a multipart upload, when the upload began), so the
 * grace period must outlast sending the largest file to the bucket.
 */
export const DEFAULT_SWEEP_GRACE_SECONDS = 3600;
const BATCH = 500;

export interface SweepResult {
  /** Keys looked at (older than the grace period). */
  examined: number;
  /** Keys removed, as they were named in the store. */
  removed: string[];
}

type Owner =
  | { kind: 'attachment'; pathId: string }
  | { kind: 'avatar'; userId: number; version: number }
  | { kind: 'realm'; realmId: number; image: 'icon' | 'logo' | 'night_logo'; version: number };

const PATH_ID = String.raw`\d+/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/[^/]+`;
const ATTACHMENT = new RegExp(`^${PATH_ID}$`);
const THUMBNAIL = new RegExp(`^thumbnail/(${PATH_ID})/[^/]+$`);
const AVATAR = /^avatars\/(\d+)\/(\d+)(?:-medium)?\.png$/;
const REALM_IMAGE = /^realm\/(\d+)\/(icon|logo|night_logo)\/(\d+)\.png$/;

/** What row a key belongs to; null for a key this server does not write (never removed). */
export function ownerOf(key: string): Owner | null {
  if (ATTACHMENT.test(key)) return { kind: 'attachment', pathId: key };
  let match = THUMBNAIL.exec(key);
  if (match) return { kind: 'attachment', pathId: match[1] };
  match = AVATAR.exec(key);
  if (match) return { kind: 'avatar', userId: Number(match[1]), version: Number(match[2]) };
  match = REALM_IMAGE.exec(key);
  if (match) return { kind: 'realm', realmId: Number(match[1]), image: match[2] as 'icon' | 'logo' | 'night_logo', version: Number(match[3]) };
  return null;
}

const int32 = (n: number) => Number.isSafeInteger(n) && n < 2 ** 31;

/** The keys of `files` that some row still names. */
async function namedKeys(db: Knex, files: { key: string; owner: Owner }[]): Promise<Set<string>> {
  const pathIds = [...new Set(files.flatMap((f) => (f.owner.kind === 'attachment' ? [f.owner.pathId] : [])))];
  const userIds = [...new Set(files.flatMap((f) => (f.owner.kind === 'avatar' && int32(f.owner.userId) ? [f.owner.userId] : [])))];
  const realmIds = [...new Set(files.flatMap((f) => (f.owner.kind === 'realm' && int32(f.owner.realmId) ? [f.owner.realmId] : [])))];
  const attachments = new Set<string>(pathIds.length ? (await db('attachments').whereIn('path_id', pathIds).select('path_id')).map((r) => r.path_id) : []);
  const avatars = new Map<number, number>(
    userIds.length
      ? (await db('users').whereIn('id', userIds).where('avatar_source', 'U').select('id', 'avatar_version')).map((r) => [
          Number(r.id),
          Number(r.avatar_version),
        ])
      : [],
  );
  const realms = new Map<number, Record<string, unknown>>(
    realmIds.length
      ? (
          await db('realms')
            .whereIn('id', realmIds)
            .select('id', 'icon_source', 'icon_version', 'logo_source', 'logo_version', 'night_logo_source', 'night_logo_version')
        ).map((r) => [Number(r.id), r])
      : [],
  );
  const named = new Set<string>();
  for (const { key, owner } of files) {
    if (owner.kind === 'attachment' && attachments.has(owner.pathId)) named.add(key);
    if (owner.kind === 'avatar' && avatars.get(owner.userId) === owner.version) named.add(key);
    if (owner.kind === 'realm') {
      const realm = realms.get(owner.realmId);
      if (realm?.[`${owner.image}_source`] === 'U' && Number(realm[`${owner.image}_version`]) === owner.version) named.add(key);
    }
  }
  return named;
}

/** Finds and removes the orphaned files of the configured store; answers what it removed. */
export async function sweepOrphanedFiles(
  deps: { knex: Knex; config: Pick<Config, 'dataDir' | 's3'> },
  options: { graceSeconds?: number; now?: Date } = {},
): Promise<SweepResult> {
  const store = fileStore(deps.config);
  const before = new Date((options.now ?? new Date()).getTime() - (options.graceSeconds ?? DEFAULT_SWEEP_GRACE_SECONDS) * 1000);
  const result: SweepResult = { examined: 0, removed: [] };
  let batch: { key: string; owner: Owner }[] = [];
  const flush = async () => {
    const named = await namedKeys(deps.knex, batch);
    for (const { key } of batch) {
      if (named.has(key)) continue;
      await store.delete(key);
      result.removed.push(key);
    }
    batch = [];
  };
  for await (const file of oldFiles(store, before)) {
    const owner = ownerOf(file.key);
    if (!owner) continue;
    result.examined += 1;
    batch.push({ key: file.key, owner });
    if (batch.length >= BATCH) await flush();
  }
  if (batch.length > 0) await flush();
  if (store instanceof LocalFileStore) await store.pruneEmptyDirectories(before);
  return result;
}

async function* oldFiles(store: FileStore, before: Date): AsyncIterable<ListedFile> {
  for await (const file of store.list()) if (file.modified < before) yield file;
}

/** Runs the sweep every `intervalSeconds` (0: never); returns the function that stops it. */
export function startUploadSweep(deps: { knex: Knex; config: Pick<Config, 'dataDir' | 's3'> }, intervalSeconds: number, graceSeconds: number): () => void {
  if (intervalSeconds <= 0) return () => {};
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    sweepOrphanedFiles(deps, { graceSeconds })
      .then(({ removed }) => {
        if (removed.length > 0) log().info(`upload sweep: removed ${removed.length} orphaned file(s)`);
      })
      .catch((error) => log().error(`upload sweep failed: ${describeFailure(error)}`))
      .finally(() => (running = false));
  }, intervalSeconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}
