import { AxeBuilder } from '@axe-core/playwright';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { type AppPage, buildWebapp, DESKTOP, makePng, openHash, PHONE, screenshot, secondTab, signIn } from '../helpers/webapp';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const document: any;
declare const window: any;

/**
 * Personal settings in the web app: a member changes their name, avatar, theme and notification
 * settings in one tab and a second tab of theirs follows each change live; the API key, zuliprc,
 * email change, lists and bots work through the GraphQL API; the views pass axe in light and dark,
 * on a desktop and a phone; deactivating one's own account ends the session.
 */
/** The page's window, for callbacks run in the page (the tests' own type-check knows no DOM). */
type PageWindow = { getComputedStyle(element: unknown): { backgroundColor: string } };

let ts: TestServer;
let browser: Browser;
let member: TestUser;
let a: AppPage;
let tab2: Page;
let design: number;
let leaving: AppPage;

/** Sections screenshotted, and checked on phones too. */
const SHOWN = ['profile', 'account-and-privacy', 'preferences', 'notifications'];
const SECTIONS = [
  'profile',
  'account-and-privacy',
  'preferences',
  'notifications',
  'subscriptions',
  'your-bots',
  'alert-words',
  'topics',
  'muted-users',
  'saved-snippets',
];

async function openSection(page: Page, section: string): Promise<void> {
  await openHash(page, `#settings/${section}`);
  await page.waitForSelector(`.settings-section[data-section="${section}"]`);
}

/** Waits until the input's value (or checkbox state) in `page` is `expected`. */
async function waitForValue(page: Page, selector: string, expected: string | boolean): Promise<void> {
  await page.waitForFunction(
    ([sel, want]) => {
      const el = document.querySelector(sel);
      if (!el) return false;
      return typeof want === 'boolean' ? el.checked === want : el.value === want;
    },
    [selector, expected] as const,
  );
}

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  member = await makeUser(ts, 400, { fullName: 'Mia Member' });
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [member.id] }));
  design = assertSuccess(await client(ts, member).get('/get_stream_id', { stream: 'design' })).stream_id;
  browser = await launchBrowser();
  const leaver = await makeUser(ts, 400, { fullName: 'Lee Leaving' });
  [a, leaving] = await Promise.all([
    signIn(browser, ts, member, { hash: '#settings/profile' }),
    signIn(browser, ts, leaver, { hash: '#settings/account-and-privacy' }),
  ]);
  tab2 = await secondTab(a, ts, '#settings/profile');
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

test('name, avatar, theme and notification changes in one tab reach the other tab live', async () => {
  const page = a.page;
  await page.waitForSelector('.settings-section[data-section="profile"]');
  await tab2.waitForSelector('.settings-section[data-section="profile"]');

  // Name: saved, shown in this tab's header at once and in the other tab by the realm_user event.
  await page.fill('#settings-full-name', 'Mia Renamed');
  await page.click('button:has-text("Save name")');
  await page.waitForSelector('.user-menu-name:text-is("Mia Renamed")');
  await waitForValue(tab2, '#settings-full-name', 'Mia Renamed');
  await tab2.waitForSelector('.user-menu-name:text-is("Mia Renamed")');
  expect(assertSuccess(await client(ts, member).get('/users/me')).full_name).toBe('Mia Renamed');

  // Avatar: an uploaded picture is served from this server, so both tabs draw it as an image.
  await page.setInputFiles('input[aria-label="Upload avatar"]', { name: 'me.png', mimeType: 'image/png', buffer: makePng(64, 64, [30, 160, 90]) });
  await page.waitForSelector('[data-testid="settings-avatar"] img.avatar');
  await tab2.waitForSelector('[data-testid="settings-avatar"] img.avatar');
  const src = await tab2.getAttribute('[data-testid="settings-avatar"] img.avatar', 'src');
  expect(src).toBe(await page.getAttribute('[data-testid="settings-avatar"] img.avatar', 'src'));
  expect(await tab2.evaluate((url) => fetch(url).then((r) => r.status), src!)).toBe(200);

  // Theme: dark at once here (the page's background turns dark), and in the other tab by the event.
  await openSection(page, 'preferences');
  await openSection(tab2, 'preferences');
  await page.selectOption('#setting-color_scheme', '2');
  await page.waitForSelector('html[data-theme="dark"]');
  await tab2.waitForSelector('html[data-theme="dark"]');
  const background = await tab2.evaluate(() => (globalThis as unknown as PageWindow).getComputedStyle(document.body).backgroundColor);
  expect(background).toBe('rgb(27, 29, 33)');
  await waitForValue(tab2, '#setting-color_scheme', '2');
  // Back to following the system, which both tabs honour again.
  await page.selectOption('#setting-color_scheme', '1');
  await tab2.waitForFunction(() => !document.documentElement.hasAttribute('data-theme'));

  // Time format, read by the message list from the settings.
  const before = await tab2.isChecked('#setting-twenty_four_hour_time');
  await page.click('#setting-twenty_four_hour_time');
  await waitForValue(tab2, '#setting-twenty_four_hour_time', !before);

  // Notifications: a global setting and one channel's own setting.
  await openSection(page, 'notifications');
  await openSection(tab2, 'notifications');
  expect(await page.isChecked('#setting-enable_stream_desktop_notifications')).toBe(false);
  await page.click('#setting-enable_stream_desktop_notifications');
  await waitForValue(tab2, '#setting-enable_stream_desktop_notifications', true);
  const perChannel = 'input[aria-label="design: Sound"]';
  expect(await page.isChecked(perChannel)).toBe(false);
  await page.click(perChannel);
  await waitForValue(tab2, perChannel, true);
  const settings = assertSuccess(await client(ts, member).post('/register', { fetch_event_types: ['user_settings', 'subscription'] }));
  expect(settings.user_settings.enable_stream_desktop_notifications).toBe(true);
  expect(settings.subscriptions.find((s: { stream_id: number }) => s.stream_id === design).audible_notifications).toBe(true);
});

test('API key after the password, zuliprc download, email change, and the server refusing a wrong password', async () => {
  const page = a.page;
  await openSection(page, 'account-and-privacy');

  // A wrong password: the server's message next to the form, no key.
  await page.fill('#settings-api-password', 'not-my-password');
  await page.click('button:has-text("Show API key")');
  const refusal = await page.waitForSelector('.settings-section [role="alert"]');
  expect((await refusal.textContent())?.length).toBeGreaterThan(0);

  await page.fill('#settings-api-password', member.password);
  await page.click('button:has-text("Show API key")');
  const key = (await (await page.waitForSelector('[data-testid="api-key"]')).textContent())!;
  expect(assertSuccess(await client(ts, { ...member, apiKey: key }).get('/users/me')).user_id).toBe(member.id);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('button:has-text("Download zuliprc")')]);
  expect(download.suggestedFilename()).toBe('zuliprc');
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text).toBe(`[api]\nemail=${member.email}\nkey=${key}\nsite=${new URL(ts.url).origin}\n`);

  await page.fill('#settings-new-email', 'mia.new@example.com');
  await page.click('button:has-text("Change email")');
  await page.waitForSelector('text=Check your email (mia.new@example.com)');
});

test('alert words, saved snippets and a bot', async () => {
  const page = a.page;
  await openSection(page, 'alert-words');
  await openSection(tab2, 'alert-words');
  await page.fill('#settings-alert-word', 'deploy');
  await page.click('button:has-text("Add alert word")');
  await tab2.waitForSelector('ul[aria-label="Alert words"] li:has-text("deploy")');
  await page.click('button:has-text("Remove deploy")');
  await tab2.waitForSelector('text=No alert words yet.');

  await openSection(page, 'saved-snippets');
  await openSection(tab2, 'saved-snippets');
  await page.fill('#settings-snippet-title', 'Greeting');
  await page.fill('#settings-snippet-content', 'Hello there!');
  await page.click('button:has-text("Save snippet")');
  await tab2.waitForSelector('ul[aria-label="Saved snippets"] li:has-text("Greeting")');
  await page.click('button:has-text("Delete Greeting")');
  await tab2.waitForSelector('text=No saved snippets yet.');

  await openSection(page, 'your-bots');
  await page.fill('#bot-full-name', 'Build Bot');
  await page.fill('#bot-short-name', 'build');
  await page.click('button:has-text("Create bot")');
  const botKey = (await (await page.waitForSelector('[data-testid="api-key"]')).textContent())!;
  const botEmail = (await page.textContent('[data-testid="api-key-email"]'))!;
  expect(botEmail).toMatch(/^build-bot@/);
  await page.waitForSelector('ul[aria-label="Your bots"] li:has-text("Build Bot")');
  const me = assertSuccess(await client(ts, { ...member, email: botEmail, apiKey: botKey }).get('/users/me'));
  expect(me.full_name).toBe('Build Bot');
});

/** axe on the settings page (the menu and the open section), failing on serious or critical violations. */
async function expectSettingsAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).include('.settings-page').analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const lines = bad.flatMap((v) => [`${v.impact}: ${v.id} — ${v.help}`, ...v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary}`)]);
  expect({ what, violations: lines }).toEqual({ what, violations: [] });
}

test('settings views pass axe with no serious or critical violations, light and dark, desktop and phone', async () => {
  // The same page in each look (no reload): the emulated system scheme and the window's size. Every
  // section on a light desktop, the main ones dark; on a phone the profile and the notifications'
  // tables. Screenshots of the main ones in every look.
  const page = a.page;
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      const sections = viewport === DESKTOP && colorScheme === 'light' ? SECTIONS : SHOWN;
      for (const section of sections) {
        await openSection(page, section);
        if (section === 'your-bots') await page.waitForSelector('ul[aria-label="Your bots"] li');
        if (viewport === DESKTOP || section === 'profile' || section === 'notifications') {
          await expectSettingsAccessible(page, `#settings/${section} (${colorScheme}${viewport === PHONE ? ', phone' : ''})`);
        }
        if (SHOWN.includes(section)) await screenshot(page, `settings-${section}`);
      }
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize(DESKTOP);
}, 150_000);

test('deactivating one’s own account asks first, then ends the session', async () => {
  const page = leaving.page;
  await page.waitForSelector('.settings-section[data-section="account-and-privacy"]');
  await page.click('button:has-text("Deactivate account")');
  await page.waitForSelector('[role="alertdialog"] button:has-text("Deactivate")');
  await page.click('[role="alertdialog"] button:has-text("Deactivate")');
  await page.waitForURL(/\/login\//);
  expect(await page.evaluate(() => window.location.pathname)).toBe('/login/');
});
