import fs from 'node:fs';
import sharp from 'sharp';
import { assertSuccess, client } from '../helpers/api';
import { verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { download, pathIdOf, storedFiles, tempDataDir, upload } from './files';
import { animatedGif, brokenPng, solidPng } from './images';

// Image previews and thumbnails, with the background worker held so each step can be watched.
let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_THUMBNAIL_WORKER: 'false' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const LOADER = '/static/images/loading/loader-black.svg';

async function uploadFile(name: string, data: Buffer | string, type: string): Promise<string> {
  return assertSuccess(await upload(ts, alice, [{ name, data, type }])).url;
}

async function sendToBob(content: string): Promise<number> {
  return assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content })).id;
}

async function rendered(id: number, who: TestUser = alice): Promise<string> {
  return assertSuccess(await client(ts, who).get(`/messages/${id}`, { apply_markdown: true })).message.content;
}

const placeholder = (url: string, title: string, dims: string, type = 'image/png') =>
  `<div class="message_inline_image"><a href="${url}" title="${title}">` +
  `<img class="image-loading-placeholder" data-original-content-type="${type}" data-original-dimensions="${dims}" src="${LOADER}"></a></div>`;

const preview = (url: string, title: string, img: string) => `<div class="message_inline_image"><a href="${url}" title="${title}">${img}</a></div>`;

describe('a message linking an uploaded PNG', () => {
  let url = '';
  let messageId = 0;

  test('renders the loading placeholder until the thumbnails exist', async () => {
    url = await uploadFile('photo.png', await solidPng(1000, 800), 'image/png');
    messageId = await sendToBob(`[photo.png](${url})`);
    expect(await rendered(messageId)).toBe(`<p><a href="${url}">photo.png</a></p>\n${placeholder(url, 'photo.png', '1000x800')}`);
  });

  test('making the thumbnails rewrites it and tells both participants (rendering only)', async () => {
    const final = `<p><a href="${url}">photo.png</a></p>\n${preview(
      url,
      'photo.png',
      `<img data-original-content-type="image/png" data-original-dimensions="1000x800" src="/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp">`,
    )}`;
    const [aliceEvents, bobEvents] = await verifyActionFor(ts, [alice, bob], () => ts.server.thumbnails.runNow());
    for (const [events, flags] of [
      [aliceEvents, ['read']],
      [bobEvents, []],
    ] as const) {
      expect(events).toEqual([
        {
          id: expect.any(Number),
          type: 'update_message',
          user_id: null,
          edit_timestamp: expect.any(Number),
          message_id: messageId,
          message_ids: [messageId],
          content: `[photo.png](${url})`,
          rendered_content: final,
          rendering_only: true,
          flags,
        },
      ]);
    }
    expect(await rendered(messageId, bob)).toBe(final);
    // Nothing is left to do: another run changes nothing and announces nothing.
    const [again] = await verifyActionFor(ts, [alice], () => ts.server.thumbnails.runNow());
    expect(again).toEqual([]);
  });

  test('the thumbnail is a WebP within 840x560 for whoever may read the original', async () => {
    const thumbnail = `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`;
    for (const who of [alice, bob]) {
      const res = await download(ts, thumbnail, who);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 700, 560]);
    }
    // Carol sees no message linking it: Zulip's refusal, exactly as for the original.
    const refused = await download(ts, thumbnail, carol);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ result: 'error', code: 'BAD_REQUEST', msg: 'You are not authorized to view this file.' });
    const anonymous = await download(ts, thumbnail, null);
    const anonymousOriginal = await download(ts, url, null);
    expect(anonymous.status).toBe(anonymousOriginal.status);
    expect(await anonymous.json()).toEqual(await anonymousOriginal.json());
    // An unknown format name, or a file that is no image, is not found.
    for (const path of [thumbnail.replace('840x560.webp', 'huge.webp'), thumbnail.replace('photo.png', 'nothing.png')]) {
      const res = await download(ts, path, alice);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({ result: 'error', code: 'NOT_FOUND', msg: 'File not found.' });
    }
  });

  test('a later message renders the thumbnail at once', async () => {
    const id = await sendToBob(`[again](${url})`);
    expect(await rendered(id)).toContain(`<img data-original-content-type="image/png" data-original-dimensions="1000x800" src="/user_uploads/thumbnail/`);
  });
});

test('in a channel, the update goes to the subscribers who hold the message', async () => {
  assertSuccess(await client(ts, alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'pics' }], principals: [alice.id, bob.id] }));
  const url = await uploadFile('team.png', await solidPng(20, 10), 'image/png');
  const id = assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: 'pics', topic: 'photos', content: `[team](${url})` })).id;
  // Carol joins later (she may read the message, but never received it); Bob leaves.
  assertSuccess(await client(ts, carol).post('/users/me/subscriptions', { subscriptions: [{ name: 'pics' }] }));
  assertSuccess(await client(ts, bob).delete('/users/me/subscriptions', { subscriptions: ['pics'] }));
  const [aliceEvents, bobEvents, carolEvents] = await verifyActionFor(ts, [alice, bob, carol], () => ts.server.thumbnails.runNow());
  expect(aliceEvents).toEqual([expect.objectContaining({ type: 'update_message', message_id: id, rendering_only: true })]);
  expect(bobEvents).toEqual([]);
  expect(carolEvents).toEqual([]);
  expect(await rendered(id, carol)).toContain('data-original-dimensions="20x10" src="/user_uploads/thumbnail/');
});

test('animated images get data-animated and the animated thumbnail', async () => {
  const url = await uploadFile('spin.gif', await animatedGif(64, 48, 3), 'image/gif');
  const id = await sendToBob(`[spin](${url})`);
  expect(await rendered(id)).toContain(placeholder(url, 'spin', '64x48', 'image/gif'));
  await ts.server.thumbnails.runNow();
  const path = url.slice('/user_uploads/'.length);
  expect(await rendered(id)).toBe(
    `<p><a href="${url}">spin</a></p>\n${preview(
      url,
      'spin',
      `<img data-animated="true" data-original-content-type="image/gif" data-original-dimensions="64x48" src="/user_uploads/thumbnail/${path}/840x560-anim.webp">`,
    )}`,
  );
  const res = await download(ts, `/user_uploads/thumbnail/${path}/840x560-anim.webp`, bob);
  const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
  expect([meta.format, meta.pages, meta.width]).toEqual(['webp', 3, 64]);
  // The still version exists too.
  expect((await download(ts, `/user_uploads/thumbnail/${path}/840x560.webp`, bob)).status).toBe(200);
});

test('asking for a thumbnail not made yet makes it then; deleting the file deletes its thumbnails', async () => {
  const url = await uploadFile('early.png', await solidPng(300, 200), 'image/png');
  const id = await sendToBob(`[early](${url})`);
  const path = pathIdOf(url);
  const res = await download(ts, `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`, bob);
  expect(res.status).toBe(200);
  expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(300);
  expect(await rendered(id)).toContain('src="/user_uploads/thumbnail/');
  expect(storedFiles(dataDir)).toContain(`thumbnail/${path}/840x560.webp`);

  const attachment = await ts.server.deps.knex('attachments').where({ path_id: path }).first('id');
  assertSuccess(await client(ts, alice).delete(`/attachments/${attachment.id}`));
  expect(storedFiles(dataDir).filter((f) => f.includes(path))).toEqual([]);
  expect(await ts.server.deps.knex('image_attachments').where({ path_id: path }).first()).toBeUndefined();
});

describe('files that are not (usable) images stay plain links', () => {
  test('a text file', async () => {
    const url = await uploadFile('notes.txt', 'just text', 'text/plain');
    const id = await sendToBob(`[notes](${url})`);
    expect(await rendered(id)).toBe(`<p><a href="${url}">notes</a></p>`);
    expect((await download(ts, `/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp`, alice)).status).toBe(404);
  });

  test('bytes that are no PNG at all', async () => {
    const url = await uploadFile('fake.png', Buffer.from('definitely not a png'), 'image/png');
    const id = await sendToBob(`[fake](${url})`);
    expect(await rendered(id)).toBe(`<p><a href="${url}">fake</a></p>`);
  });

  test('an image too large to decode safely (a decompression bomb)', async () => {
    const url = await uploadFile('bomb.png', brokenPng(20_000, 20_000), 'image/png');
    const id = await sendToBob(`[bomb](${url})`);
    expect(await rendered(id)).toBe(`<p><a href="${url}">bomb</a></p>`);
  });

  test('an image whose header reads but whose pixels do not: the preview goes again', async () => {
    const url = await uploadFile('broken.png', brokenPng(100, 100), 'image/png');
    const id = await sendToBob(`[broken](${url})`);
    expect(await rendered(id)).toContain(placeholder(url, 'broken', '100x100'));
    const [events] = await verifyActionFor(ts, [bob], () => ts.server.thumbnails.runNow());
    expect(events).toEqual([expect.objectContaining({ type: 'update_message', rendering_only: true, rendered_content: `<p><a href="${url}">broken</a></p>` })]);
    expect(await rendered(id)).toBe(`<p><a href="${url}">broken</a></p>`);
    // The server keeps serving everyone else.
    assertSuccess(await client(ts, alice).get('/users/me'));
  });
});

test('previews are placed where Zulip places them', async () => {
  const one = await uploadFile('one.png', await solidPng(30, 20), 'image/png');
  const two = await uploadFile('two.png', await solidPng(20, 30), 'image/png');
  await sendToBob(`[one](${one}) [two](${two})`);
  await ts.server.thumbnails.runNow();
  const img = (url: string, dims: string) =>
    `<img data-original-content-type="image/png" data-original-dimensions="${dims}" src="/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp">`;
  const div = (url: string, title: string, dims: string) => preview(url, title, img(url, dims));
  const render = async (content: string) => assertSuccess(await client(ts, alice).post('/messages/render', { content })).rendered;
  // In link order after their paragraph; each address once.
  expect(await render(`A [one](${one}) and [two](${two}), [one again](${one})\n\nnext`)).toBe(
    `<p>A <a href="${one}">one</a> and <a href="${two}">two</a>, <a href="${one}">one again</a></p>\n` +
      `${div(one, 'one', '30x20')}${div(two, 'two', '20x30')}<p>next</p>`,
  );
  // At the end of a tight list item.
  expect(await render(`* [one](${one})\n* text`)).toBe(`<ul>\n<li><a href="${one}">one</a>${div(one, 'one', '30x20')}</li>\n<li>text</li>\n</ul>`);
  // Inside emphasis: at the end of the message.
  expect(await render(`**[one](${one})**\n\nafter`)).toBe(`<p><strong><a href="${one}">one</a></strong></p>\n<p>after</p>\n${div(one, 'one', '30x20')}`);
  // Never in quotes.
  expect(await render(`> [one](${one})`)).toBe(`<blockquote>\n<p><a href="${one}">one</a></p>\n</blockquote>`);
});

test('register lists the thumbnail formats', async () => {
  const state = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: ['realm'] }));
  expect(state.server_thumbnail_formats).toEqual([
    { name: '840x560-anim.webp', max_width: 840, max_height: 560, format: 'webp', animated: true },
    { name: '840x560.webp', max_width: 840, max_height: 560, format: 'webp', animated: false },
  ]);
});
