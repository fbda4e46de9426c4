import fs from 'node:fs';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { download, tempDataDir, upload } from '../uploads/files';
import { solidPng } from '../uploads/images';

// Feature level 437: Markdown image syntax, `![alt text](url)`, renders an image in place.
let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_THUMBNAIL_WORKER: 'false' });
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const LOADER = '/static/images/loading/loader-black.svg';

async function render(content: string): Promise<string> {
  return assertSuccess(await client(ts, alice).post('/messages/render', { content })).rendered;
}

test('an uploaded image shows its loading placeholder in place, then its thumbnail, in the render endpoint and a sent message', async () => {
  const url: string = assertSuccess(await upload(ts, alice, [{ name: 'photo.png', data: await solidPng(1000, 800), type: 'image/png' }])).url;
  const content = `Look: ![a red square](${url}) here`;
  expect(await render(content)).toBe(
    `<p>Look: <img alt="a red square" class="inline-image image-loading-placeholder" data-original-content-type="image/png" ` +
      `data-original-dimensions="1000x800" data-original-src="${url}" src="${LOADER}"> here</p>`,
  );

  await ts.server.thumbnails.runNow();
  const thumbnailed =
    `<p>Look: <img alt="a red square" class="inline-image" data-original-content-type="image/png" data-original-dimensions="1000x800" ` +
    `data-original-src="${url}" src="/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp"> here</p>`;
  expect(await render(content)).toBe(thumbnailed);

  const { id } = assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content }));
  const message = assertSuccess(await client(ts, bob).get(`/messages/${id}`, { apply_markdown: true })).message;
  expect(message.content).toBe(thumbnailed);
});

test('a message sent before the thumbnails exist gets them in place once they are made', async () => {
  const url: string = assertSuccess(await upload(ts, alice, [{ name: 'late.png', data: await solidPng(600, 400), type: 'image/png' }])).url;
  const content = `![late](${url})`;
  const { id } = assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content }));
  const before = assertSuccess(await client(ts, bob).get(`/messages/${id}`, { apply_markdown: true })).message.content;
  expect(before).toContain('class="inline-image image-loading-placeholder"');
  // The image claims its file, as a link does: the recipient may download it.
  expect((await download(ts, url, bob)).status).toBe(200);
  await ts.server.thumbnails.runNow();
  const after = assertSuccess(await client(ts, bob).get(`/messages/${id}`, { apply_markdown: true })).message.content;
  expect(after).toBe(
    `<p><img alt="late" class="inline-image" data-original-content-type="image/png" data-original-dimensions="600x400" ` +
      `data-original-src="${url}" src="/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp"></p>`,
  );
});

test('the image may sit in any block: a list item, a quote, emphasis', async () => {
  const url: string = assertSuccess(await upload(ts, alice, [{ name: 'dot.png', data: await solidPng(20, 10), type: 'image/png' }])).url;
  await ts.server.thumbnails.runNow();
  const img = (alt: string) =>
    `<img alt="${alt}" class="inline-image" data-original-content-type="image/png" data-original-dimensions="20x10" ` +
    `data-original-src="${url}" src="/user_uploads/thumbnail/${url.slice('/user_uploads/'.length)}/840x560.webp">`;
  expect(await render(`* ![dot](${url})`)).toBe(`<ul>\n<li>${img('dot')}</li>\n</ul>`);
  expect(await render(`> ![dot](${url})`)).toBe(`<blockquote>\n<p>${img('dot')}</p>\n</blockquote>`);
  expect(await render(`*see ![](${url})*`)).toBe(`<p><em>see ${img('')}</em></p>`);
});

// Since feature level 467 a web address is a link too (see levels-445-467-messages.test.ts).
test('a web address or an upload that is no image becomes a link', async () => {
  expect(await render('![logo](https://example.com/logo.png)')).toBe('<p><a href="https://example.com/logo.png">logo</a></p>');
  const url: string = assertSuccess(await upload(ts, alice, [{ name: 'notes.txt', data: 'hello', type: 'text/plain' }])).url;
  expect(await render(`![notes](${url})`)).toBe(`<p><a href="${url}">notes</a></p>`);
});

test.each([
  ['javascript:alert(1)', '<p>![x](javascript:alert(1))</p>'],
  ['JavaScript:alert(1)', '<p>![x](JavaScript:alert(1))</p>'],
  ['data:image/svg+xml;base64,PHN2Zz4=', '<p>![x](data:image/svg+xml;base64,PHN2Zz4=)</p>'],
  ['vbscript:msgbox(1)', '<p>![x](vbscript:msgbox(1))</p>'],
])('the unsafe destination %s never becomes an image', async (destination, expected) => {
  const html = await render(`![x](${destination})`);
  expect(html).toBe(expected);
  expect(html).not.toContain('<img');
});

test('alt text and address are escaped, never markup', async () => {
  const html = await render('![a "quoted" <b>alt</b>](https://example.com/a.png?x=1&y="2")');
  expect(html).toBe('<p><a href="https://example.com/a.png?x=1&amp;y=%222%22">a "quoted" &lt;b&gt;alt&lt;/b&gt;</a></p>');
});
