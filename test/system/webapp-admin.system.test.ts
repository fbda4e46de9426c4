import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, Page } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser, watchPage } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { APP_READY, type AppPage, buildWebapp, DESKTOP, makePng, openHash, PHONE, screenshot, signIn } from '../helpers/webapp';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const window: any;
declare const document: any;
declare const navigator: any;

/**
 * Organization administration in the web app, end to end: an administrator creates a channel and an
 * invitation link into it; the invitee signs up through the link and lands in the app with the
 * channel; the administrator makes them an administrator and back (their open tab follows live),
 * then deactivates them (their tab goes to the login page). A member forcing an administrator's
 * mutation with their session gets the server's refusal, in the API and in the app.
 */
let ts: TestServer;
let browser: Browser;
let admin: TestUser;
let member: TestUser;
let a: AppPage;
let m: AppPage;
let inviteLink = '';
let channelId = 0;
let invitee: { page: Page; errors: string[] } | null = null;

const INVITEE = { name: 'Ivy Invitee', email: 'ivy@example.com', password: 'ivy-password-123' };

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  admin = await makeUser(ts, 200, { fullName: 'Ada Admin' });
  member = await makeUser(ts, 400, { fullName: 'Mo Member' });
  browser = await launchBrowser();
  [a, m] = await Promise.all([signIn(browser, ts, admin, { hash: '#organization/channels' }), signIn(browser, ts, member)]);
  await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: ts.url });
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

afterEach(() => {
  const errors = [a, m].flatMap((p) => p?.watch.errors ?? []).concat(invitee?.errors ?? []);
  // A deactivated user's last requests are refused: that is the case under test, not a fault.
  expect(errors.filter((e) => !/401|403|Failed to load resource/.test(e))).toEqual([]);
  expect([a, m].flatMap((p) => p?.watch.offMachine ?? [])).toEqual([]);
});

test('the administrator creates a channel and copies an invitation link into it', async () => {
  const page = a.page;
  await page.waitForSelector('[data-section="channels"]');
  await page.fill('#new-channel-name', 'launch');
  await page.fill('#new-channel-description', 'Launch planning');
  await page.click('button:has-text("Create channel")');
  await page.locator('tr', { hasText: '#launch' }).waitFor();
  channelId = assertSuccess(await client(ts, admin).get('/get_stream_id', { stream: 'launch' })).stream_id;

  await openHash(page, '#organization/invites');
  await page.waitForSelector('[data-section="invites"]');
  await page.locator('label', { hasText: 'The default channels' }).locator('input').uncheck();
  await page.locator('label', { hasText: '#launch' }).locator('input').check();
  await page.click('button:has-text("Create invitation link")');
  const field = page.getByLabel('Invitation link', { exact: true });
  await field.waitFor();
  inviteLink = await field.inputValue();
  expect(inviteLink).toMatch(/\/join\/[^/]+\/$/);
  await page.click('button[aria-label="Copy invitation link"]');
  await page.getByRole('status').filter({ hasText: 'Copied' }).waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(inviteLink);
  // The link is listed among the pending invitations.
  await page.locator('tr', { hasText: 'Invitation link' }).first().waitFor();
});

test('the invitee signs up through the link and lands in the app with the channel', async () => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  const watch = watchPage(page);
  invitee = { page, errors: watch.errors };
  await page.goto(new URL(new URL(inviteLink).pathname, ts.url).toString());
  await page.fill('#email', INVITEE.email);
  await page.fill('#full_name', INVITEE.name);
  await page.fill('#password', INVITEE.password);
  await page.click('button[type=submit]');
  await page.waitForSelector(APP_READY, { state: 'attached' });
  await page.locator(`a[data-channel-id="${channelId}"]`).waitFor({ state: 'attached' });
});

test("the invitee's open tab follows their role: administrator controls appear, then go", async () => {
  const page = invitee!.page;
  await openHash(page, '#organization/users');
  await page.waitForSelector('[data-section="users"]');
  const adminControl = page.locator('select[aria-label="Role of Ada Admin"]');
  const adminNav = page.locator('.org-nav a[href="#organization/deactivated"]');
  expect(await adminControl.count()).toBe(0);
  expect(await adminNav.count()).toBe(0);

  await openHash(a.page, '#organization/users');
  const role = a.page.locator(`select[aria-label="Role of ${INVITEE.name}"]`);
  await role.selectOption('200');
  await adminControl.waitFor();
  await adminNav.waitFor();

  await role.selectOption('400');
  await adminControl.waitFor({ state: 'detached' });
  await adminNav.waitFor({ state: 'detached' });
  expect(assertSuccess(await client(ts, admin).get(`/users/${INVITEE.email}`)).user.role).toBe(400);
});

test('deactivating the invitee ends their session: their tab goes to the login page', async () => {
  const page = invitee!.page;
  await a.page.click(`button[aria-label="Deactivate ${INVITEE.name}"]`);
  const dialog = a.page.locator('[role=alertdialog]');
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await page.waitForURL(/\/login\//);
  await a.page.locator(`tr:has-text("${INVITEE.name}")`).waitFor({ state: 'detached' });
  await openHash(a.page, '#organization/deactivated');
  await a.page.locator(`button[aria-label="Reactivate ${INVITEE.name}"]`).waitFor();
});

test("a member forcing an administrator's mutation gets the server's refusal, in the API and in the app", async () => {
  const forced = await m.page.evaluate(async () => {
    const token = document.querySelector('meta[name="csrf-token"]').content;
    const res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-CSRFToken': token },
      body: JSON.stringify({ query: 'mutation { updateRealmSettings(settings: { name: "Taken over" }) { changed } }' }),
    });
    return { status: res.status, body: (await res.json()) as { data?: unknown; errors: { message: string }[] } };
  });
  expect(forced.body.data ?? null).toBeNull();
  const message: string = forced.body.errors[0].message;
  expect(message).toMatch(/administrator|not allowed|permission/i);
  expect(assertSuccess(await client(ts, member).get('/server_settings')).realm_name).not.toBe('Taken over');

  // In the app the control is read-only for a member; forced on, the server's words are shown.
  await openHash(m.page, '#organization/organization-settings');
  await m.page.waitForSelector('[data-testid="org-read-only"]');
  const box = m.page.getByLabel('Allow message editing', { exact: true });
  expect(await box.isDisabled()).toBe(true);
  await box.evaluate((el: any) => {
    el.disabled = false;
  });
  await box.click();
  await m.page.getByRole('alert').filter({ hasText: message }).waitFor();
});

test('the administrator adds a custom emoji and an organization icon (file uploads with the session)', async () => {
  const page = a.page;
  const png = { name: 'rocket.png', mimeType: 'image/png', buffer: makePng(16, 16) };
  await openHash(page, '#organization/emoji-settings');
  await page.waitForSelector('[data-section="emoji-settings"]');
  await page.fill('#emoji-name', 'rocket_launch');
  await page.setInputFiles('#emoji-file', png);
  await page.click('button:has-text("Add emoji")');
  await page.locator('tr', { hasText: ':rocket_launch:' }).waitFor();
  const emoji = assertSuccess(await client(ts, member).get('/realm/emoji')).emoji as Record<string, { name: string; author_id: number }>;
  expect(Object.values(emoji).map((e) => [e.name, e.author_id])).toContainEqual(['rocket_launch', admin.id]);

  await openHash(page, '#organization/organization-profile');
  await page.waitForSelector('[data-section="organization-profile"]');
  await page.locator('fieldset', { hasText: 'Organization icon' }).locator('input[type=file]').setInputFiles(png);
  await page.locator('img[alt="Current organization icon"]').waitFor();
  expect(assertSuccess(await client(ts, member).get('/server_settings')).realm_icon).toMatch(/^\/user_avatars\//);
});

/** axe on the administration page alone (the sidebars around it have tests of their own). */
async function expectAdminAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include('.org-page').analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const lines = bad.flatMap((v) => [`${v.impact}: ${v.id} — ${v.help}`, ...v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary}`)]);
  expect({ what, violations: lines }).toEqual({ what, violations: [] });
}

const SECTIONS = ['organization-profile', 'organization-permissions', 'users', 'invites', 'channels', 'user-groups'];

test('axe finds no serious or critical violation in the administration views', async () => {
  for (const section of SECTIONS) {
    await openHash(a.page, `#organization/${section}`);
    await a.page.waitForSelector(`[data-section="${section}"]`);
    await expectAdminAccessible(a.page, `#organization/${section}`);
  }
  // A member's read-only view, and a dialog open.
  await openHash(m.page, '#organization/organization-permissions');
  await m.page.waitForSelector('[data-section="organization-permissions"]');
  await expectAdminAccessible(m.page, "a member's #organization/organization-permissions");
  await openHash(a.page, '#organization/channels');
  await a.page.click('button[aria-label="Edit #launch"]');
  await a.page.waitForSelector('dialog[open]');
  await expectAdminAccessible(a.page, 'the channel dialog');
  await a.page.keyboard.press('Escape');
});

test('screenshots: desktop and phone, light and dark', async () => {
  const page = a.page;
  for (const [viewport, colorScheme] of [
    [DESKTOP, 'light'],
    [DESKTOP, 'dark'],
    [PHONE, 'light'],
    [PHONE, 'dark'],
  ] as const) {
    await page.setViewportSize(viewport);
    // Reduced motion: the phone's drawers are drawn where they end, not mid-slide.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    for (const section of ['users', 'organization-permissions', 'invites']) {
      await openHash(page, `#organization/${section}`);
      await page.waitForSelector(`[data-section="${section}"]`);
      await screenshot(page, `admin-${section}`);
    }
  }
  await page.setViewportSize(DESKTOP);
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: null });
});
