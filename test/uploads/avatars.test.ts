import fs from 'node:fs';
import sharp from 'sharp';
import { assertError, assertSuccess, basicAuth, client } from '../helpers/api';
import { verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { postFiles, storedFiles, tempDataDir } from './files';

let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#3366cc' } })
    .jpeg()
    .toBuffer();
const setAvatar = async (who: TestUser, data: Buffer) => postFiles(ts, who, '/users/me/avatar', [{ name: 'me.jpg', data, type: 'image/jpeg' }]);
const get = (url: string, who: TestUser | null = null) =>
  fetch(`${ts.url}${url}`, { redirect: 'manual', headers: who ? { authorization: basicAuth(who) } : {} });

test('uploading an avatar: resized squares, avatar_url everywhere, a realm_user update to everyone', async () => {
  const before = assertSuccess(await client(ts, alice).get('/users/me'));
  let avatarUrl = '';
  const [aliceEvents, bobEvents] = await verifyActionFor(ts, [alice, bob], async () => {
    const res = await setAvatar(alice, await image(800, 600));
    avatarUrl = assertSuccess(res).avatar_url;
    return res;
  });
  const version = before.avatar_version + 1;
  expect(avatarUrl).toBe(`/user_avatars/${alice.id}?version=${version}`);
  const person = {
    user_id: alice.id,
    avatar_source: 'U',
    avatar_url: avatarUrl,
    avatar_url_medium: `/user_avatars/${alice.id}/medium?version=${version}`,
    avatar_version: version,
  };
  expect(aliceEvents).toEqual([{ id: expect.any(Number), type: 'realm_user', op: 'update', person }]);
  expect(bobEvents).toEqual(aliceEvents);

  const small = await get(avatarUrl);
  expect(small.status).toBe(200);
  expect(small.headers.get('content-type')).toBe('image/png');
  expect(await sharp(Buffer.from(await small.arrayBuffer())).metadata()).toEqual(expect.objectContaining({ width: 100, height: 100, format: 'png' }));
  const medium = await get(person.avatar_url_medium);
  expect(await sharp(Buffer.from(await medium.arrayBuffer())).metadata()).toEqual(expect.objectContaining({ width: 500, height: 500 }));

  const me = assertSuccess(await client(ts, alice).get('/users/me'));
  expect(me.avatar_url).toBe(avatarUrl);
  const seen = assertSuccess(await client(ts, bob).get(`/users/${alice.id}`)).user;
  expect(seen.avatar_url).toBe(avatarUrl);

  // A second upload replaces the first one's files.
  assertSuccess(await setAvatar(alice, await image(50, 80)));
  expect(storedFiles(dataDir).filter((f) => f.startsWith(`avatars/${alice.id}/`))).toEqual([
    `avatars/${alice.id}/${version + 1}-medium.png`,
    `avatars/${alice.id}/${version + 1}.png`,
  ]);
});

test('bad uploads are refused and change nothing', async () => {
  const before = assertSuccess(await client(ts, bob).get('/users/me')).avatar_version;
  assertError(await setAvatar(bob, Buffer.from('not an image')), 'BAD_REQUEST', 'Could not decode image; did you upload an image file?');
  assertError(await postFiles(ts, bob, '/users/me/avatar', []), 'BAD_REQUEST', 'You must upload exactly one avatar.');
  assertError(await setAvatar(bob, Buffer.alloc(5 * 1024 * 1024 + 1)), 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 5 MiB');
  assertError(
    await postFiles(ts, null, '/users/me/avatar', [{ name: 'a.jpg', data: await image(10, 10) }]),
    'UNAUTHORIZED',
    'Not logged in: API authentication or user session required',
    401,
  );
  expect(assertSuccess(await client(ts, bob).get('/users/me')).avatar_version).toBe(before);
});

test('deleting the avatar goes back to the gravatar', async () => {
  assertSuccess(await setAvatar(bob, await image(120, 120)));
  const uploaded = assertSuccess(await client(ts, bob).get('/users/me'));
  let gravatar = '';
  const [events] = await verifyActionFor(ts, [alice], async () => {
    const res = await client(ts, bob).delete('/users/me/avatar');
    gravatar = assertSuccess(res).avatar_url;
    return res;
  });
  expect(gravatar).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=\d+$/);
  expect(events).toEqual([
    expect.objectContaining({ type: 'realm_user', op: 'update', person: expect.objectContaining({ user_id: bob.id, avatar_source: 'G' }) }),
  ]);
  const old = await get(`/user_avatars/${bob.id}?version=${uploaded.avatar_version}`);
  expect(old.status).toBe(302);
  expect(old.headers.get('location')).toMatch(/^https:\/\/secure\.gravatar\.com\//);
  expect(storedFiles(dataDir).filter((f) => f.startsWith(`avatars/${bob.id}/`))).toEqual([]);
});

test('GET /avatar/{user id or email} redirects to the current avatar', async () => {
  const current = assertSuccess(await client(ts, alice).get('/users/me')).avatar_url;
  const byId = await get(`/avatar/${alice.id}`, bob);
  expect(byId.status).toBe(302);
  expect(byId.headers.get('location')).toBe(current);
  const medium = await get(`/avatar/${alice.email}/medium`, bob);
  expect(medium.headers.get('location')).toBe(current.replace('?version=', '/medium?version='));
  const stranger = await get('/avatar/nobody@example.org', bob);
  expect(stranger.headers.get('location')).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
  expect((await get(`/avatar/${alice.id}`)).status).toBe(401);
  expect((await get('/avatar/999999', bob)).status).toBe(400);
});
