import fs from 'node:fs';
import { assertSuccess, client } from '../helpers/api';
import { persistentDatabase, PersistentDatabase, startOn } from '../helpers/persistent';
import { SERVER_HOOK_TIMEOUT, TestServer } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { tempDataDir, upload } from './files';
import { solidPng } from './images';

// Pending thumbnails are durable: a server that stops before making them leaves them to the next.
let db: PersistentDatabase;
let dataDir: string;
let first: TestServer | null = null;
let second: TestServer | null = null;

beforeAll(async () => {
  db = await persistentDatabase();
  dataDir = tempDataDir();
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await first?.close();
  await second?.close();
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

test('a server started after the upload makes the thumbnails and updates the message', async () => {
  // The first server never makes thumbnails by itself.
  first = await startOn(db, null, { DATA_DIR: dataDir, PARLEY_THUMBNAIL_WORKER: 'false' });
  const owner = first.owner;
  const url = assertSuccess(await upload(first, owner, [{ name: 'later.png', data: await solidPng(64, 32), type: 'image/png' }])).url;
  const id = assertSuccess(await client(first, owner).post('/messages', { type: 'direct', to: [owner.id], content: `[later](${url})` })).id;
  const content = async (ts: TestServer) => assertSuccess(await client(ts, owner).get(`/messages/${id}`)).message.content as string;
  expect(await content(first)).toContain('image-loading-placeholder');
  await first.close();
  first = null;

  second = await startOn(db, owner, { DATA_DIR: dataDir });
  const ts = second;
  await waitUntil(async () => (await content(ts)).includes('/840x560.webp'), 90_000);
  expect(await content(ts)).toContain(`data-original-dimensions="64x32" src="/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp"`);

  // Running, it makes the thumbnails of new uploads by itself.
  const next = assertSuccess(await upload(ts, owner, [{ name: 'now.png', data: await solidPng(16, 16), type: 'image/png' }])).url;
  const nextId = assertSuccess(await client(ts, owner).post('/messages', { type: 'direct', to: [owner.id], content: `[now](${next})` })).id;
  await waitUntil(async () => (assertSuccess(await client(ts, owner).get(`/messages/${nextId}`)).message.content as string).includes('/840x560.webp'), 90_000);
  // Two server starts on a persistent database: minutes on a loaded machine.
}, 240_000);
