import fs from 'node:fs';
import { columnsOf, copyMembers } from '../lib/seed';
import path from 'node:path';
import zlib from 'node:zlib';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { api, authOf, channelWithSubscribers, type Account } from '../lib/api';
import type { ParleyProcess } from '../lib/servers';
import { type BenchContext, type Goal, numberOption, type Scenario } from '../scenario';

// Page-side code in page.evaluate/addInitScript runs in the browser; the bench project has no DOM types.
declare const window: any;
declare const document: any;
declare const performance: { now(): number; timeOrigin: number };

/**
 * The web app in headless Chromium against a seeded organization of 10,000 users and 500 channels
 * (as `register` seeds it), signed in as a user subscribed to 50 of them:
 * - load: navigation to the first messages drawn (`[data-message-id]` in the DOM, timed in the page
 *   from its navigation start), in a fresh browser context each time (nothing cached), median and
 *   p95 over `--loads`. Baseline in the same run: the page's own GraphQL requests before that
 *   moment (captured from the browser, cookie and CSRF header included), replayed one after another
 *   by a node client: the time the server needs to answer what the page waits for. Their ratio is
 *   what the browser side (download, parse, run, draw) adds on top of the data.
 * - the initial JavaScript, gzipped (dist/webapp/manifest.json's `initial` files);
 * - the JS heap (CDP Runtime.getHeapUsage after a collection) with the organization loaded;
 * - DOM nodes after scrolling back through a topic of 6,000 messages until its first is drawn;
 * - send-to-draw: Enter in Alice's compose box (a keydown listener's clock) to the message drawn
 *   in Bob's tab (a MutationObserver's clock), p50 and p95 over `--sends`.
 */
const USERS = 10_000;
const CHANNELS = 500;
const SUBSCRIBED = 50;
const BIG = 10;
const HISTORY = 6_000;
const PASSWORD = 'bench-web-password-123';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

interface Seeded {
  bob: { id: number; email: string };
  alice: Account;
  /** The channel holding the long topic, its name and the topic's oldest message. */
  channel: { id: number; name: string };
  oldest: number;
  messages: number;
  seconds: number;
}

type Sql = <T = Record<string, any>>(text: string, bindings?: unknown[]) => Promise<T[]>;

/** The organization, in SQL as `register` builds it, plus messages in Bob's channels and one long topic. */
async function seed(ctx: BenchContext, parley: ParleyProcess, total: number): Promise<Seeded> {
  const sql: Sql = (text, bindings = []) => parley.call('sql', { sql: text, bindings });
  const started = Date.now();
  const bob = { id: parley.owner.userId, email: parley.owner.email };
  const [alice, sender] = await parley.call<Account[]>('createUsers', { count: 2, prefix: 'bench-web' });
  // Alice signs in with the owner's password (set through PARLEY_OWNER_PASSWORD).
  await sql('UPDATE users SET password_hash = (SELECT password_hash FROM users WHERE id = ?), full_name = ? WHERE id = ?', [bob.id, 'Alice Bench', alice.id]);
  await api(`${parley.url}/api/v1/settings`, 'PATCH', authOf(alice), { enter_sends: 'true' });
  const [{ realm_id: realmId }] = await sql<{ realm_id: number }>('SELECT realm_id FROM users WHERE id = ?', [bob.id]);
  await copyMembers(sql, sender.id, USERS - 4, 'bench-web-user');
  const ids = (await sql<{ id: number }>('SELECT id FROM users WHERE realm_id = ? ORDER BY id', [realmId])).map((r) => r.id);
  ctx.log(`${ids.length.toLocaleString('en-US')} accounts (${Math.round((Date.now() - started) / 1000)} s)`);

  // Channels: copies of one made through the API; Bob and Alice in the first SUBSCRIBED.
  const template = await channelWithSubscribers(parley, 'bench web 0', [bob.id, alice.id, sender.id]);
  const streamColumns = await columnsOf(sql, 'streams', ['id', 'name']);
  await sql(
    `INSERT INTO streams (${streamColumns.join(', ')}, name) SELECT ${streamColumns.join(', ')}, 'bench web ' || g FROM streams, generate_series(1, ?) g WHERE id = ?`,
    [CHANNELS - 1, template],
  );
  const streams = (await sql<{ id: number }>(`SELECT id FROM streams WHERE name LIKE 'bench web %' ORDER BY id`)).map((r) => r.id);
  await sql('INSERT INTO message_recipients (realm_id, stream_id) SELECT realm_id, id FROM streams WHERE id = ANY(?::int[]) ON CONFLICT DO NOTHING', [streams]);
  const subscriptionColumns = await columnsOf(sql, 'subscriptions', ['id', 'user_id', 'stream_id']);
  const [templateSub] = await sql<{ id: number }>('SELECT id FROM subscriptions WHERE stream_id = ? AND user_id = ?', [template, bob.id]);
  const others = ids.filter((id) => id !== bob.id && id !== alice.id);
  const sizes = streams.map((_, c) => (c < BIG ? 1_000 + Math.floor((4_000 * c) / BIG) : 20 + ((c * 37) % 181)));
  for (let c = 0; c < streams.length; c += 50) {
    const chunk = streams.slice(c, c + 50);
    await sql(
      `INSERT INTO subscriptions (${subscriptionColumns.join(', ')}, user_id, stream_id)
       SELECT ${subscriptionColumns.map((col) => `t.${col}`).join(', ')}, u.id, s.id
       FROM (SELECT * FROM subscriptions WHERE id = ?) t
       CROSS JOIN unnest(?::int[], ?::int[], ?::int[]) AS s(id, size, shift)
       JOIN LATERAL (SELECT id FROM unnest(?::int[]) WITH ORDINALITY AS x(id, k) WHERE ((k + s.shift) % ?) < s.size) u ON true
       ON CONFLICT DO NOTHING`,
      [templateSub.id, chunk, chunk.map((_, i) => sizes[c + i]), chunk.map((_, i) => (c + i) * 97), others, others.length],
    );
  }
  const subscribed = streams.slice(0, SUBSCRIBED);
  for (const user of [bob.id, alice.id]) {
    await sql(
      `INSERT INTO subscriptions (${subscriptionColumns.join(', ')}, user_id, stream_id)
       SELECT ${subscriptionColumns.map((col) => `t.${col}`).join(', ')}, ?, s.id FROM (SELECT * FROM subscriptions WHERE id = ?) t, unnest(?::int[]) AS s(id)
       ON CONFLICT DO NOTHING`,
      [user, templateSub.id, subscribed],
    );
  }
  ctx.log(`${streams.length} channels (${Math.round((Date.now() - started) / 1000)} s)`);

  // Messages: `total` over Bob's channels, then HISTORY in one topic of the first; Bob received
  // them all, and has read all but the newest 500 of the spread ones.
  const recipients = await sql<{ id: number; stream_id: number }>(
    'SELECT id, stream_id FROM message_recipients WHERE stream_id = ANY(?::int[]) ORDER BY stream_id',
    [subscribed],
  );
  const [{ start }] = await sql<{ start: number }>('SELECT coalesce(max(id), 0)::int AS start FROM messages');
  await sql(
    `INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, sending_client, date_sent)
     SELECT ?, ?, (?::int[])[1 + g % ?], (?::int[])[1 + g % ?], 'topic ' || (g % 97),
            'Message ' || g, '<p>Message ' || g || '</p>', 'bench', now() - interval '2 days' + g * interval '1 second'
     FROM generate_series(1, ?) AS g`,
    [realmId, sender.id, recipients.map((r) => r.id), recipients.length, recipients.map((r) => r.stream_id), recipients.length, total],
  );
  const first = recipients.find((r) => r.stream_id === template)!;
  await sql(
    `INSERT INTO messages (realm_id, sender_id, recipient_id, stream_id, topic, content, rendered_content, sending_client, date_sent)
     SELECT ?, ?, ?, ?, 'history', 'History ' || g || ' with a few more words to make a line', '<p>History ' || g || ' with a few more words to make a line</p>', 'bench',
            now() - interval '1 day' + g * interval '1 second'
     FROM generate_series(1, ?) AS g`,
    [realmId, sender.id, first.id, template, HISTORY],
  );
  const [{ oldest }] = await sql<{ oldest: number }>(`SELECT min(id)::int AS oldest FROM messages WHERE id > ? AND topic = 'history'`, [start]);
  await sql(
    `INSERT INTO user_messages (user_id, message_id, realm_id, flags)
     SELECT ?, id, realm_id, CASE WHEN id > ? AND topic <> 'history' AND id > (SELECT max(id) FROM messages WHERE topic <> 'history') - 500 THEN 0 ELSE 1 END
     FROM messages WHERE id > ?`,
    [bob.id, start, start],
  );
  for (const table of ['messages', 'user_messages', 'subscriptions', 'users', 'user_group_members']) await sql(`VACUUM ANALYZE ${table}`);
  const seconds = Math.round((Date.now() - started) / 1000);
  ctx.log(`seeded in ${seconds} s`);
  return { bob, alice, channel: { id: template, name: 'bench web 0' }, oldest, messages: total + HISTORY, seconds };
}

/** Signs in through /login/ and returns the context's cookies and storage, for fresh contexts. */
async function signIn(browser: Browser, url: string, email: string): Promise<Awaited<ReturnType<BrowserContext['storageState']>>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto(`${url}/login/?next=/`);
  await page.fill('#username', email);
  await page.fill('#password', PASSWORD);
  await page.click('button[type=submit]');
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  page.on('requestfinished', (r) => {
    if (r.url().endsWith('/graphql')) problems.push(`graphql ${r.postData()?.slice(0, 60)} took ${r.timing().responseEnd.toFixed(0)} ms`);
  });
  await page.waitForSelector('.left-sidebar', { state: 'attached', timeout: 120_000 }).catch(async (error) => {
    const text = (await page.textContent('body').catch(() => ''))?.slice(0, 300);
    throw new Error(`${email} did not get into the app at ${page.url()}; the page says: ${text}; ${problems.join('; ')}\n${error}`);
  });
  const state = await context.storageState();
  await context.close();
  return state;
}

/** Before any of the app's scripts: the clock reading when the first message is drawn. */
function watchFirstMessage(): void {
  const seen = () => {
    if (window.__firstDrawn === undefined && document.querySelector('[data-message-id]')) window.__firstDrawn = performance.now();
  };
  new window.MutationObserver(seen).observe(document, { childList: true, subtree: true });
}

interface Captured {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** One cold load: a fresh context (empty cache), navigation to the first message drawn. */
async function coldLoad(browser: Browser, url: string, state: Awaited<ReturnType<BrowserContext['storageState']>>) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: state });
  await context.addInitScript(watchFirstMessage);
  const page = await context.newPage();
  const requests: (Captured & { sentAt: number })[] = [];
  const pending: Promise<unknown>[] = [];
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  page.on('request', (request) => {
    if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/graphql') return;
    const sentAt = Date.now();
    pending.push(
      request.allHeaders().then(
        (headers) => requests.push({ url: request.url(), headers, body: request.postData() ?? '', sentAt }),
        () => {},
      ),
    );
  });
  // The combined feed: the newest messages of every conversation.
  await page.goto(`${url}/#feed`);
  await page
    .waitForFunction(() => window.__firstDrawn !== undefined, undefined, { timeout: 60_000, polling: 50 })
    .catch(async (error) => {
      const text = (await page.textContent('body').catch(() => ''))?.slice(0, 300);
      throw new Error(`no message drawn at ${page.url()}; the page says: ${text}; errors: ${problems.join('; ')}\n${error}`);
    });
  const ms = (await page.evaluate(() => window.__firstDrawn)) as number;
  const drawnAt = (await page.evaluate(() => performance.timeOrigin + window.__firstDrawn)) as number;
  await Promise.all(pending);
  // Only what the page asked for before it drew (later requests are not waited for).
  return { ms, context, page, requests: requests.filter((r) => r.sentAt <= drawnAt).sort((x, y) => x.sentAt - y.sentAt) };
}

/** The page's GraphQL requests, replayed one after another from node; their total time in ms. */
async function replay(requests: Captured[]): Promise<number> {
  const t0 = performance.now();
  for (const r of requests) {
    const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !k.startsWith(':') && k !== 'content-length'));
    const response = await fetch(r.url, { method: 'POST', headers, body: r.body });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`replaying a GraphQL request answered ${response.status}`);
  }
  return performance.now() - t0;
}

async function heapMb(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  await cdp.detach();
  return usedSize / 1024 / 1024;
}

/** Scrolls the topic back until its first message has been drawn; returns how many were seen and the DOM's size. */
async function scrollBack(page: Page, oldest: number, log: (m: string) => void) {
  await page.evaluate(() => {
    window.__seen = new Set();
    window.__min = Number.POSITIVE_INFINITY;
    const note = () => {
      for (const el of document.querySelectorAll('[data-message-id]')) {
        const id = Number(el.getAttribute('data-message-id'));
        window.__seen.add(id);
        if (id < window.__min) window.__min = id;
      }
    };
    note();
    new window.MutationObserver(note).observe(document.body, { childList: true, subtree: true });
  });
  const started = Date.now();
  let steps = 0;
  while (((await page.evaluate(() => window.__min)) as number) > oldest) {
    const before = (await page.evaluate(() => window.__min)) as number;
    // The scrolling container of the messages (or the page), to its top.
    await page.evaluate(() => {
      let el = document.querySelector('[data-message-id]')?.parentElement;
      while (el && !(el.scrollHeight > el.clientHeight && /(auto|scroll)/.test(window.getComputedStyle(el).overflowY))) el = el.parentElement;
      const scroller = el ?? document.scrollingElement;
      scroller.scrollTop = 0;
      scroller.dispatchEvent(new window.Event('scroll'));
    });
    await page.mouse.wheel(0, -2_000);
    const moved = await page
      .waitForFunction((b: number) => window.__min < b, before, { timeout: 15_000, polling: 'raf' })
      .then(() => true)
      .catch(() => false);
    steps += 1;
    if (!moved) {
      log(`scrolling back stopped at message ${before} after ${steps} steps`);
      break;
    }
    if (Date.now() - started > 600_000) break;
  }
  const seen = (await page.evaluate(() => window.__seen.size)) as number;
  const reachedOldest = ((await page.evaluate(() => window.__min)) as number) <= oldest;
  const nodes = (await page.evaluate(() => document.getElementsByTagName('*').length)) as number;
  // Messages drawn now, and the widest run of the topic's ids never drawn (a list that skipped some).
  const drawn = (await page.evaluate(() => [...window.__seen].sort((x: number, y: number) => x - y))) as number[];
  let gap = 0;
  for (let i = 1; i < drawn.length; i++) gap = Math.max(gap, drawn[i] - drawn[i - 1] - 1);
  const inDom = (await page.evaluate(() => document.querySelectorAll('[data-message-id]').length)) as number;
  // Where the nodes are: the page's regions (landmarks and the app's top-level parts), largest first.
  const regions = (await page.evaluate(() =>
    [...document.querySelectorAll('main, nav, aside, header, [role=complementary], [role=navigation], .app > *')]
      .map((el: any) => ({
        name: `${el.tagName.toLowerCase()}${el.getAttribute('aria-label') ? `[${el.getAttribute('aria-label')}]` : el.className ? `.${String(el.className).split(' ')[0]}` : ''}`,
        nodes: el.getElementsByTagName('*').length,
      }))
      .sort((a: { nodes: number }, b: { nodes: number }) => b.nodes - a.nodes)
      .slice(0, 4),
  )) as { name: string; nodes: number }[];
  return { seen, reachedOldest, nodes, inDom, gap, regions, steps, seconds: (Date.now() - started) / 1000 };
}

/** Enter in Alice's compose box to the message drawn in Bob's tab, `sends` times. */
async function sendToDraw(alice: Page, bob: Page, sends: number): Promise<number[]> {
  await alice.evaluate(() => {
    document.addEventListener(
      'keydown',
      (e: any) => {
        if (e.key === 'Enter' && e.target?.id === 'compose-textarea') window.__enterAt = performance.timeOrigin + performance.now();
      },
      true,
    );
  });
  await bob.evaluate(() => {
    window.__arrivals = {};
    new window.MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-message-id] .message-content')) {
        const text = el.textContent.trim();
        if (text.startsWith('probe ') && window.__arrivals[text] === undefined) window.__arrivals[text] = performance.timeOrigin + performance.now();
      }
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  const latencies: number[] = [];
  for (let i = 0; i <= sends; i++) {
    const text = `probe ${i} ${Date.now()}`;
    const box = alice.locator('#compose-textarea');
    if (!(await box.isVisible())) {
      await alice.evaluate(() => document.activeElement?.blur());
      await alice.keyboard.press('c');
      await box.waitFor();
    }
    await box.fill(text);
    await box.press('Enter');
    await bob.waitForFunction((t: string) => window.__arrivals[t] !== undefined, text, { timeout: 30_000, polling: 'raf' });
    const [sent, drawn] = [(await alice.evaluate(() => window.__enterAt)) as number, (await bob.evaluate((t: string) => window.__arrivals[t], text)) as number];
    // The first is a warm-up (compiling the send path on both sides).
    if (i > 0) latencies.push(drawn - sent);
  }
  return latencies;
}

function initialJsKb(): { js: number; css: number; files: number } {
  const dir = path.resolve(__dirname, '..', '..', 'webapp');
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { initial: string[]; css: string | null };
  const gz = (file: string) => zlib.gzipSync(fs.readFileSync(path.join(dir, 'assets', file)), { level: 9 }).length;
  const js = manifest.initial.reduce((sum, f) => sum + gz(f), 0);
  const css = manifest.css ? gz(path.basename(manifest.css)) : 0;
  return { js: js / 1024, css: css / 1024, files: manifest.initial.length };
}

export const scenario: Scenario = {
  name: 'web',
  description: `the web app in Chromium, in an organization of ${USERS.toLocaleString('en-US')} users and ${CHANNELS} channels: load to first messages drawn (against its own GraphQL requests replayed), initial JS, heap, DOM after scrolling back ${HISTORY.toLocaleString('en-US')} messages, send-to-draw`,
  options: {
    loads: 'cold page loads timed (default 10)',
    sends: 'messages timed from Enter to drawn in the other tab (default 20)',
    messages: 'messages spread over the user’s channels, besides the 6,000 of the long topic (default 20,000)',
  },
  async run(ctx) {
    if (!fs.existsSync(chromiumPath)) {
      return { results: [], notes: [`web: skipped, no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH)`] };
    }
    const loads = numberOption(ctx, 'loads', 10);
    const sends = numberOption(ctx, 'sends', 20);
    const total = numberOption(ctx, 'messages', 20_000);
    const bundle = initialJsKb();
    const parley = await ctx.startParley({ env: { PARLEY_OWNER_PASSWORD: PASSWORD } });
    let browser: Browser | null = null;
    try {
      const seeded = await seed(ctx, parley, total);
      browser = await chromium.launch({
        executablePath: chromiumPath,
        headless: true,
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--enable-precise-memory-info',
        ],
      });
      const bobState = await signIn(browser, parley.url, seeded.bob.email);
      const aliceState = await signIn(browser, parley.url, seeded.alice.email);

      // Cold loads, each followed by a replay of its GraphQL requests.
      ctx.log(`${loads} cold loads`);
      const loadMs: number[] = [];
      const replayMs: number[] = [];
      let requestCount = 0;
      let heap = 0;
      for (let i = 0; i <= loads; i++) {
        const load = await coldLoad(browser, parley.url, bobState);
        if (i === loads) heap = await heapMb(load.page);
        await load.context.close();
        const replayed = await replay(load.requests);
        // The first of each is a warm-up (the server's caches, the browser's code cache).
        if (i === 0) continue;
        loadMs.push(load.ms);
        replayMs.push(replayed);
        requestCount = load.requests.length;
      }

      // Scrolling back through the long topic.
      const history = `#narrow/channel/${seeded.channel.id}-${seeded.channel.name.replace(/ /g, '-')}/topic/history`;
      const bobContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: bobState });
      const bob = await bobContext.newPage();
      await bob.goto(`${parley.url}/${history}`);
      await bob.waitForSelector('[data-message-id]', { state: 'attached', timeout: 60_000 });
      ctx.log('scrolling back through the long topic');
      const scrolled = await scrollBack(bob, seeded.oldest, ctx.log);
      const heapAfterScroll = await heapMb(bob);

      // Send-to-draw, in a topic both have open.
      const latency = `#narrow/channel/${seeded.channel.id}-${seeded.channel.name.replace(/ /g, '-')}/topic/latency`;
      await bob.goto(`${parley.url}/${latency}`);
      await bob.waitForSelector('.left-sidebar', { state: 'attached' });
      const aliceContext = await browser.newContext({ viewport: { width: 1280, height: 800 }, storageState: aliceState });
      const alice = await aliceContext.newPage();
      await alice.goto(`${parley.url}/${latency}`);
      await alice.waitForSelector('.left-sidebar', { state: 'attached' });
      ctx.log(`${sends} sends from Alice's tab to Bob's`);
      const drawMs = await sendToDraw(alice, bob, sends);

      const median = (v: number[]) => percentile(v, 50);
      const goals: Goal[] = [
        { label: 'first messages drawn, cold load, p95', value: percentile(loadMs, 95), atMost: 1000, unit: 'ms' },
        { label: 'initial JS, gzipped', value: bundle.js, atMost: 250, unit: 'KB' },
        { label: `DOM nodes after scrolling back through ${HISTORY.toLocaleString('en-US')} messages`, value: scrolled.nodes, atMost: 3000 },
        { label: 'JS heap with the organization loaded', value: heap, atMost: 100, unit: 'MB' },
        { label: 'send-to-draw, Enter to drawn in the other tab, p95', value: percentile(drawMs, 95), atMost: 150, unit: 'ms' },
        // Scrolling must have gone the whole way for the DOM figure to count (1 = it did).
        { label: `scrolled back to the first of the topic's ${HISTORY.toLocaleString('en-US')} messages`, value: scrolled.reachedOldest ? 1 : 0, atLeast: 1 },
      ];
      return {
        results: [],
        tables: [
          {
            title: 'times (ms)',
            columns: ['', 'p50', 'p95', 'n'],
            rows: [
              ['first messages drawn, cold load', median(loadMs), percentile(loadMs, 95), loadMs.length],
              [`its ${requestCount} GraphQL requests replayed from node (baseline)`, median(replayMs), percentile(replayMs, 95), replayMs.length],
              ['send-to-draw', median(drawMs), percentile(drawMs, 95), drawMs.length],
            ],
          },
          {
            title: 'sizes',
            columns: ['', 'value'],
            rows: [
              [`initial JS, gzipped, KB (${bundle.files} files)`, bundle.js],
              ['CSS, gzipped, KB', bundle.css],
              ['JS heap after load, MB', heap],
              ['JS heap after scrolling back, MB', heapAfterScroll],
              ['DOM nodes after scrolling back', scrolled.nodes],
            ],
          },
        ],
        goals,
        notes: [
          `seeded in ${seeded.seconds} s: ${USERS.toLocaleString('en-US')} users, ${CHANNELS} channels (the user in ${SUBSCRIBED}), ${seeded.messages.toLocaleString('en-US')} messages`,
          `load / replayed requests, p50: × ${(median(loadMs) / median(replayMs)).toFixed(1)} — what downloading, running and drawing the app adds to the server's answers the page waits for`,
          `scrolling back: ${scrolled.steps} steps in ${scrolled.seconds.toFixed(0)} s, ${scrolled.reachedOldest ? 'reached' : 'did NOT reach'} the topic's first message; ` +
            `${scrolled.inDom.toLocaleString('en-US')} messages in the DOM at the end, ${scrolled.seen.toLocaleString('en-US')} seen drawn on the way (widest run of ids not seen: ${scrolled.gap}); ` +
            `largest regions: ${scrolled.regions.map((r) => `${r.name} ${r.nodes.toLocaleString('en-US')}`).join(', ')}`,
        ],
      };
    } finally {
      await browser?.close();
      await parley.stop();
    }
  },
};
