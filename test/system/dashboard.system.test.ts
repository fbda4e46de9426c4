import type { Browser, Page } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser, watchPage, type PageWatch } from '../helpers/browser';
import { makeUser, startTestServer, type TestServer, type TestUser } from '../helpers/server';

/**
 * GET /dashboard in headless Chromium: sign in, then watch messages, the chart, presence and typing
 * follow REST actions live over the GraphQL subscription, without a request leaving the machine.
 */
let ts: TestServer;
let viewer: TestUser;
let poster: TestUser;
let browser: Browser;
let channelId: number;

beforeAll(async () => {
  // As `npm run build` does: the server serves the bundle from dist/dashboard.
  execFileSync(process.execPath, [path.join(__dirname, '../../scripts/build-dashboard.js')]);
  ts = await startTestServer();
  viewer = await makeUser(ts, 400, { fullName: 'Wall Display' });
  poster = await makeUser(ts, 400, { fullName: 'Petra Poster' });
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'wall' }], principals: [viewer.id, poster.id] }));
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'secret', invite_only: true }] }));
  channelId = assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: 'wall' })).stream_id;
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

async function signedIn(how: 'key' | 'password'): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage();
  const watch = watchPage(page);
  const response = await page.goto(`${ts.url}/dashboard`);
  expect(response?.status()).toBe(200);
  await page.fill('#email', viewer.email);
  if (how === 'key') await page.fill('#api-key', viewer.apiKey);
  else await page.fill('#password', viewer.password);
  await page.click('button[type=submit]');
  await page.waitForSelector('#board:not([hidden])');
  await page.waitForSelector('#status:text-is("live")');
  return { page, watch };
}

const chartTotal = (page: Page, channel: string) =>
  page.$$eval(`#chart rect[data-channel="${channel}"]`, (rects) => rects.reduce((sum, r) => sum + Number(r.getAttribute('data-count')), 0));

test('a message sent over REST appears within a second; chart, presence and typing follow', async () => {
  const { page, watch } = await signedIn('key');
  expect(await page.textContent('#who')).toBe('Wall Display');
  const before = await chartTotal(page, 'wall');

  const id = assertSuccess(await client(ts, poster).post('/messages', { type: 'stream', to: channelId, topic: 'status', content: 'Deploy **done**' })).id;
  // Within a second of the send's answer.
  const sentAt = Date.now();
  await page.waitForSelector(`#messages [data-message-id="${id}"]`, { timeout: 1_000 });
  expect(Date.now() - sentAt).toBeLessThan(1_000);
  expect(await page.textContent(`#messages [data-message-id="${id}"] .text`)).toBe('Deploy done');
  expect(await page.textContent(`#messages [data-message-id="${id}"] .sender`)).toBe('Petra Poster');
  const deadline = Date.now() + 2_000;
  while ((await chartTotal(page, 'wall')) !== before + 1 && Date.now() < deadline) await page.waitForTimeout(50);
  expect(await chartTotal(page, 'wall')).toBe(before + 1);

  expect(await page.$(`#presence [data-user-id="${poster.id}"]`)).toBeNull();
  assertSuccess(await client(ts, poster).post('/users/me/presence', { status: 'active', new_user_input: true }));
  await page.waitForSelector(`#presence [data-user-id="${poster.id}"]`, { timeout: 2_000 });
  expect(await page.textContent(`#presence [data-user-id="${poster.id}"]`)).toBe('Petra Poster');

  assertSuccess(await client(ts, poster).post('/typing', { op: 'start', type: 'stream', stream_id: channelId, topic: 'status' }));
  await page.waitForSelector(`#typing [data-user-id="${poster.id}"]`, { timeout: 2_000 });
  expect(await page.textContent(`#typing [data-user-id="${poster.id}"]`)).toBe('Petra Poster in #wall > status');

  // A private channel the viewer is not in stays off the page.
  assertSuccess(await client(ts, ts.owner).post('/messages', { type: 'stream', to: 'secret', topic: 'x', content: 'hidden words' }));
  const marker = assertSuccess(await client(ts, poster).post('/messages', { type: 'stream', to: channelId, topic: 'status', content: 'after' })).id;
  await page.waitForSelector(`#messages [data-message-id="${marker}"]`);
  expect(await page.textContent('#app')).not.toContain('hidden words');
  expect(await page.$('#chart rect[data-channel="secret"]')).toBeNull();

  expect(watch.offMachine).toEqual([]);
  expect(watch.errors).toEqual([]);
  await page.close();
});

test('signs in with a password through fetchApiKey, and shows a wrong one', async () => {
  const page = await browser.newPage();
  const watch = watchPage(page);
  await page.goto(`${ts.url}/dashboard`);
  await page.fill('#email', viewer.email);
  await page.fill('#password', 'not the password');
  await page.click('button[type=submit]');
  await page.waitForSelector('#sign-in-error:not(:empty)');
  expect(await page.textContent('#sign-in-error')).toBe('Your username or password is incorrect');
  expect(await page.isHidden('#board')).toBe(true);
  await page.close();

  const { page: good, watch: goodWatch } = await signedIn('password');
  expect(await good.textContent('#who')).toBe('Wall Display');
  expect([...watch.offMachine, ...goodWatch.offMachine]).toEqual([]);
  // The failed sign-in's 401 is the browser's own log line, not a page error.
  expect(goodWatch.errors).toEqual([]);
  await good.close();
});

test('the page and its bundle come from Parley with a same-origin policy', async () => {
  const html = await fetch(`${ts.url}/dashboard`);
  expect(html.headers.get('content-security-policy')).toContain("connect-src 'self'");
  expect(await html.text()).toContain('<script src="/dashboard/app.js"></script>');
  const js = await fetch(`${ts.url}/dashboard/app.js`);
  expect(js.status).toBe(200);
  expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
});
