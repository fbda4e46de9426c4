import fs from 'node:fs';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { download, pathIdOf, storedFiles, tempDataDir, upload } from '../uploads/files';
import { animatedGif, brokenPng, solidPng } from '../uploads/images';

// Zulip's API changelog, feature levels 479 (GET /thumbnail/status/{realm_id_str}/{filename}) and
// 480 (GET /streams/{stream_id} and GET /users/me/{stream_id}/topics answer for archived channels),
// each checked through the API. The thumbnail worker is held so each step can be watched.
let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let admin: TestUser;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_THUMBNAIL_WORKER: 'false' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  admin = await makeUser(ts, 200, { fullName: 'Ada Admin' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

async function uploadAs(who: TestUser, name: string, data: Buffer | string, type: string): Promise<string> {
  return assertSuccess(await upload(ts, who, [{ name, data, type }])).url;
}

/** GET /thumbnail/status/<path_id> for the file at `url`, as its path_id is written in the URL. */
const status = (who: TestUser, url: string) => client(ts, who).get(`/thumbnail/status/${url.slice('/user_uploads/'.length)}`);

const STATUS_QUERY = 'query ($url: String!) { thumbnailStatus(url: $url) { hasThumbnail } }';

describe('479: GET /thumbnail/status/{realm_id_str}/{filename}', () => {
  let png = '';
  let gif = '';
  let broken = '';

  test('false while the thumbnails are pending, and asking makes none', async () => {
    png = await uploadAs(alice, 'photo.png', await solidPng(1000, 800), 'image/png');
    gif = await uploadAs(alice, 'spin.gif', await animatedGif(64, 48, 3), 'image/gif');
    broken = await uploadAs(alice, 'broken.png', brokenPng(100, 100), 'image/png');
    for (const url of [png, gif, broken]) {
      const res = await status(alice, url);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ result: 'success', msg: '', has_thumbnail: false });
    }
    // Polling is only a look: no thumbnail was stored by it.
    const pathId = pathIdOf(png);
    expect(storedFiles(dataDir).filter((f) => f.startsWith(`thumbnail/${pathId}/`))).toEqual([]);
    expect((await graphql(ts, alice, STATUS_QUERY, { url: png })).data).toEqual({ thumbnailStatus: { hasThumbnail: false } });
  });

  test('true once every thumbnail is made (the still one, and for an animation the animated one too)', async () => {
    await ts.server.thumbnails.runNow();
    for (const url of [png, gif]) expect(assertSuccess(await status(alice, url)).has_thumbnail).toBe(true);
    expect((await graphql(ts, alice, STATUS_QUERY, { url: gif })).data).toEqual({ thumbnailStatus: { hasThumbnail: true } });
    const gifPath = pathIdOf(gif);
    expect(storedFiles(dataDir).filter((f) => f.startsWith(`thumbnail/${gifPath}/`))).toEqual([
      `thumbnail/${gifPath}/840x560-anim.webp`,
      `thumbnail/${gifPath}/840x560.webp`,
    ]);
  });

  test('an image that turned out undecodable is no image any more: "Invalid attachment"', async () => {
    assertError(await status(alice, broken), 'BAD_REQUEST', 'Invalid attachment');
  });

  test('only the uploader may ask, even of someone who can read the file', async () => {
    assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content: `[photo](${png})` }));
    expect((await download(ts, png, bob)).status).toBe(200);
    assertError(await status(bob, png), 'BAD_REQUEST', 'Invalid attachment');
    assertError(await status(carol, png), 'BAD_REQUEST', 'Invalid attachment');
    expect(graphqlError(await graphql(ts, bob, STATUS_QUERY, { url: png }))).toEqual({ message: 'Invalid attachment', code: 'BAD_REQUEST' });
  });

  test('files that are no image, and files that do not exist, are "Invalid attachment"', async () => {
    const text = await uploadAs(alice, 'notes.txt', 'just text', 'text/plain');
    assertError(await status(alice, text), 'BAD_REQUEST', 'Invalid attachment');
    const [realmId, ...rest] = pathIdOf(png).split('/');
    const path = rest.join('/');
    assertError(await client(ts, alice).get(`/thumbnail/status/${realmId}/${path.replace('photo', 'nothing')}`), 'BAD_REQUEST', 'Invalid attachment');
    assertError(await client(ts, alice).get(`/thumbnail/status/${Number(realmId) + 1}/${path}`), 'BAD_REQUEST', 'Invalid attachment');
    assertError(await client(ts, alice).get(`/thumbnail/status/abc/${path}`), 'BAD_REQUEST', 'Invalid attachment');
    // A deleted upload is gone for this question too.
    const gone = await uploadAs(alice, 'gone.png', await solidPng(10, 10), 'image/png');
    const attachment = assertSuccess(await client(ts, alice).get('/attachments')).attachments.find((a: { path_id: string }) => a.path_id === pathIdOf(gone));
    assertSuccess(await client(ts, alice).delete(`/attachments/${attachment.id}`));
    assertError(await status(alice, gone), 'BAD_REQUEST', 'Invalid attachment');
    // The GraphQL query wants a /user_uploads/ URL.
    expect(graphqlError(await graphql(ts, alice, STATUS_QUERY, { url: 'photo.png' }))).toEqual({ message: 'Invalid file URL', code: 'BAD_REQUEST' });
  });

  test('needs credentials', async () => {
    const res = await client(ts, null).get(`/thumbnail/status/${png.slice('/user_uploads/'.length)}`);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ result: 'error', code: 'UNAUTHORIZED' });
  });
});

describe('480: archived channels at GET /streams/{stream_id} and GET /users/me/{stream_id}/topics', () => {
  let publicId = 0;
  let privateId = 0;

  const subscribe = async (who: TestUser, name: string, extra: Record<string, unknown> = {}) => {
    assertSuccess(await client(ts, who).post('/users/me/subscriptions', { subscriptions: [{ name }], ...extra }));
    return assertSuccess(await client(ts, who).get('/get_stream_id', { stream: name })).stream_id as number;
  };
  const send = async (who: TestUser, to: number, topic: string) =>
    assertSuccess(await client(ts, who).post('/messages', { type: 'stream', to, topic, content: `about ${topic}` })).id as number;

  beforeAll(async () => {
    publicId = await subscribe(alice, 'old plans');
    privateId = await subscribe(alice, 'old secrets', { invite_only: true, principals: [alice.id, bob.id] });
    await send(alice, publicId, 'lunch');
    await send(alice, publicId, 'dinner');
    await send(bob, privateId, 'the safe');
    for (const id of [publicId, privateId]) assertSuccess(await client(ts, admin).delete(`/streams/${id}`));
  });

  test('GET /streams/{id} answers for an archived channel whose metadata the user may see', async () => {
    for (const who of [alice, carol]) {
      expect(assertSuccess(await client(ts, who).get(`/streams/${publicId}`)).stream).toMatchObject({
        stream_id: publicId,
        name: 'old plans',
        is_archived: true,
      });
    }
    expect(assertSuccess(await client(ts, bob).get(`/streams/${privateId}`)).stream).toMatchObject({ name: 'old secrets', is_archived: true });
    // Administrators see private channels' metadata, archived or not.
    expect(assertSuccess(await client(ts, admin).get(`/streams/${privateId}`)).stream).toMatchObject({ is_archived: true });
    // Archiving grants nothing: a private channel stays hidden from outsiders.
    assertError(await client(ts, carol).get(`/streams/${privateId}`), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('GET /users/me/{id}/topics lists an archived channel’s topics, most recent first', async () => {
    const topics = assertSuccess(await client(ts, carol).get(`/users/me/${publicId}/topics`)).topics;
    expect(topics.map((t: { name: string }) => t.name)).toEqual(['dinner', 'lunch']);
    expect(assertSuccess(await client(ts, bob).get(`/users/me/${privateId}/topics`)).topics.map((t: { name: string }) => t.name)).toEqual(['the safe']);
    // Topics are content: neither an outsider nor an unsubscribed administrator gets them.
    assertError(await client(ts, carol).get(`/users/me/${privateId}/topics`), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await client(ts, admin).get(`/users/me/${privateId}/topics`), 'BAD_REQUEST', 'Invalid channel ID');
  });

  test('the GraphQL counterparts answer the same', async () => {
    const res = await graphql(ts, carol, 'query ($id: Int!) { channel(id: $id) { streamId name isArchived } topics(streamId: $id) { name } }', {
      id: publicId,
    });
    expect(res.errors).toBeUndefined();
    expect(res.data).toEqual({ channel: { streamId: publicId, name: 'old plans', isArchived: true }, topics: [{ name: 'dinner' }, { name: 'lunch' }] });
    const hidden = await graphql(ts, carol, 'query ($id: Int!) { channel(id: $id) { name } }', { id: privateId });
    expect(graphqlError(hidden)).toEqual({ message: 'Invalid channel ID', code: 'BAD_REQUEST' });
  });

  test('an unarchived channel is found as before, no longer archived', async () => {
    assertSuccess(await client(ts, admin).patch(`/streams/${publicId}`, { is_archived: false }));
    expect(assertSuccess(await client(ts, carol).get(`/streams/${publicId}`)).stream).toMatchObject({ is_archived: false });
    expect(assertSuccess(await client(ts, carol).get(`/users/me/${publicId}/topics`)).topics).toHaveLength(2);
  });
});
