import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { imageRowById } from '../../src/core/uploads/previews';
import { ensureThumbnails } from '../../src/core/uploads/thumbnails';
import { assertError, assertSuccess, basicAuth, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { pathIdOf, postFiles, upload } from '../uploads/files';
import { solidPng } from '../uploads/images';

/**
 * DATA_DIR/uploads on a 256 KiB tmpfs that is then filled: an upload that does not fit is refused
 * with 507 and leaves no fragment and no row, the server goes on serving everything else, and once
 * space is freed uploads work again. Mounting needs root, as the suite has in CI; without it the
 * test fails and says so.
 */
let dataDir: string;
let uploadsDir: string;
let mounted = false;
let ts: TestServer;
let alice: TestUser;
const KIB = 1024;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-disk-full-'));
  uploadsDir = path.join(dataDir, 'uploads');
  fs.mkdirSync(uploadsDir);
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', uploadsDir], { stdio: 'pipe' });
  } catch (error) {
    const why = String((error as { stderr?: Buffer }).stderr ?? error).trim();
    throw new Error(`Cannot mount a 256 KiB tmpfs on ${uploadsDir} (the disk-full test needs root, as CI runs the fault suite): ${why}`);
  }
  mounted = true;
  // Thumbnails are made when the test says (ensureThumbnails), not by the background worker.
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '1', PARLEY_THUMBNAIL_WORKER: 'false' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await ts?.close();
  if (mounted) execFileSync('umount', [uploadsDir]);
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const freeBytes = () => {
  const stat = fs.statfsSync(uploadsDir);
  return stat.bavail * stat.bsize;
};

/** Fills the file system with `name` until it is full, then gives back `leave` bytes. */
function fill(name: string, leave = 0): void {
  const file = path.join(uploadsDir, name);
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(4 * KIB, 1);
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  if (leave > 0) fs.truncateSync(file, Math.max(0, fs.statSync(file).size - leave));
}

/** Every file under the uploads directory but the fillers, relative. */
function storedFiles(): string[] {
  return (fs.readdirSync(uploadsDir, { recursive: true }) as string[])
    .filter((f) => !f.startsWith('filler') && fs.statSync(path.join(uploadsDir, f)).isFile())
    .sort();
}

async function attachmentNames(): Promise<string[]> {
  return assertSuccess(await client(ts, alice).get('/attachments')).attachments.map((a: { name: string }) => a.name);
}

test('a full disk refuses the upload with 507, leaves nothing behind, and the server serves on; freed, uploads work', async () => {
  const first = assertSuccess(await upload(ts, alice, [{ name: 'before.txt', data: 'stored while there was room', type: 'text/plain' }]));
  fill('filler-1', 64 * KIB);
  const free = freeBytes();
  expect(free).toBeGreaterThanOrEqual(48 * KIB);
  expect(free).toBeLessThan(200 * KIB);

  // Bigger than what is left: part of it is written before the disk is full.
  const res = await upload(ts, alice, [{ name: 'too-big.bin', data: Buffer.alloc(200 * KIB, 7) }]);
  assertError(res, 'STORAGE_FULL', 'The server has no space left to store this file.', 507);
  expect(storedFiles()).toEqual([pathIdOf(first.url)]);
  expect(freeBytes()).toBe(free);
  expect(await attachmentNames()).toEqual(['before.txt']);

  // An avatar lives on the same disk: with none of it left, the same answer and no change.
  fill('filler-2');
  const png = await sharp({ create: { width: 600, height: 600, channels: 3, background: '#884422' } })
    .png()
    .toBuffer();
  const avatar = await postFiles(ts, alice, '/users/me/avatar', [{ name: 'me.png', data: png, type: 'image/png' }]);
  assertError(avatar, 'STORAGE_FULL', 'The server has no space left to store this file.', 507);
  expect(storedFiles()).toEqual([pathIdOf(first.url)]);

  // Everything that does not store a file goes on.
  const me = assertSuccess(await client(ts, alice).get('/users/me'));
  expect(me.avatar_url).not.toContain('/user_avatars/');
  assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [ts.owner.id], content: 'the disk is full' }));
  const download = await fetch(`${ts.url}${first.url}`, { headers: { authorization: basicAuth(alice) } });
  expect(await download.text()).toBe('stored while there was room');

  // Space freed: the same upload succeeds.
  fs.rmSync(path.join(uploadsDir, 'filler-1'));
  fs.rmSync(path.join(uploadsDir, 'filler-2'));
  const later = assertSuccess(await upload(ts, alice, [{ name: 'too-big.bin', data: Buffer.alloc(200 * KIB, 7) }]));
  expect(fs.statSync(path.join(uploadsDir, ...pathIdOf(later.url).split('/'))).size).toBe(200 * KIB);
  expect(await attachmentNames()).toEqual(['before.txt', 'too-big.bin']);
});

test('thumbnails that cannot be stored for want of space stay pending, and are made once there is room', async () => {
  const { url } = assertSuccess(await upload(ts, alice, [{ name: 'photo.png', data: await solidPng(64, 32), type: 'image/png' }]));
  const { attachments } = assertSuccess(await client(ts, alice).get('/attachments'));
  const id = attachments.find((a: { path_id: string }) => a.path_id === pathIdOf(url)).id as number;
  fill('filler-3');
  try {
    await expect(ensureThumbnails(ts.server.deps, id)).rejects.toMatchObject({ code: 'STORAGE_FULL', httpStatus: 507 });
    // Not taken for an image that cannot be decoded: still an image, still waiting.
    expect((await imageRowById(ts.server.deps.knex, id))?.thumbnails).toEqual([]);
  } finally {
    fs.rmSync(path.join(uploadsDir, 'filler-3'));
  }
  await ensureThumbnails(ts.server.deps, id);
  expect((await imageRowById(ts.server.deps.knex, id))?.thumbnails.map((t) => `${t.maxWidth}x${t.maxHeight}`)).toEqual(['840x560']);
});
