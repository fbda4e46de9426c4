import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { loadConfig } from '../../src/config';
import { FileStoreUnavailableError } from '../../src/core/uploads/storage';
import { fileStore } from '../../src/core/uploads/stores';
import { startServer } from '../../src/server';
import { EXIT_FILE_STORE_UNAVAILABLE, startupFailure } from '../../src/startup-errors';
import { assertError, assertSuccess, client } from '../helpers/api';
import { freePort } from '../helpers/ports';
import { startS3Server, TestBucket } from '../helpers/s3';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { download, pathIdOf, postFiles, tempDataDir, upload } from './files';

/**
 * Files in an S3 bucket (PARLEY_S3_*), against a real S3-compatible server on loopback: what the
 * server stores is looked for in the bucket itself, and what it serves is fetched through
 * Zulip's routes. The upload suite also runs on this store (uploads-s3.test.ts).
 */
let bucket: TestBucket;
let dataDir: string;
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
const MIB = 1024 * 1024;

beforeAll(async () => {
  bucket = await startS3Server();
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, ...bucket.env, PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '12' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await bucket?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const stagingDir = () => path.join(dataDir, 'upload-staging');
const staged = () => (fs.existsSync(stagingDir()) ? fs.readdirSync(stagingDir()) : []);
const sha256 = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

async function attachmentId(who: TestUser, url: string): Promise<number> {
  const { attachments } = assertSuccess(await client(ts, who).get('/attachments'));
  return attachments.find((a: { path_id: string }) => a.path_id === pathIdOf(url)).id;
}

describe('uploaded files', () => {
  test('go into the bucket under their path_id, nothing under DATA_DIR, and are served from it', async () => {
    const body = assertSuccess(await upload(ts, alice, [{ name: 'notes.txt', data: 'kept in S3', type: 'text/plain' }]));
    expect((await bucket.read(pathIdOf(body.url)))?.toString()).toBe('kept in S3');
    expect(fs.existsSync(path.join(dataDir, 'uploads'))).toBe(false);
    expect(staged()).toEqual([]);

    const got = await download(ts, body.url, alice);
    expect(got.status).toBe(200);
    expect(got.headers.get('content-type')).toBe('text/plain');
    expect(got.headers.get('content-length')).toBe('10');
    expect(await got.text()).toBe('kept in S3');
    const head = await download(ts, body.url, alice, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');
    expect(await head.text()).toBe('');

    const temporary = assertSuccess(await client(ts, alice).get(body.url)).url;
    expect(await (await download(ts, temporary)).text()).toBe('kept in S3');
    expect((await download(ts, body.url, bob)).status).toBe(403);
  });

  test('a file larger than one part goes up in parts and comes back intact', async () => {
    const data = crypto.randomBytes(9 * MIB + 123);
    const body = assertSuccess(await upload(ts, alice, [{ name: 'big.bin', data }]));
    expect(sha256((await bucket.read(pathIdOf(body.url)))!)).toBe(sha256(data));
    const got = await download(ts, body.url, alice);
    expect(got.headers.get('content-length')).toBe(String(data.length));
    expect(sha256(Buffer.from(await got.arrayBuffer()))).toBe(sha256(data));
    expect(staged()).toEqual([]);
  });

  test('a file over the size limit is refused and reaches neither the bucket nor staging', async () => {
    const before = await bucket.keys();
    const res = await upload(ts, alice, [{ name: 'huge.bin', data: Buffer.alloc(12 * MIB + 1) }]);
    assertError(res, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 12 MiB');
    expect(await bucket.keys()).toEqual(before);
    expect(staged()).toEqual([]);
  });

  test('deleting the attachment deletes the object: nothing readable, through the server or in the bucket', async () => {
    const { url } = assertSuccess(await upload(ts, alice, [{ name: 'secret.txt', data: 'short-lived', type: 'text/plain' }]));
    const temporary = assertSuccess(await client(ts, alice).get(url)).url;
    expect(await bucket.read(pathIdOf(url))).not.toBeNull();
    assertSuccess(await client(ts, alice).delete(`/attachments/${await attachmentId(alice, url)}`));
    expect((await download(ts, url, alice)).status).toBe(404);
    expect((await download(ts, temporary)).status).toBe(404);
    expect(await bucket.read(pathIdOf(url))).toBeNull();
    expect((await bucket.keys()).includes(pathIdOf(url))).toBe(false);
  });

  test('deleting the only message linking a file deletes its object', async () => {
    const { url } = assertSuccess(await upload(ts, bob, [{ name: 'linked.txt', data: 'linked', type: 'text/plain' }]));
    const { id } = assertSuccess(await client(ts, bob).post('/messages', { type: 'direct', to: [alice.id], content: `[linked](${url})` }));
    assertSuccess(await client(ts, bob).delete(`/messages/${id}`));
    // The object goes once the deletion has committed.
    for (let i = 0; i < 50 && (await bucket.read(pathIdOf(url))) !== null; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await bucket.read(pathIdOf(url))).toBeNull();
  });
});

describe('a bucket unreachable mid-request', () => {
  test('an upload is refused with 503 and Retry-After, nothing recorded or staged; once back, uploads work again', async () => {
    const before = assertSuccess(await client(ts, alice).get('/attachments')).attachments;
    const earlier = assertSuccess(await upload(ts, alice, [{ name: 'earlier.txt', data: 'stored before', type: 'text/plain' }]));
    const keys = await bucket.keys();
    bucket.cutOff(true);
    try {
      const res = await upload(ts, alice, [{ name: 'dropped.txt', data: 'never stored', type: 'text/plain' }]);
      assertError(res, 'STORAGE_UNAVAILABLE', 'The file storage is temporarily unavailable. Please try again shortly.', 503);
      expect(res.headers.get('retry-after')).toBe('30');
      // Reading a stored file meets the same answer, not a failure of the server.
      const got = await download(ts, earlier.url, alice);
      expect(got.status).toBe(503);
      expect(got.headers.get('retry-after')).toBe('30');
      // Everything that does not need the bucket goes on.
      assertSuccess(await client(ts, alice).get('/users/me'));
    } finally {
      bucket.cutOff(false);
    }
    const after = assertSuccess(await client(ts, alice).get('/attachments')).attachments;
    expect(after.map((a: { name: string }) => a.name)).toEqual([...before.map((a: { name: string }) => a.name), 'earlier.txt']);
    expect(await bucket.keys()).toEqual(keys);
    expect(staged()).toEqual([]);
    const again = assertSuccess(await upload(ts, alice, [{ name: 'later.txt', data: 'stored after', type: 'text/plain' }]));
    expect((await bucket.read(pathIdOf(again.url)))?.toString()).toBe('stored after');
  });
});

describe('the store', () => {
  test('a staged file is invisible until committed under its key; a discarded one leaves nothing', async () => {
    const store = fileStore(ts.server.deps.config);
    const before = await bucket.keys();
    const first = await store.stage(Readable.from([Buffer.from('staged bytes')]));
    expect(first.size).toBe(12);
    expect(staged()).toHaveLength(1);
    expect(await bucket.keys()).toEqual(before);
    await first.commit('test/committed.txt');
    expect((await bucket.read('test/committed.txt'))?.toString()).toBe('staged bytes');
    expect(staged()).toEqual([]);
    const file = await store.read('test/committed.txt');
    expect(file?.size).toBe(12);
    const chunks: Buffer[] = [];
    for await (const chunk of file!.open()) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('staged bytes');

    const second = await store.stage(Readable.from([Buffer.from('dropped')]));
    await second.discard();
    expect(staged()).toEqual([]);
    expect(await bucket.keys()).toEqual([...before, 'test/committed.txt'].sort());

    await store.delete('test/committed.txt');
    await store.delete('test/committed.txt');
    expect(await store.read('test/committed.txt')).toBeNull();
    expect(await store.read('../outside')).toBeNull();
  });
});

describe('avatars and organization images', () => {
  const image = (size: number) =>
    sharp({ create: { width: size, height: size, channels: 3, background: '#aa3366' } })
      .png()
      .toBuffer();

  test('an avatar is kept in the bucket, one pair of objects per version, and served from it', async () => {
    const first = assertSuccess(await postFiles(ts, bob, '/users/me/avatar', [{ name: 'me.png', data: await image(300), type: 'image/png' }]));
    const version = Number(new URL(first.avatar_url, ts.url).searchParams.get('version'));
    expect((await bucket.keys()).filter((k) => k.startsWith(`avatars/${bob.id}/`))).toEqual([
      `avatars/${bob.id}/${version}-medium.png`,
      `avatars/${bob.id}/${version}.png`,
    ]);
    const small = await fetch(`${ts.url}${first.avatar_url}`);
    expect(small.status).toBe(200);
    expect(await sharp(Buffer.from(await small.arrayBuffer())).metadata()).toEqual(expect.objectContaining({ width: 100, height: 100, format: 'png' }));

    assertSuccess(await postFiles(ts, bob, '/users/me/avatar', [{ name: 'me.png', data: await image(200), type: 'image/png' }]));
    expect((await bucket.keys()).filter((k) => k.startsWith(`avatars/${bob.id}/`))).toEqual([
      `avatars/${bob.id}/${version + 1}-medium.png`,
      `avatars/${bob.id}/${version + 1}.png`,
    ]);
    assertSuccess(await client(ts, bob).delete('/users/me/avatar'));
    expect((await bucket.keys()).filter((k) => k.startsWith(`avatars/${bob.id}/`))).toEqual([]);
    expect(staged()).toEqual([]);
  });

  test('the organization icon is kept in the bucket and served from it', async () => {
    const realmId = ts.server.deps.realmId;
    const { icon_url } = assertSuccess(await postFiles(ts, ts.owner, '/realm/icon', [{ name: 'icon.png', data: await image(150), type: 'image/png' }]));
    const keys = (await bucket.keys()).filter((k) => k.startsWith(`realm/${realmId}/icon/`));
    expect(keys).toEqual([expect.stringMatching(new RegExp(`^realm/${realmId}/icon/\\d+\\.png$`))]);
    const got = await fetch(`${ts.url}${icon_url}`);
    expect(got.status).toBe(200);
    expect(await sharp(Buffer.from(await got.arrayBuffer())).metadata()).toEqual(expect.objectContaining({ width: 100, height: 100 }));
    assertSuccess(await client(ts, ts.owner).delete('/realm/icon'));
    expect((await bucket.keys()).filter((k) => k.startsWith(`realm/${realmId}/icon/`))).toEqual([]);
  });
});

describe('a bucket that cannot be used stops the start-up with the reason', () => {
  async function failedStart(env: Record<string, string>): Promise<{ message: string; exitCode: number }> {
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ...bucket.env, ...env });
    const error = await startServer(config, { pgliteDir: null, zuliprcDir: null }).then(
      async (server) => {
        await server.close();
        return new Error('the server started');
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FileStoreUnavailableError);
    return startupFailure(error, config)!;
  }

  test('refused credentials', async () => {
    const failure = await failedStart({ PARLEY_S3_ACCESS_KEY_ID: 'NOT-A-KEY', PARLEY_S3_SECRET_ACCESS_KEY: 'not-the-secret' });
    expect(failure.exitCode).toBe(EXIT_FILE_STORE_UNAVAILABLE);
    expect(failure.message).toBe(
      `Cannot use the S3 bucket "parley-test" at ${bucket.endpoint}: access was refused (403). ` +
        "Check PARLEY_S3_ACCESS_KEY_ID, PARLEY_S3_SECRET_ACCESS_KEY and the key's permissions on the bucket.",
    );
    expect(failure.message).not.toContain('not-the-secret');
  });

  test('the right key id signed with another secret (the server checks version 4 signatures)', async () => {
    const refusedBefore = bucket.refused;
    const failure = await failedStart({ PARLEY_S3_SECRET_ACCESS_KEY: 'not-the-secret' });
    expect(bucket.refused).toBeGreaterThan(refusedBefore);
    expect(failure.exitCode).toBe(EXIT_FILE_STORE_UNAVAILABLE);
    expect(failure.message).toMatch(/: access was refused \(403\)\. /);
    expect(failure.message).not.toContain('not-the-secret');
  });

  test('a bucket that does not exist', async () => {
    const failure = await failedStart({ PARLEY_S3_BUCKET: 'no-such-bucket' });
    expect(failure.message).toBe(
      `Cannot use the S3 bucket "no-such-bucket" at ${bucket.endpoint}: the bucket does not exist. Create it, or check PARLEY_S3_BUCKET.`,
    );
  });

  test('an endpoint nothing answers on', async () => {
    const endpoint = `http://127.0.0.1:${await freePort()}`;
    const failure = await failedStart({ PARLEY_S3_ENDPOINT: endpoint });
    expect(failure.message).toBe(
      `Cannot use the S3 bucket "parley-test" at ${endpoint}: it cannot be reached (ECONNREFUSED). Check PARLEY_S3_ENDPOINT and that the service is running.`,
    );
  });
});
