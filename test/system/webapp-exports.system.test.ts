import type { Browser } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { type AppPage, buildWebapp, expectAccessible, openHash, PHONE, screenshot, signIn } from '../helpers/webapp';

// Page-side code in waitForFunction runs in the browser; the test project has no DOM types.
declare const document: any;

/**
 * Organization data exports in the web app, end to end: the owner starts a public export and sees it
 * become ready (through the realm_export event) with a link that downloads it, then deletes it; the
 * server's rate limit shows as its own words. A member allows the export of their private data in
 * their settings and the owner's consent table shows it. The call provider choice offers what this
 * server has configured (BigBlueButton here, not Zoom).
 */
let ts: TestServer;
let browser: Browser;
let owner: TestUser;
let member: TestUser;
let o: AppPage;
let m: AppPage;

const EXPORTS = '#organization/data-exports-admin';
const READY = 'tr[data-status="ready"]';

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer({ PARLEY_BIGBLUEBUTTON_URL: 'https://bbb.example/bigbluebutton', PARLEY_BIGBLUEBUTTON_SECRET: 'bbb-secret' });
  owner = await makeUser(ts, 100, { fullName: 'Olga Owner' });
  member = await makeUser(ts, 400, { fullName: 'Mia Member' });
  browser = await launchBrowser();
  [o, m] = await Promise.all([signIn(browser, ts, owner, { hash: EXPORTS }), signIn(browser, ts, member, { hash: '#settings/account-and-privacy' })]);
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

afterEach(() => {
  // The rate limit's refusal is an answer the test asks for, not a fault.
  expect([o, m].flatMap((p) => p?.watch.errors ?? []).filter((e) => !/Exceeded rate limit/.test(e))).toEqual([]);
  expect([o, m].flatMap((p) => p?.watch.offMachine ?? [])).toEqual([]);
});

test('the owner starts a public export, downloads it when ready and deletes it', async () => {
  const page = o.page;
  await page.waitForSelector('[data-section="data-exports-admin"]');
  // Owners may also export private data with consent.
  expect(await page.locator('#export-type option').allTextContents()).toEqual(['Public data', 'Standard (with members’ consent)']);
  await page.getByText('No exports yet.').waitFor();
  await page.selectOption('#export-type', 'public');
  await page.click('button:has-text("Start export")');
  await page.getByRole('status').filter({ hasText: 'Export started' }).waitFor();

  // Made in the background: the row turns ready when the realm_export event says so.
  const row = page.locator(READY);
  await row.waitFor({ timeout: 45_000 });
  expect(await row.locator('td').first().textContent()).toBe('Olga Owner');
  expect(await row.locator('td').nth(1).textContent()).toBe('Public data');
  const href = await row.getByRole('link', { name: /Download the export/ }).getAttribute('href');
  expect(href).toMatch(/\.tar\.gz$/);
  // The link is absolute, on the configured external URL; the test server listens on a port of its own.
  const download = await o.context.request.get(`${ts.url}${new URL(href!).pathname}`);
  expect(download.status()).toBe(200);
  expect([...(await download.body()).subarray(0, 2)]).toEqual([0x1f, 0x8b]);

  await screenshot(page, 'webapp-exports');
  await expectAccessible(page, 'the data exports page');

  await row.getByRole('button', { name: /Delete the export/ }).click();
  await page.locator('tr[data-status="deleted"]', { hasText: 'Deleted' }).waitFor();
  expect(await page.locator('tr[data-status="deleted"] a').count()).toBe(0);
  expect(await page.locator('tr[data-status="deleted"] button').count()).toBe(0);
  const listed = assertSuccess(await client(ts, owner).get('/export/realm')).exports;
  expect(listed).toHaveLength(1);
  expect(listed[0].deleted_timestamp).not.toBeNull();
});

test('a refused export shows the server’s reason', async () => {
  const page = o.page;
  // Five exports a week, as Zulip allows: four more are accepted, the sixth is refused.
  for (let i = 0; i < 4; i++) assertSuccess(await client(ts, owner).post('/export/realm', { export_type: 'public' }));
  await page.click('button:has-text("Start export")');
  await page.getByRole('alert').filter({ hasText: 'Exceeded rate limit.' }).waitFor();
  // The accepted ones finish (before the server stops) and the list shows them all.
  await page.waitForFunction(
    () => {
      const rows = [...document.querySelectorAll('[data-testid="export-list"] tbody tr')] as any[];
      return rows.length === 5 && rows.every((r) => r.dataset.status !== 'pending');
    },
    undefined,
    { timeout: 45_000 },
  );
  expect(await page.locator(READY).count()).toBe(4);
});

test('a member allows exports of their private data and the owner sees it', async () => {
  const consentRow = (page: AppPage['page']) => page.locator(`[data-testid="consent-table"] tr[data-user-id="${member.id}"]`);
  await o.page.waitForSelector('[data-testid="consent-table"]');
  expect(await consentRow(o.page).getAttribute('data-consented')).toBe('false');

  const toggle = m.page.getByLabel('Allow administrators to export my private data');
  expect(await toggle.isChecked()).toBe(false);
  // The box shows the saved value, so it turns checked once the server has taken it.
  await toggle.click();
  await m.page.locator('.setting-toggle', { has: toggle }).getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  expect(await toggle.isChecked()).toBe(true);

  // The consents are asked again when the page opens.
  await openHash(o.page, '#organization/users');
  await o.page.waitForSelector('[data-section="users"]');
  await openHash(o.page, EXPORTS);
  await o.page.locator(`[data-testid="consent-table"] tr[data-user-id="${member.id}"][data-consented="true"]`).waitFor();
  expect(await consentRow(o.page).locator('td').allTextContents()).toEqual(['Mia Member', 'Allowed']);
  expect(await o.page.getByTestId('consent-summary').textContent()).toMatch(/^1 of \d+ members allow/);

  // The same page on a phone.
  const phone = await signIn(browser, ts, owner, { viewport: PHONE, hash: EXPORTS });
  try {
    await phone.page.waitForSelector('[data-testid="consent-table"]');
    await phone.page.locator(READY).first().waitFor();
    await screenshot(phone.page, 'webapp-exports');
    await expectAccessible(phone.page, 'the data exports page on a phone');
    expect(phone.watch.errors).toEqual([]);
  } finally {
    await phone.context.close();
  }
});

test('the call provider choice offers the providers this server has configured', async () => {
  const page = o.page;
  await openHash(page, '#organization/organization-settings');
  const select = page.getByLabel('Call provider', { exact: true });
  await select.waitFor();
  expect(await select.locator('option').allTextContents()).toEqual(['None', 'Jitsi Meet', 'BigBlueButton']);
  await select.selectOption({ label: 'BigBlueButton' });
  await page.locator('.org-setting', { has: select }).getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  const register = assertSuccess(await client(ts, owner).post('/register', { fetch_event_types: JSON.stringify(['realm']) }));
  expect(register.realm_video_chat_provider).toBe(4);
});
