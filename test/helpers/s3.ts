import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/**
 * A real S3-compatible server (s3rver) on loopback, keeping its objects in a temporary directory,
 * with one bucket. It knows one key pair, s3rver's built-in one, and refuses other access key ids
 * (it does not check version 4 signatures).
 */
export interface TestBucket {
  endpoint: string;
  bucket: string;
  /** The server environment that puts uploads in this bucket. */
  env: Record<string, string>;
  /** A client of its own, to look into the bucket behind the server's back. */
  client: S3Client;
  /** Every object key in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** An object's bytes, or null when there is none under the key. */
  read(key: string): Promise<Buffer | null>;
  close(): Promise<void>;
}

export const S3RVER_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3Server(bucket = 'parley-test'): Promise<TestBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials: S3RVER_KEY });
  return {
    endpoint,
    bucket,
    env: {
      PARLEY_S3_BUCKET: bucket,
      PARLEY_S3_ENDPOINT: endpoint,
      PARLEY_S3_ACCESS_KEY_ID: S3RVER_KEY.accessKeyId,
      PARLEY_S3_SECRET_ACCESS_KEY: S3RVER_KEY.secretAccessKey,
      PARLEY_S3_FORCE_PATH_STYLE: 'true',
    },
    client,
    keys: async () => {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, ContinuationToken: token }));
        for (const item of page.Contents ?? []) keys.push(item.Key!);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys.sort();
    },
    read: async (key) => {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
        return Buffer.from(await answer.Body!.transformToByteArray());
      } catch (error) {
        if ((error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return null;
        throw error;
      }
    },
    close: async () => {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
