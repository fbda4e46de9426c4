import { AxeBuilder } from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import zlib from 'node:zlib';
import { watchPage, type PageWatch } from './browser';
import type { TestServer, TestUser } from './server';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const window: any;
declare const document: any;

/**
 * The web app in a browser, for the system tests: a build of the bundle the test servers serve, a
 * signed-in page (through the real /login/ form, in a context of its own so every user has their
 * own cookies), screenshots and axe checks.
 */

const root = path.join(__dirname, '..', '..');

/** As `npm run build` does: the server serves the bundle from dist/webapp. */
export function buildWebapp(): void {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-webapp.js')]);
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  watch: PageWatch;
}

export interface SignInOptions {
  viewport?: { width: number; height: number };
  colorScheme?: 'light' | 'dark';
  /** Where to go after signing in, e.g. `#narrow/channel/12-general`. */
  hash?: string;
}

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** The app has drawn its first view: the left sidebar is there. */
export const APP_READY = '.left-sidebar, [data-testid="left-sidebar"]';

/** Signs `user` in through /login/ in a fresh context and waits for the app to be up. */
export async function signIn(browser: Browser, ts: TestServer, user: TestUser, options: SignInOptions = {}): Promise<AppPage> {
  const context = await browser.newContext({ viewport: options.viewport ?? DESKTOP, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  const watch = watchPage(page);
  const failed: string[] = [];
  page.on('response', (response) => {
    if (response.status() < 400) return;
    // The browser's own console line does not say which: name it among the page's errors.
    watch.errors.push(`HTTP ${response.status()} ${response.url()}`);
    void response.text().then(
      (body) => failed.push(`${response.status()} ${response.url()}: ${body.slice(0, 500)}`),
      () => {},
    );
  });
  await page.goto(`${ts.url}/login/?next=/`);
  await page.fill('#username', user.email);
  await page.fill('#password', user.password);
  await page.click('button[type=submit]');
  // The form redirects to / and the app draws its sidebar once it has the state (on a phone the
  // sidebar is there but hidden).
  await page.waitForSelector(APP_READY, { state: 'attached' }).catch(async (error) => {
    const text = (await page.textContent('body').catch(() => ''))?.slice(0, 300);
    throw new Error(
      `${user.email} did not get into the app: at ${page.url()}, page says "${text}", errors ${JSON.stringify(watch.errors)}, failed requests ${JSON.stringify(failed)}\n${error}`,
    );
  });
  if (options.hash) await openHash(page, options.hash);
  return { context, page, watch };
}

/** Another tab of the same signed-in browser. */
export async function secondTab(app: AppPage, ts: TestServer, hash = ''): Promise<Page> {
  const page = await app.context.newPage();
  await page.goto(`${ts.url}/${hash}`);
  await page.waitForSelector(APP_READY, { state: 'attached' });
  return page;
}

/** Changes the hash as a link would. */
export async function openHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    window.location.hash = h;
  }, hash);
}

export const messageSelector = (id: number) => `[data-message-id="${id}"]`;

/** Waits until the message with `id` is drawn and returns its text content. */
export async function messageText(page: Page, id: number): Promise<string> {
  const el = await page.waitForSelector(`${messageSelector(id)} .message-content`);
  return (await el.textContent()) ?? '';
}

/** `test-artifacts/screenshots/<name>-<desktop|phone>-<light|dark>.png`. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const viewport = page.viewportSize();
  const size = viewport && viewport.width <= 700 ? 'phone' : 'desktop';
  const dark = await page.evaluate(() => window.matchMedia('(prefers-color-scheme: dark)').matches);
  const dir = path.join(root, 'test-artifacts', 'screenshots');
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${size}-${dark ? 'dark' : 'light'}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Runs axe on the page and fails on serious or critical violations, listing them readably. */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (bad.length === 0) return;
  const lines = bad.flatMap((v) => [
    `${v.impact}: ${v.id} — ${v.help} (${v.helpUrl})`,
    ...v.nodes.slice(0, 5).map((n) => `    ${n.target.join(' ')}: ${n.failureSummary?.replace(/\n/g, ' ')}`),
  ]);
  throw new Error(`axe found ${bad.length} serious or critical violation(s) in ${what}:\n${lines.join('\n')}`);
}

/** A small valid PNG (solid colour, w×h), made here so the test needs no fixture file. */
export function makePng(width = 8, height = 8, rgb: [number, number, number] = [200, 40, 40]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/*
 * What a user does in the web app, through its stable selectors: write and send, find a message by
 * its text, open a message's menu.
 */

/** Opens the compose box as the keyboard does (`c` in a channel, `x` in a DM), unless it is open. */
export async function openCompose(page: Page, key: 'c' | 'x' = 'c'): Promise<void> {
  const box = page.locator('#compose-textarea');
  if (await box.isVisible()) return;
  await page.evaluate(() => document.activeElement?.blur());
  await page.keyboard.press(key);
  await box.waitFor({ state: 'visible' });
}

/** Writes `text` in the open view's compose box and sends it with the Send button; returns the message's id once drawn. */
export async function sendFromCompose(page: Page, text: string, key: 'c' | 'x' = 'c'): Promise<number> {
  await openCompose(page, key);
  await page.fill('#compose-textarea', text);
  await page.click('button[aria-label="Send"]');
  return drawnMessageId(page, text);
}

/** The id of the message showing `text`, once it is drawn. */
export async function drawnMessageId(page: Page, text: string): Promise<number> {
  const message = page.locator('[data-message-id]', { has: page.locator('.message-content', { hasText: text }) }).last();
  await message.waitFor();
  return Number(await message.getAttribute('data-message-id'));
}

/** Opens a message's "Message actions" menu and picks `item`. */
export async function messageAction(page: Page, id: number, item: string): Promise<void> {
  const message = page.locator(messageSelector(id));
  await message.hover();
  await message.locator('button[aria-label="Message actions"]').click();
  await page.locator('[role=menu]').getByRole('menuitem', { name: item, exact: true }).click();
}

/** The unread count in a channel's sidebar link (0 when none is shown). */
export async function channelUnread(page: Page, channelId: number): Promise<number> {
  // One read of the page: the count may go away between a check and a later read.
  const text = await page.evaluate((sel) => document.querySelector(sel)?.textContent?.trim() ?? '', `a[data-channel-id="${channelId}"] .count`);
  return text === '' ? 0 : Number(text);
}

/** Waits until `page`'s unread count for the channel satisfies `check`. */
export async function waitForChannelUnread(page: Page, channelId: number, check: (n: number) => boolean, what: string): Promise<number> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const n = await channelUnread(page, channelId);
    if (check(n)) return n;
    if (Date.now() > deadline) throw new Error(`the unread count of channel ${channelId} is ${n}: expected ${what}`);
    // Wait for the sidebar to change rather than polling on a timer.
    await page
      .waitForFunction(
        ([sel, before]) => (document.querySelector(sel)?.textContent?.trim() ?? '') !== before,
        [`a[data-channel-id="${channelId}"] .count`, n === 0 ? '' : String(n)] as const,
        { timeout: Math.max(1, deadline - Date.now()) },
      )
      .catch(() => undefined);
  }
}
