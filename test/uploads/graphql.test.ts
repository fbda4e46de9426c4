import fs from 'node:fs';
import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { download, pathIdOf, tempDataDir } from './files';

let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '1' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const UPLOAD = `mutation ($input: UploadFileInput!) {
  uploadFile(input: $input) { url filename attachment { id name pathId size createTime messageIds } }
}`;
const LIST = '{ attachments { uploadSpaceUsed attachments { id name pathId size messageIds } } }';

test('uploadFile stores the file as POST /user_uploads does, with the same event', async () => {
  let result: Record<string, any> = {};
  const events = await verifyPersonalAction(ts, alice, bob, async () => {
    const res = await graphql(ts, alice, UPLOAD, { input: { filename: 'hello world.txt', contentBase64: Buffer.from('hi there').toString('base64') } });
    expect(res.errors).toBeUndefined();
    result = res.data!.uploadFile;
  });
  expect(result.filename).toBe('hello world.txt');
  expect(result.url).toMatch(/\/hello-world\.txt$/);
  expect(result.attachment).toEqual({
    id: expect.any(String),
    name: 'hello world.txt',
    pathId: pathIdOf(result.url),
    size: 8,
    createTime: expect.any(Number),
    messageIds: [],
  });
  expect(events).toEqual([
    expect.objectContaining({ type: 'attachment', op: 'add', attachment: expect.objectContaining({ id: Number(result.attachment.id) }) }),
  ]);
  const got = await download(ts, result.url, alice);
  expect(got.headers.get('content-type')).toBe('text/plain');
  expect(await got.text()).toBe('hi there');
});

test('attachments, fileTemporaryUrl and deleteAttachment follow REST’s rules', async () => {
  const res = await graphql(ts, alice, UPLOAD, { input: { filename: 'x.bin', contentType: 'application/octet-stream', contentBase64: 'AAEC' } });
  const { url, attachment } = res.data!.uploadFile;
  const listed = (await graphql(ts, alice, LIST)).data!.attachments;
  expect(listed.attachments).toContainEqual({ id: attachment.id, name: 'x.bin', pathId: attachment.pathId, size: 3, messageIds: [] });
  expect(listed.uploadSpaceUsed).toBe(assertSuccess(await client(ts, alice).get('/attachments')).upload_space_used);
  expect((await graphql(ts, bob, LIST)).data!.attachments.attachments).toEqual([]);

  const temp = await graphql(ts, alice, 'query ($url: String!) { fileTemporaryUrl(url: $url) { url } }', { url });
  expect(await (await download(ts, temp.data!.fileTemporaryUrl.url, null)).arrayBuffer()).toEqual(new Uint8Array([0, 1, 2]).buffer);
  const refused = await graphql(ts, bob, 'query ($url: String!) { fileTemporaryUrl(url: $url) { url } }', { url });
  expect(graphqlError(refused)).toEqual({ message: 'You are not authorized to view this file.', code: 'BAD_REQUEST' });

  expect(graphqlError(await graphql(ts, bob, 'mutation ($id: ID!) { deleteAttachment(id: $id) { id } }', { id: attachment.id }))).toEqual({
    message: 'Invalid attachment',
    code: 'BAD_REQUEST',
  });
  const deleted = await graphql(ts, alice, 'mutation ($id: ID!) { deleteAttachment(id: $id) { id } }', { id: attachment.id });
  expect(deleted.data!.deleteAttachment).toEqual({ id: attachment.id });
  expect((await download(ts, url, alice)).status).toBe(404);
});

test('bad input and the size limit are refused like REST', async () => {
  const bad = await graphql(ts, alice, UPLOAD, { input: { filename: 'a.txt', contentBase64: 'not base64!' } });
  expect(graphqlError(bad)).toEqual({ message: 'Invalid contentBase64', code: 'BAD_REQUEST' });
  const anonymous = await graphql(ts, null, UPLOAD, { input: { filename: 'a.txt', contentBase64: 'AA==' } });
  expect(graphqlError(anonymous).code).toBe('UNAUTHORIZED');
  const before = assertSuccess(await client(ts, alice).get('/attachments')).attachments.length;
  // Just over 1 MiB does not fit in a GraphQL request body (1 MiB), which is refused before parsing.
  const big = await graphql(ts, alice, UPLOAD, { input: { filename: 'big.bin', contentBase64: Buffer.alloc(1024 * 1024 + 1).toString('base64') } });
  expect(big.status).toBe(413);
  expect(assertSuccess(await client(ts, alice).get('/attachments')).attachments.length).toBe(before);
});

test('uploadAvatar and deleteAvatar act as their REST routes do', async () => {
  const { default: sharp } = await import('sharp');
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  const set = await graphql(ts, bob, 'mutation ($input: AvatarInput!) { uploadAvatar(input: $input) { avatarUrl } }', {
    input: { contentBase64: png.toString('base64') },
  });
  expect(set.errors).toBeUndefined();
  expect(set.data!.uploadAvatar.avatarUrl).toBe(assertSuccess(await client(ts, bob).get('/users/me')).avatar_url);
  expect(set.data!.uploadAvatar.avatarUrl).toMatch(new RegExp(`^/user_avatars/${bob.id}\\?version=\\d+$`));
  const bad = await graphql(ts, bob, 'mutation ($input: AvatarInput!) { uploadAvatar(input: $input) { avatarUrl } }', { input: { contentBase64: 'AAAA' } });
  expect(graphqlError(bad)).toEqual({ message: 'Could not decode image; did you upload an image file?', code: 'BAD_REQUEST' });
  const cleared = await graphql(ts, bob, 'mutation { deleteAvatar { avatarUrl } }');
  expect(cleared.data!.deleteAvatar.avatarUrl).toMatch(/^https:\/\/secure\.gravatar\.com\//);
});

test('uploadRealmImage and deleteRealmImage: administrators only', async () => {
  const { default: sharp } = await import('sharp');
  const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#0000ff' } })
    .png()
    .toBuffer();
  const UPLOAD_IMAGE = 'mutation ($image: String!, $data: String!) { uploadRealmImage(image: $image, contentBase64: $data) { url source } }';
  expect(graphqlError(await graphql(ts, alice, UPLOAD_IMAGE, { image: 'icon', data: png.toString('base64') }))).toEqual({
    message: 'Must be an organization administrator',
    code: 'UNAUTHORIZED_PRINCIPAL',
  });
  const set = await graphql(ts, ts.owner, UPLOAD_IMAGE, { image: 'icon', data: png.toString('base64') });
  expect(set.data!.uploadRealmImage).toEqual({ url: expect.stringMatching(/\/realm\/icon\.png\?version=\d+$/), source: 'U' });
  const night = await graphql(ts, ts.owner, UPLOAD_IMAGE, { image: 'night_logo', data: png.toString('base64') });
  expect(night.data!.uploadRealmImage.source).toBe('U');
  expect(graphqlError(await graphql(ts, ts.owner, UPLOAD_IMAGE, { image: 'banner', data: png.toString('base64') })).message).toBe('Invalid image');
  const cleared = await graphql(ts, ts.owner, 'mutation { deleteRealmImage(image: "icon") { url source } }');
  expect(cleared.data!.deleteRealmImage).toEqual({ url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//), source: 'G' });
});
