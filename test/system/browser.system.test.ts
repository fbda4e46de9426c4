import { launchBrowser, watchPage } from '../helpers/browser';
import { startTestServer, type TestServer } from '../helpers/server';

/** The system suite's own check: the browser starts and reaches a Parley server on loopback. */
let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  await t.close();
});

test('headless Chromium loads a page from Parley without leaving the machine', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const watch = watchPage(page);
    const response = await page.goto(`${t.url}/health`);
    expect(response?.status()).toBe(200);
    expect(JSON.parse(await page.innerText('body'))).toEqual({ status: 'ok' });
    expect(watch.offMachine).toEqual([]);
  } finally {
    await browser.close();
  }
});
