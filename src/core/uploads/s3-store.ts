import fs from 'node:fs';
import { PassThrough, Readable, pipeline } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Config } from '../../config';
import { log } from '../../log';
import { DiskStaging, FileStore, FileStoreUnavailableError, isSafeKey, ListedFile, StagedFile, StoredFile } from './storage';
import { storeUnavailable } from './store-errors';

const MIB = 1024 * 1024;
/** Parts of a multipart upload: 8 MiB, two in flight, so one upload holds at most 16 MiB. */
const PART_SIZE = 8 * MIB;
const PARTS_IN_FLIGHT = 2;
/** How long the start-up check waits for the bucket's answer (retries included). */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * Files in an S3 (or S3-compatible) bucket, under the same keys as on disk.
 *
 * Staging: an upload is received into a local temporary file (under DATA_DIR) and sent to the
 * bucket under its final key only at commit. S3 has no rename, so staging in the bucket would mean
 * copy + delete at every commit (twice the writes, a multipart copy past 5 GiB) and a crash would
 * leave staged objects that only a lifecycle rule clears. This way a refused or abandoned upload
 * never reaches the bucket, and since an object appears whole when its PUT (or multipart
 * completion) succeeds, the key is never readable half-written. The row is written after the
 * commit, so no row names a missing object; a crash between the two leaves an object no row
 * names, which nothing serves.
 */
export class S3FileStore implements FileStore {
  readonly client: S3Client;
  private readonly staging: DiskStaging;

  constructor(
    readonly config: S3Config,
    stagingDir: string,
  ) {
    this.staging = new DiskStaging(stagingDir);
    this.client = new S3Client({
      region: config.region,
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
      // Only these: never credentials from the machine's environment or metadata service.
      credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey },
      // Self-hosted S3-compatible stores often reject the optional checksums Amazon accepts.
      ...(config.endpoint ? ({ requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } as const) : {}),
      requestHandler: { connectionTimeout: 10_000, requestTimeout: 120_000 },
      maxAttempts: 3,
    });
  }

  private describe(): string {
    return `the S3 bucket "${this.config.bucket}" ${this.config.endpoint ? `at ${this.config.endpoint}` : `in ${this.config.region}`}`;
  }

  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.config.bucket }), { abortSignal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
    } catch (error) {
      throw new FileStoreUnavailableError(`Cannot use ${this.describe()}: ${whyRefused(error)}`);
    }
    await this.staging.sweep();
  }

  async stage(source: Readable): Promise<StagedFile> {
    const { file, size } = await this.staging.write(source);
    const discard = () => fs.promises.rm(file, { force: true });
    return {
      size,
      commit: async (key) => {
        if (!isSafeKey(key)) throw new Error('unsafe file key');
        // Streams the file in parts (one PUT when it is small); on failure the temporary file
        // stays for `discard`.
        const upload = new Upload({
          client: this.client,
          params: { Bucket: this.config.bucket, Key: key, Body: fs.createReadStream(file) },
          partSize: PART_SIZE,
          queueSize: PARTS_IN_FLIGHT,
        });
        try {
          await upload.done();
        } catch (error) {
          // A multipart upload that fails is aborted by lib-storage; a single PUT that fails left
          // nothing readable. Either way the caller discards, and no row is written.
          throw this.unavailable('storing a file', error);
        }
        await discard();
      },
      discard,
    };
  }

  async read(key: string): Promise<StoredFile | null> {
    if (!isSafeKey(key)) return null;
    let size: number;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }));
      size = head.ContentLength ?? 0;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw this.unavailable('reading a file', error);
    }
    return { size, open: () => this.body(key) };
  }

  async delete(key: string): Promise<void> {
    if (!isSafeKey(key)) return;
    // Answers success for a key that is already gone, so this is idempotent.
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
    } catch (error) {
      throw this.unavailable('deleting a file', error);
    }
  }

  async *list(): AsyncIterable<ListedFile> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.config.bucket, ContinuationToken: token }));
      for (const item of page.Contents ?? []) if (item.Key && item.LastModified) yield { key: item.Key, modified: item.LastModified };
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  /** The operator hears why (in the log); the request is answered 503 with Retry-After. */
  private unavailable(doing: string, error: unknown) {
    log().warn(`file store: ${doing} failed: ${whyRefused(error)}`);
    return storeUnavailable();
  }

  /**
   * The object's bytes, fetched when asked for (a HEAD request never opens them) and passed on
   * as they arrive. Destroying the stream (the client went away) releases the connection.
   */
  private body(key: string): Readable {
    const out = new PassThrough();
    const abort = new AbortController();
    let started = false;
    out.on('close', () => {
      if (!started) abort.abort();
    });
    void this.client.send(new GetObjectCommand({ Bucket: this.config.bucket, Key: key }), { abortSignal: abort.signal }).then(
      (answer) => {
        started = true;
        const body = answer.Body as Readable;
        if (out.destroyed) body.destroy();
        else pipeline(body, out, () => undefined);
      },
      (error: Error) => out.destroy(error),
    );
    return out;
  }
}

function statusOf(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** The reason an operator can act on, without credentials. */
function whyRefused(error: unknown): string {
  const status = statusOf(error);
  if (status === 404) return 'the bucket does not exist. Create it, or check PARLEY_S3_BUCKET.';
  if (status === 403 || status === 401)
    return `access was refused (${status}). Check PARLEY_S3_ACCESS_KEY_ID, PARLEY_S3_SECRET_ACCESS_KEY and the key's permissions on the bucket.`;
  if (status === 301 || status === 307) return 'the bucket is in another region. Check PARLEY_S3_REGION.';
  if (status !== undefined) return `the service answered ${status}.`;
  const code = (error as { code?: unknown })?.code;
  // A socket error the SDK had to wrap keeps its code only in the message.
  const inMessage = /\b(E[A-Z]{3,})\b/.exec(String((error as { message?: unknown })?.message ?? ''))?.[1];
  const name = (error as { name?: unknown })?.name;
  const what = typeof code === 'string' ? code : (inMessage ?? (typeof name === 'string' ? name : 'error'));
  return `it cannot be reached (${what}). Check PARLEY_S3_ENDPOINT and that the service is running.`;
}
