import type { Browser, Page } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { type AppPage, buildWebapp, channelUnread, openHash, signIn, waitForChannelUnread } from '../helpers/webapp';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const window: any;
declare const document: any;

/**
 * Finding conversations in the web app: the sidebar's counts and topics live, marking as read, the
 * inbox, search operators and suggestions, browsing channels, the people list and user cards, the
 * keyboard shortcuts and the tab title. Alice waits on #inbox (which marks nothing read) while Bob
 * writes to her through the REST API.
 */
let ts: TestServer;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let design: number;
let engineering: number;
let app: AppPage;
let page: Page;

const say = async (to: string, topic: string, content: string) =>
  assertSuccess(await client(ts, bob).post('/messages', { type: 'stream', to, topic, content })).id as number;
const hash = () => page.evaluate(() => window.location.hash as string);
const waitForHash = (pattern: RegExp) => page.waitForFunction((source) => new RegExp(source).test(window.location.hash), pattern.source);

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Anderson' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Brown' });
  for (const name of ['design', 'engineering']) {
    assertSuccess(
      await client(ts, ts.owner).post('/users/me/subscriptions', {
        subscriptions: [{ name, description: `All about ${name}` }],
        principals: [alice.id, bob.id],
      }),
    );
  }
  assertSuccess(await client(ts, bob).post('/users/me/subscriptions', { subscriptions: [{ name: 'gardening' }] }));
  design = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'design' })).stream_id;
  engineering = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'engineering' })).stream_id;
  browser = await launchBrowser();
  app = await signIn(browser, ts, alice);
  page = app.page;
  await openHash(page, '#inbox');
  await page.locator('.inbox-view').waitFor();
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

afterEach(() => expect(app.watch.errors).toEqual([]));

test('new messages count live in the sidebar, the inbox and the tab title', async () => {
  await say('design', 'colours', 'Which blue?');
  await say('design', 'colours', 'See https://example.com/blue');
  await say('design', 'logo', 'New logo draft');
  await say('engineering', 'deploys', 'Deploy at 15:00');
  assertSuccess(await client(ts, bob).post('/messages', { type: 'direct', to: [alice.id], content: 'Can you review?' }));

  await waitForChannelUnread(page, design, (n) => n === 3, '3 in design');
  expect(await channelUnread(page, engineering)).toBe(1);
  await page.locator(`a[data-dm-key="${bob.id}"] .count`, { hasText: '1' }).waitFor();
  await page.waitForFunction(() => document.title.startsWith('(5) '));
  await page.locator('a[href="#inbox"] .count', { hasText: '5' }).waitFor();
  // The inbox: one group per channel and the direct messages, a row per conversation.
  await page.locator('.inbox-view .inbox-row', { hasText: 'colours' }).waitFor();
  expect(await page.locator('.inbox-view .inbox-row').count()).toBe(4);
});

test('the open channel lists its topics; a topic is marked as read from the sidebar', async () => {
  // In the "colours" topic the channel is open (its topics listed) and "logo" stays unread.
  await openHash(page, `#narrow/channel/${design}-design/topic/colours`);
  await page.locator('a[data-topic="colours"]').waitFor();
  const row = page.locator('li.row', { has: page.locator('a[data-topic="logo"]') });
  await row.locator('.count', { hasText: '1' }).waitFor();
  await row.hover();
  await row.getByRole('button', { name: 'Mark topic logo as read' }).click();
  await row.locator('.count').waitFor({ state: 'detached' });
  const stored = assertSuccess(
    await client(ts, alice).get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [
        { operator: 'channel', operand: design },
        { operator: 'topic', operand: 'logo' },
      ],
    }),
  );
  expect(stored.messages.length).toBe(1);
  expect(stored.messages[0].flags).toContain('read');
});

test('search: operators become a narrow, suggestions are chosen by keyboard', async () => {
  await page.keyboard.press('/');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('search');
  await page.keyboard.type(`sender:${bob.email} has:link`);
  await page.keyboard.press('Enter');
  await waitForHash(new RegExp(`^#narrow/sender/${bob.id}[^/]*/has/link$`));
  await page.locator('.narrow-header', { hasText: 'Search results' }).waitFor();
  await page.locator('[data-message-id]', { hasText: 'example.com/blue' }).waitFor();
  expect(await page.locator('[data-message-id]').count()).toBe(1);

  await page.fill('#search', '');
  await page.click('#search');
  await page.keyboard.type('channel:engi');
  const option = page.locator('[role=listbox]#search-suggestions [role=option]', { hasText: 'channel:engineering' });
  await option.waitFor();
  await page.keyboard.press('ArrowDown');
  expect(await option.getAttribute('aria-selected')).toBe('true');
  await page.keyboard.press('Enter');
  await waitForHash(new RegExp(`^#narrow/channel/${engineering}-engineering$`));
  await page.locator('.narrow-header', { hasText: 'All about engineering' }).waitFor();
});

test('browsing channels: subscribing adds the channel to the sidebar, unsubscribing removes it', async () => {
  await openHash(page, '#channels');
  await page.getByRole('button', { name: 'Subscribe to gardening' }).click();
  await page.locator('a[data-channel-id]', { hasText: 'gardening' }).waitFor();
  await page.getByRole('button', { name: 'Unsubscribe from gardening' }).click();
  await page.locator('a[data-channel-id]', { hasText: 'gardening' }).waitFor({ state: 'detached' });
});

test("a person's card opens a direct message with them", async () => {
  await page.fill('input[aria-label="Filter people"]', 'bob');
  await page.locator('button.person', { hasText: 'Bob Brown' }).click();
  const card = page.getByRole('dialog', { name: 'Bob Brown' });
  await card.waitFor();
  expect(await card.textContent()).toContain(bob.email);
  await card.getByRole('link', { name: 'Send direct message' }).click();
  await waitForHash(new RegExp(`^#narrow/dm/${bob.id}-dm$`));
  await page.locator('.narrow-header', { hasText: 'Direct messages with Bob Brown' }).waitFor();
  await page.fill('input[aria-label="Filter people"]', '');
});

test('keyboard: ? lists the shortcuts, n opens the next unread conversation, Esc goes to the home view (Inbox by default)', async () => {
  await openHash(page, '#inbox');
  await say('engineering', 'incidents', 'Something broke');
  await page.locator('.inbox-row', { hasText: 'incidents' }).waitFor();
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  await page.keyboard.press('n');
  await waitForHash(/^#narrow\/(channel|dm)\//);
  expect(await hash()).not.toBe('#inbox');
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press('Escape');
  await waitForHash(/^#inbox$/);
});

test('mark all as read asks first, then clears every count and the title', async () => {
  await openHash(page, '#inbox');
  await say('design', 'late', 'One more thing');
  await waitForChannelUnread(page, design, (n) => n > 0, 'a new unread message');
  await page.getByRole('button', { name: 'Mark all messages as read' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Mark all messages as read?' });
  await confirm.getByRole('button', { name: 'Mark as read' }).click();
  await waitForChannelUnread(page, design, (n) => n === 0, 'no unread messages');
  await page.waitForFunction(() => !document.title.startsWith('('));
  expect(await page.locator('.left-sidebar .count:not(.quiet)').count()).toBe(0);
});
