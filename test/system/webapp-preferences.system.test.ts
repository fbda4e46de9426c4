import type { Browser, Page } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { type AppPage, buildWebapp, DESKTOP, messageSelector, openHash, screenshot, signIn } from '../helpers/webapp';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const document: any;
declare const window: any;

/**
 * The user's display settings take effect in an open tab: each is changed over REST (as another
 * client would) and the page follows through the user_settings event, without a reload.
 */
/** The page's window, for callbacks run in the page (the tests' own type-check knows no DOM). */
type PageWindow = { getComputedStyle(element: unknown, pseudo?: string): Record<string, string> };

let ts: TestServer;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let channel: number;
let tada: number;
let app: AppPage;
let page: Page;

const setting = async (changes: Record<string, unknown>) => assertSuccess(await client(ts, alice).patch('/settings', changes));
const hash = () => page.evaluate(() => window.location.hash as string);

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Anderson' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Brown' });
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'design' }], principals: [alice.id, bob.id] }));
  channel = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'design' })).stream_id;
  tada = assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: 'design', topic: 'launch', content: 'We shipped :tada:' })).id;
  assertSuccess(await client(ts, alice).post('/messages/flags', { messages: [tada], op: 'add', flag: 'starred' }));
  assertSuccess(await client(ts, bob).post('/users/me/status', { status_text: 'On holiday' }));
  browser = await launchBrowser();
  app = await signIn(browser, ts, alice);
  page = app.page;
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

afterEach(() => {
  expect(app?.watch.errors ?? []).toEqual([]);
});

test('the home view: the empty hash, the logo and Esc follow web_home_view', async () => {
  // Zulip's default home view is the inbox.
  expect(await hash()).toBe('');
  await page.locator('.inbox-view:not(.recent-view)').waitFor();
  expect(await page.getAttribute('a.realm', 'href')).toBe('#inbox');

  await setting({ web_home_view: 'all_messages' });
  await page.locator(`.narrow-view ${messageSelector(tada)}`).waitFor();
  expect(await page.getAttribute('a.realm', 'href')).toBe('#feed');

  await setting({ web_home_view: 'recent' });
  await page.locator('.recent-view').waitFor();
  await openHash(page, '#narrow/is/starred');
  await page.locator(messageSelector(tada)).waitFor();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Escape');
  await page.waitForFunction(() => window.location.hash === '#recent');

  // Without web_escape_navigates_to_home_view, Esc leaves the view alone.
  // Events come in order: once a later change shows, this one has arrived.
  await setting({ web_escape_navigates_to_home_view: false });
  await setting({ starred_message_counts: false });
  await page.locator('a[href="#narrow/is/starred"] .count').waitFor({ state: 'detached' });
  await setting({ starred_message_counts: true });
  await openHash(page, '#narrow/is/starred');
  await page.locator(messageSelector(tada)).waitFor();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  expect(await hash()).toBe('#narrow/is/starred');
  await page.click('a.realm');
  await page.waitForFunction(() => window.location.hash === '#recent');
});

test('starred_message_counts shows or hides the starred count', async () => {
  const count = page.locator('a[href="#narrow/is/starred"] .count');
  await count.filter({ hasText: '1' }).waitFor();
  await setting({ starred_message_counts: false });
  await count.waitFor({ state: 'detached' });
  await setting({ starred_message_counts: true });
  await count.filter({ hasText: '1' }).waitFor();
});

test('emojiset "text" shows emoji as their :name:, in messages and reactions', async () => {
  assertSuccess(await client(ts, bob).post(`/messages/${tada}/reactions`, { emoji_name: 'tada' }));
  await openHash(page, `#narrow/channel/${channel}-design/topic/launch`);
  const content = page.locator(`${messageSelector(tada)} .message-content`);
  await content.filter({ hasText: '🎉' }).waitFor();
  await setting({ emojiset: 'text' });
  await content.filter({ hasText: ':tada:' }).waitFor();
  const pill = page.locator(`${messageSelector(tada)} .reaction[data-emoji-name="tada"]`);
  expect(await pill.evaluate((el: any) => (globalThis as unknown as PageWindow).getComputedStyle(el, '::before').content)).toBe('":tada:"');
  await screenshot(page, 'preferences-emoji-text');
  await setting({ emojiset: 'google' });
  await content.filter({ hasText: '🎉' }).waitFor();
  expect(await pill.evaluate((el: any) => (globalThis as unknown as PageWindow).getComputedStyle(el, '::before').content)).toBe('none');
});

test('fluid_layout_width: at most 1400px wide and centred, or the whole window', async () => {
  await page.setViewportSize({ width: 1700, height: 800 });
  const width = () => page.evaluate(() => document.querySelector('.app-body').getBoundingClientRect().width as number);
  await page.waitForFunction(() => document.querySelector('.app-body').getBoundingClientRect().width === 1400);
  expect(await page.evaluate(() => document.querySelector('.app-body').getBoundingClientRect().left)).toBe(150);
  await setting({ fluid_layout_width: true });
  await page.waitForFunction(() => document.querySelector('.app-body').getBoundingClientRect().width === 1700);
  expect(await width()).toBe(1700);
  await setting({ fluid_layout_width: false });
  await page.setViewportSize(DESKTOP);
});

test('user_list_style: names only, with status text, with avatars', async () => {
  const bobRow = page.locator(`.right-sidebar button.person[data-user-id="${bob.id}"]`);
  // The server's default (as Zulip's) shows avatars and status text.
  await page.locator('.people-list[data-list-style="with-avatar"]').waitFor();
  await bobRow.locator('.person-avatar').waitFor();
  await bobRow.locator('.person-status', { hasText: 'On holiday' }).waitFor();
  await setting({ user_list_style: 1 });
  await page.locator('.people-list[data-list-style="compact"]').waitFor();
  expect(await bobRow.locator('.person-status, .person-avatar').count()).toBe(0);
  await setting({ user_list_style: 2 });
  await page.locator('.people-list[data-list-style="with-status"]').waitFor();
  await bobRow.locator('.person-status', { hasText: 'On holiday' }).waitFor();
  expect(await bobRow.locator('.person-avatar').count()).toBe(0);
});

test('left_side_userlist: in a narrow window the people list moves into the left sidebar', async () => {
  await page.setViewportSize({ width: 900, height: 800 });
  const peopleButton = page.locator('.top-bar button[aria-label="People"]');
  const leftPeople = page.locator('.left-sidebar [aria-label="People"]');
  await peopleButton.waitFor();
  expect(await leftPeople.count()).toBe(0);
  await setting({ left_side_userlist: true });
  await leftPeople.locator(`button.person[data-user-id="${bob.id}"]`).waitFor();
  expect(await peopleButton.count()).toBe(0);
  expect(await page.locator('.right-sidebar').count()).toBe(0);
  await screenshot(page, 'preferences-left-userlist');
  // On a wide window the list stays on the right, as in Zulip.
  await page.setViewportSize(DESKTOP);
  await page.locator(`.right-sidebar button.person[data-user-id="${bob.id}"]`).waitFor();
  expect(await leftPeople.count()).toBe(0);
});

test('the channel list: where a channel link leads, which counts show, inactive channels demoted', async () => {
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'archive' }], principals: [alice.id] }));
  const archive = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'archive' })).stream_id;
  assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to: 'design', topic: 'later', content: 'Unread news' }));
  // The server marks channels without recent messages (Zulip: 180 days); this one is marked by hand.
  await ts.server.deps.knex('streams').where({ id: archive }).update({ is_recently_active: false });
  await setting({ demote_inactive_streams: 2, web_channel_default_view: 4 });
  await openHash(page, '#inbox');
  await page.reload();
  const link = page.locator(`a[data-channel-id="${channel}"]`);
  await page.locator(`.channel-list.inactive a[data-channel-id="${archive}"]`).waitFor();
  // Top unread topic.
  expect(await link.getAttribute('href')).toBe(`#narrow/channel/${channel}-design/topic/later`);
  await link.locator('.count', { hasText: '1' }).waitFor();

  await setting({ web_stream_unreads_count_display_policy: 3 });
  await link.locator('.unread-dot').waitFor();
  expect(await link.locator('.count').count()).toBe(0);
  await setting({ web_channel_default_view: 2 });
  await page.waitForFunction((id) => document.querySelector(`a[data-channel-id="${id}"]`).getAttribute('href').endsWith('-design'), channel);
  await screenshot(page, 'preferences-channel-list');

  // Automatic demotes only with 20 channels or more, as in Zulip.
  await setting({ demote_inactive_streams: 1 });
  await page.locator('.channel-list.inactive').waitFor({ state: 'detached' });
  await page.locator(`a[data-channel-id="${archive}"]`).waitFor();
});
