import type { Browser, Page } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import {
  type AppPage,
  buildWebapp,
  DESKTOP,
  drawnMessageId,
  expectAccessible,
  messageSelector,
  openCompose,
  openHash,
  PHONE,
  screenshot,
  signIn,
} from '../helpers/webapp';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const document: any;

/**
 * The web app's main views: no serious accessibility violation (axe), the main flow by keyboard
 * alone, and screenshots of each view on a desktop and a phone, light and dark, written to
 * test-artifacts/screenshots for people to look at.
 */
let ts: TestServer;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let channel: number;
let app: AppPage;

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Anderson' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Brown' });
  for (const name of ['design', 'engineering', 'random']) {
    assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [alice.id, bob.id] }));
  }
  channel = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'design' })).stream_id;
  // A conversation worth looking at: topics, Markdown, a DM, a reaction.
  const say = async (who: TestUser, to: string, topic: string, content: string) =>
    assertSuccess(await client(ts, who).post('/messages', { type: 'stream', to, topic, content })).id as number;
  await say(alice, 'design', 'colours', 'Which **blue** do we use for links?');
  const answer = await say(bob, 'design', 'colours', 'The one in `styles/app.css`:\n```css\na { color: var(--link); }\n```');
  assertSuccess(await client(ts, alice).post(`/messages/${answer}/reactions`, { emoji_name: 'tada' }));
  await say(alice, 'design', 'keyboard', 'Shortcuts are documented under **?**');
  await say(bob, 'engineering', 'deploys', 'Deploy at 15:00 — any objections?\n- migrations\n- [release notes](https://example.com/notes)');
  await say(alice, 'random', 'lunch', 'Pizza on Friday?');
  assertSuccess(await client(ts, bob).post('/messages', { type: 'direct', to: [alice.id], content: 'Can you review my change?' }));
  // Enter sends for Alice (Zulip's default is Ctrl+Enter), as the keyboard test types.
  assertSuccess(await client(ts, alice).patch('/settings', { enter_sends: true }));
  browser = await launchBrowser();
  app = await signIn(browser, ts, alice);
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

/** The views and how to know each one is drawn. */
const VIEWS: { name: string; hash: () => string; ready: string }[] = [
  { name: 'feed', hash: () => '#feed', ready: '[data-message-id]' },
  { name: 'inbox', hash: () => '#inbox', ready: '.inbox-view' },
  { name: 'topic', hash: () => `#narrow/channel/${channel}-design/topic/colours`, ready: '[data-message-id] .reaction' },
  { name: 'dm', hash: () => `#narrow/dm/${bob.id}-dm`, ready: '[data-message-id]' },
  { name: 'channels', hash: () => '#channels', ready: 'main :text("engineering")' },
  { name: 'settings', hash: () => '#settings/profile', ready: 'main input, main select' },
];

async function show(page: Page, view: (typeof VIEWS)[number]): Promise<void> {
  await openHash(page, view.hash());
  await page.locator(view.ready).first().waitFor({ state: 'attached' });
  // Images (avatars, emoji) drawn before judging or picturing the page.
  await page.waitForFunction(() => [...document.images].every((img: any) => img.complete));
}

describe('no serious accessibility violation', () => {
  // The topic and DM views are checked with compose open, below (axe takes seconds a page).
  const checked = VIEWS.filter((v) => ['feed', 'inbox', 'settings'].includes(v.name));
  test.each(checked.map((v) => [v.name, v] as const))('in the %s view', async (_name, view) => {
    await show(app.page, view);
    await expectAccessible(app.page, `the ${view.name} view`);
  });

  test('with compose open', async () => {
    const page = app.page;
    await show(page, VIEWS[2]);
    await openCompose(page);
    await page.fill('#compose-textarea', 'A draft with **Markdown**');
    await expectAccessible(page, 'the topic view with compose open');
    await page.fill('#compose-textarea', '');
  });

  test('in search suggestions and results', async () => {
    const page = app.page;
    await show(page, VIEWS[0]);
    const search = page.locator('input#search');
    await search.fill('blue');
    await page.locator('#search-suggestions [role=option]').first().waitFor();
    await expectAccessible(page, 'the search suggestions');
    await search.press('Enter');
    await page.locator('[data-message-id]', { hasText: 'blue' }).first().waitFor();
    await expectAccessible(page, 'the search results');
  });

  afterEach(() => expect(app.watch.errors).toEqual([]));
});

test('the main flow by keyboard alone: search with /, then c, type, Enter sends', async () => {
  const page = app.page;
  await openHash(page, '#feed');
  await page.locator('[data-message-id]', { hasText: 'Which blue' }).waitFor();
  await page.evaluate(() => document.activeElement?.blur());

  await page.keyboard.press('/');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
  await page.keyboard.type('channel:design topic:keyboard');
  await page.keyboard.press('Enter');
  // The feed before the search also shows the topic's message: wait for the other topics to go.
  await page.locator('[data-message-id]', { hasText: 'Which blue' }).first().waitFor({ state: 'detached' });
  await page.locator('[data-message-id]', { hasText: 'Shortcuts are documented' }).waitFor();

  await page.keyboard.press('c');
  await page.waitForFunction(() => document.activeElement?.id === 'compose-textarea');
  await page.keyboard.type('Typed without a mouse');
  await page.keyboard.press('Enter');
  const id = await drawnMessageId(page, 'Typed without a mouse');
  const stored = assertSuccess(await client(ts, alice).get(`/messages/${id}`)).message;
  expect(stored).toMatchObject({ stream_id: channel, subject: 'keyboard', content: '<p>Typed without a mouse</p>' });
  await page.locator(messageSelector(id)).waitFor();
  expect(app.watch.errors).toEqual([]);
});

test('screenshots of the main views on a desktop and a phone, light and dark', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const shot = await signIn(browser, ts, alice, { viewport, colorScheme });
      for (const view of VIEWS) {
        await show(shot.page, view);
        await screenshot(shot.page, view.name);
      }
      await show(shot.page, VIEWS[2]);
      await openCompose(shot.page);
      await shot.page.fill('#compose-textarea', 'Looks good to me!');
      await screenshot(shot.page, 'compose');
      // Nothing wider than the screen: no sideways scrolling on a phone.
      expect(await shot.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      expect(shot.watch.errors).toEqual([]);
      await shot.context.close();
    }
  }
});
