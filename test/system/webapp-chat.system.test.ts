import type { Browser, Locator, Page } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import {
  type AppPage,
  buildWebapp,
  channelUnread,
  drawnMessageId,
  makePng,
  messageAction,
  messageSelector,
  messageText,
  openCompose,
  openHash,
  secondTab,
  sendFromCompose,
  signIn,
  waitForChannelUnread,
} from '../helpers/webapp';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const window: any;
declare const document: any;

/**
 * The web app end to end: Alice and Bob, each signed in through /login/ in a browser context of
 * their own, chat in a channel and in a DM, and each sees what the other does live: typing, new
 * messages, reactions, edits, deletions, read state; then search, an upload and #narrow links as
 * Zulip's missed-message emails write them.
 */
let ts: TestServer;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let design: number;
let other: number;
let a: AppPage;
let b: AppPage;

const topicHash = (topic: string) => `#narrow/channel/${design}-design/topic/${topic}`;

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Anderson' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Brown' });
  for (const name of ['design', 'other']) {
    assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: [alice.id, bob.id] }));
  }
  design = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'design' })).stream_id;
  other = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'other' })).stream_id;
  browser = await launchBrowser();
  [a, b] = await Promise.all([signIn(browser, ts, alice), signIn(browser, ts, bob)]);
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

afterEach(() => {
  // No script error on either side, whatever the test did.
  const watches = [a?.watch, b?.watch].filter((w) => w !== undefined);
  expect(watches.flatMap((w) => w.errors)).toEqual([]);
  expect(watches.flatMap((w) => w.offMachine)).toEqual([]);
});

test('a channel message: Bob sees Alice typing, then her message, live', async () => {
  await openHash(a.page, topicHash('greetings'));
  await openHash(b.page, topicHash('greetings'));
  await openCompose(a.page);
  await a.page.locator('#compose-textarea').pressSequentially('Hello Bob');
  const typing = b.page.locator('[data-testid="typing"]');
  await typing.filter({ hasText: 'Alice Anderson is typing' }).waitFor();

  await a.page.click('button[aria-label="Send"]');
  const id = await drawnMessageId(a.page, 'Hello Bob');
  expect(await messageText(b.page, id)).toContain('Hello Bob');
  expect(await b.page.textContent(`${messageSelector(id)} .sender-name`)).toBe('Alice Anderson');
  // The send cleared the box, and Bob's view no longer says she is typing.
  expect(await a.page.inputValue('#compose-textarea').catch(() => '')).toBe('');
  await typing.filter({ hasText: 'Alice Anderson' }).waitFor({ state: 'detached' });
  // The server stored what the page showed.
  const stored = assertSuccess(await client(ts, bob).get(`/messages/${id}`)).message;
  expect(stored).toMatchObject({ sender_id: alice.id, stream_id: design, subject: 'greetings' });
});

test('a direct message reaches Bob live', async () => {
  await openHash(a.page, `#narrow/dm/${bob.id}-dm`);
  await openHash(b.page, `#narrow/dm/${alice.id}-dm`);
  const id = await sendFromCompose(a.page, 'Just between us', 'x');
  expect(await messageText(b.page, id)).toContain('Just between us');
  const stored = assertSuccess(await client(ts, bob).get(`/messages/${id}`)).message;
  expect(stored.type).toBe('private');
  expect(stored.display_recipient.map((r: { id: number }) => r.id).sort()).toEqual([alice.id, bob.id].sort());
});

test('reactions, edits and deletions show on the other side live', async () => {
  await openHash(a.page, topicHash('changes'));
  await openHash(b.page, topicHash('changes'));
  const id = await sendFromCompose(a.page, 'First draft of the plan');
  await messageText(b.page, id);

  // Alice reacts through the picker.
  const mine = a.page.locator(messageSelector(id));
  await mine.hover();
  await mine.locator('button[aria-label="Add reaction"]').click();
  const picker = a.page.locator('[role="dialog"][aria-label="Emoji picker"]');
  await picker.locator('input[aria-label="Search emoji"]').fill('tada');
  await picker.locator('button[data-emoji-name="tada"]').first().click();
  const reaction = `${messageSelector(id)} .reaction[data-emoji-name="tada"]`;
  await expectAttribute(a.page, reaction, 'aria-pressed', 'true');
  const bobReaction = b.page.locator(reaction);
  await bobReaction.waitFor();
  expect((await bobReaction.textContent())?.trim()).toContain('1');
  expect(await bobReaction.getAttribute('aria-pressed')).toBe('false');

  // Bob adds his by clicking the same reaction: the count is 2 on both sides.
  await bobReaction.click();
  await expectAttribute(b.page, reaction, 'aria-pressed', 'true');
  await a.page.locator(reaction, { hasText: '2' }).waitFor();

  // Alice edits it.
  await messageAction(a.page, id, 'Edit');
  const editBox = a.page.locator('textarea[aria-label="Edit message"]');
  await editBox.fill('Final plan');
  await a.page.getByRole('button', { name: 'Save', exact: true }).click();
  await b.page.locator(`${messageSelector(id)} .message-content`, { hasText: 'Final plan' }).waitFor();
  await b.page.locator(`${messageSelector(id)} .edited-mark`).waitFor();
  expect(assertSuccess(await client(ts, bob).get(`/messages/${id}`)).message.content).toBe('<p>Final plan</p>');

  // And deletes it.
  await messageAction(a.page, id, 'Delete');
  await a.page.locator('[role=alertdialog]').getByRole('button', { name: 'Delete', exact: true }).click();
  await b.page.locator(messageSelector(id)).waitFor({ state: 'detached' });
  await a.page.locator(messageSelector(id)).waitFor({ state: 'detached' });
});

test("reading a conversation lowers Bob's unread count, in his other tab too", async () => {
  await openHash(b.page, `#narrow/channel/${other}-other`);
  const tab2 = await secondTab(b, ts, `#narrow/channel/${other}-other`);
  try {
    const before = await channelUnread(tab2, design);
    const ids: number[] = [];
    for (const n of [1, 2, 3]) {
      ids.push(assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: design, topic: 'unread', content: `Unread ${n}` })).id);
    }
    // Both tabs count the new messages live.
    const counted = await waitForChannelUnread(tab2, design, (n) => n >= before + 3, `at least ${before + 3}`);
    await waitForChannelUnread(b.page, design, (n) => n === counted, String(counted));
    expect(await tab2.title()).toMatch(/^\(\d+\) /);

    // Bob reads the topic in his first tab.
    await openHash(b.page, topicHash('unread'));
    await b.page.locator(messageSelector(ids[2])).waitFor();
    await waitForChannelUnread(b.page, design, (n) => n <= counted - 3, `at most ${counted - 3}`);
    // The server has them read, and the other tab follows live.
    await waitForChannelUnread(tab2, design, (n) => n <= counted - 3, `at most ${counted - 3} in the second tab`);
    for (const id of ids) expect(assertSuccess(await client(ts, bob).get(`/messages/${id}`)).message.flags).toContain('read');
  } finally {
    await tab2.close();
  }
});

test('search finds a message and highlights the word', async () => {
  const id = assertSuccess(
    await client(ts, alice).post('/messages', { type: 'stream', to: design, topic: 'search', content: 'The flamingo budget is approved' }),
  ).id;
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: design, topic: 'search', content: 'Nothing to see' }));
  const search = b.page.locator('input#search');
  await search.click();
  await search.fill('channel:design flamingo');
  await search.press('Enter');
  const result = b.page.locator(messageSelector(id));
  await result.waitFor();
  await result
    .locator('.highlight, mark')
    .filter({ hasText: /flamingo/i })
    .first()
    .waitFor();
  expect(await b.page.locator('[data-message-id]', { hasText: 'Nothing to see' }).count()).toBe(0);
  expect(decodeURIComponent(await b.page.evaluate(() => window.location.hash))).toMatch(/search\/flamingo/);
});

test('an uploaded image shows its preview in the message', async () => {
  await openHash(a.page, topicHash('pictures'));
  await openHash(b.page, topicHash('pictures'));
  await openCompose(a.page);
  await a.page.setInputFiles('input[type=file][aria-label="Upload files"]', { name: 'red-square.png', mimeType: 'image/png', buffer: makePng(16, 16) });
  // The upload's link lands in the box.
  await a.page.waitForFunction(() => (document.querySelector('#compose-textarea')?.value ?? '').includes('/user_uploads/'));
  await a.page.click('button[aria-label="Send"]');
  const sent = a.page.locator('[data-message-id]', { has: a.page.locator('.message-content img') }).last();
  await sent.waitFor();
  const id = Number(await sent.getAttribute('data-message-id'));
  for (const page of [a.page, b.page]) {
    await page
      .locator(`${messageSelector(id)} img`)
      .first()
      .waitFor();
    await page.waitForFunction(
      (sel) => {
        const img = document.querySelector(sel);
        return img !== null && img.complete && img.naturalWidth > 0;
      },
      `${messageSelector(id)} .message-content img`,
    );
  }
  const stored = assertSuccess(await client(ts, bob).get(`/messages/${id}`)).message;
  expect(stored.content).toMatch(/\/user_uploads\/.*red-square\.png/);
});

test('#narrow links from a missed-message email open the conversation at the message', async () => {
  // Enough messages in the topic that the linked one is not simply the newest.
  const linked = assertSuccess(
    await client(ts, alice).post('/messages', { type: 'stream', to: design, topic: 'release plan', content: 'Linked from the email' }),
  ).id;
  for (let n = 0; n < 5; n++)
    assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: design, topic: 'release plan', content: `later ${n}` }));
  const elsewhere = assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: design, topic: 'elsewhere', content: 'Another topic' })).id;
  const dm = assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content: 'A DM from the email' })).id;

  const page = await b.context.newPage();
  try {
    await page.goto(`${ts.url}/#narrow/channel/${design}-design/topic/release.20plan/near/${linked}`);
    const message = page.locator(messageSelector(linked));
    await message.waitFor();
    await expectInView(message);
    expect(await page.locator(messageSelector(elsewhere)).count()).toBe(0);

    await page.goto(`${ts.url}/#narrow/dm/${alice.id}-dm/near/${dm}`);
    await page.locator(messageSelector(dm)).waitFor();
    await expectInView(page.locator(messageSelector(dm)));
    expect(await page.locator(messageSelector(linked)).count()).toBe(0);
  } finally {
    await page.close();
  }
});

/** Waits for the element `selector` finds to have the attribute (it may be drawn anew meanwhile). */
async function expectAttribute(page: Page, selector: string, name: string, value: string): Promise<void> {
  await page.waitForFunction(([sel, n, v]) => document.querySelector(sel)?.getAttribute(n) === v, [selector, name, value] as const);
}

async function expectInView(locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = locator.page().viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.y + box!.height).toBeGreaterThan(0);
  expect(box!.y).toBeLessThan(viewport.height);
}
