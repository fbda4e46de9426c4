import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { signatureError } from './s3-signatures';

/**
 * A real S3-compatible server (s3rver) on loopback, keeping its objects in a temporary directory,
 * with one bucket, behind a front that checks every request's version 4 signature against a key
 * pair made for it, as S3 does (s3rver itself checks only the access key id). A client signing
 * with another secret is refused with 403 SignatureDoesNotMatch.
 *
 * `cutOff(true)` makes the front drop every connection, open or new, without an answer: the
 * service becomes unreachable mid-request, as when its host goes away.
 */
export interface TestBucket {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The server environment that puts uploads in this bucket. */
  env: Record<string, string>;
  /** A client of its own, to look into the bucket behind the server's back. */
  client: S3Client;
  /** Every object key in the bucket, sorted. */
  keys(): Promise<string[]>;
  /** An object's bytes, or null when there is none under the key. */
  read(key: string): Promise<Buffer | null>;
  /** Drops every connection (and every later one) while on. */
  cutOff(on: boolean): void;
  /** Requests refused for their signature so far. */
  refused: number;
  close(): Promise<void>;
}

interface S3rverAccount {
  createKeyPair(accessKeyId: string, secretAccessKey: string): void;
  revokeAccessKey(accessKeyId: string): void;
}
const { DUMMY_ACCOUNT } = require('s3rver/lib/models/account') as { DUMMY_ACCOUNT: S3rverAccount };

export async function startS3Server(bucket = 'parley-test'): Promise<TestBucket> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-s3-'));
  const credentials = {
    accessKeyId: `PARLEY${crypto.randomBytes(6).toString('hex').toUpperCase()}`,
    secretAccessKey: crypto.randomBytes(20).toString('base64url'),
  };
  // s3rver's key registry is process-wide; it must know the key id to serve the request.
  DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, 'checked-by-the-front');
  const s3rver = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const backend = await s3rver.run();

  const sockets = new Set<net.Socket>();
  let cut = false;
  const state = { refused: 0 };
  const front = http.createServer((req, res) => {
    if (cut) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (cut) {
        req.socket.destroy();
        return;
      }
      const body = Buffer.concat(chunks);
      const refusal = signatureError(req, body, credentials);
      if (refusal) {
        state.refused += 1;
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal}</Code><Message>Refused.</Message></Error>`);
        return;
      }
      const forward = http.request(
        { host: '127.0.0.1', port: backend.port, method: req.method, path: req.url, headers: { ...req.headers, 'content-length': String(body.length) } },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => req.socket.destroy());
      forward.end(body);
    });
  });
  front.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(front.address() as net.AddressInfo).port}`;
  const client = new S3Client({ region: 'us-east-1', endpoint, forcePathStyle: true, credentials });
  return {
    endpoint,
    bucket,
    credentials,
    env: {
      PARLEY_S3_BUCKET: bucket,
      PARLEY_S3_ENDPOINT: endpoint,
      PARLEY_S3_ACCESS_KEY_ID: credentials.accessKeyId,
      PARLEY_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
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
    cutOff: (on) => {
      cut = on;
      if (on) for (const socket of sockets) socket.destroy();
    },
    get refused() {
      return state.refused;
    },
    close: async () => {
      client.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => front.close(resolve));
      await s3rver.close();
      DUMMY_ACCOUNT.revokeAccessKey(credentials.accessKeyId);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
