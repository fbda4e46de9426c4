import type { Browser } from 'playwright-core';
import { startServer, type RunningServer } from '../../src/server';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { type AppPage, buildWebapp, messageSelector, openHash, signIn } from '../helpers/webapp';

/**
 * The server goes away under an open tab and comes back on the same URL and database: the tab says
 * it cannot connect, reconnects by itself, catches up on what was sent meanwhile, and shows every
 * message exactly once.
 */
let ts: TestServer;
let restarted: RunningServer | null = null;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let channel: number;
let b: AppPage;

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Anderson' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Brown' });
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'ops' }], principals: [alice.id, bob.id] }));
  channel = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'ops' })).stream_id;
  browser = await launchBrowser();
  b = await signIn(browser, ts, bob);
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await restarted?.close();
  // Closes the first server again (a no-op) and its database.
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

/** The same server again: same port, same database (PGlite: the instance the first one was lent). */
async function restart(): Promise<RunningServer> {
  const { config } = ts.server.deps;
  const port = Number(new URL(ts.url).port);
  const db = ts.server.db;
  const server = await startServer({ ...config, port }, { pgliteDir: null, zuliprcDir: null, database: db.kind === 'pglite' ? db : undefined });
  expect(server.url).toBe(ts.url);
  return server;
}

const send = async (content: string) =>
  assertSuccess(await client(ts, alice).post('/messages', { type: 'stream', to: channel, topic: 'outage', content })).id as number;

test('the tab shows the outage, reconnects, and shows each message exactly once', async () => {
  const page = b.page;
  await openHash(page, `#narrow/channel/${channel}-ops/topic/outage`);
  const before = await send('Before the outage');
  await page.locator(messageSelector(before)).waitFor();
  expect(await page.locator('[data-testid="connection-banner"]').count()).toBe(0);

  await ts.server.close();
  const banner = page.locator('[data-testid="connection-banner"]');
  await banner.waitFor();

  restarted = await restart();
  // Sent at once, before the tab's next attempt (it backs off for at least ~375 ms).
  const during = [await send('While you were away 1'), await send('While you were away 2')];
  await banner.waitFor({ state: 'detached', timeout: 30_000 });
  for (const id of during) await page.locator(messageSelector(id)).waitFor();

  // A message after the catch-up arrives live; by then any duplicate delivery would have too.
  const after = await send('After the outage');
  await page.locator(messageSelector(after)).waitFor();
  for (const id of [before, ...during, after]) expect(await page.locator(messageSelector(id)).count()).toBe(1);

  // And in the order they were sent.
  const order = await page.$$eval('[data-message-id]', (els) => els.map((e) => Number(e.getAttribute('data-message-id'))));
  const ours = order.filter((id) => [before, ...during, after].includes(id));
  expect(ours).toEqual([before, ...during, after]);
});
