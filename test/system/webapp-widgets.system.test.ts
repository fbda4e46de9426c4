import type { Browser } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { type AppPage, buildWebapp, messageSelector, openHash, signIn } from '../helpers/webapp';

/**
 * Polls and to-do lists in the web app: Alice and Bob, each in a browser of their own, see a
 * `/poll` or `/todo` message drawn as its widget, and each sees the other's votes, options and
 * checked tasks live.
 */
let ts: TestServer;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let plans: number;
let a: AppPage;
let b: AppPage;

const topicHash = (topic: string) => `#narrow/channel/${plans}-plans/topic/${topic}`;

async function send(who: TestUser, topic: string, content: string): Promise<number> {
  return assertSuccess(await client(ts, who).post('/messages', { type: 'stream', to: plans, topic, content })).id;
}

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Anderson' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Brown' });
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'plans' }], principals: [alice.id, bob.id] }));
  plans = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'plans' })).stream_id;
  browser = await launchBrowser();
  [a, b] = await Promise.all([signIn(browser, ts, alice), signIn(browser, ts, bob)]);
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

afterEach(() => {
  const watches = [a?.watch, b?.watch].filter((w) => w !== undefined);
  expect(watches.flatMap((w) => w.errors)).toEqual([]);
  expect(watches.flatMap((w) => w.offMachine)).toEqual([]);
});

test('a poll: Bob votes and Alice adds an option; each sees the other live', async () => {
  const id = await send(alice, 'lunch', '/poll What for lunch?\n- Pizza\n- Salad');
  await openHash(a.page, topicHash('lunch'));
  await openHash(b.page, topicHash('lunch'));
  const pollA = a.page.locator(`${messageSelector(id)} .poll-widget`);
  const pollB = b.page.locator(`${messageSelector(id)} .poll-widget`);
  await pollB.locator('.widget-title', { hasText: 'What for lunch?' }).waitFor();
  // The widget replaces the command's text.
  expect(await b.page.locator(`${messageSelector(id)} .message-content`).count()).toBe(0);

  await pollB.getByRole('button', { name: 'Vote for Pizza' }).click();
  await pollA.locator('li', { hasText: 'Pizza' }).locator('.poll-voters', { hasText: 'Bob Brown' }).waitFor();
  expect(await pollA.getByRole('button', { name: 'Vote for Pizza' }).textContent()).toBe('1');
  await pollB.getByRole('button', { name: 'Remove your vote for Pizza' }).waitFor();

  await pollA.getByLabel('New option').fill('Soup');
  await pollA.getByRole('button', { name: 'Add' }).click();
  await pollB.getByRole('button', { name: 'Vote for Soup' }).click();
  await pollA.locator('li', { hasText: 'Soup' }).locator('.poll-voters', { hasText: 'Bob Brown' }).waitFor();

  const stored = assertSuccess(await client(ts, alice).get(`/messages/${id}`)).message.submessages;
  expect(stored.map((s: { content: string }) => JSON.parse(s.content).type ?? 'widget')).toEqual(['widget', 'vote', 'new_option', 'vote']);
});

test('a to-do list: Bob checks a task and adds one; Alice sees both', async () => {
  const id = await send(alice, 'groceries', '/todo Groceries\n- Milk: two liters\n- Eggs');
  await openHash(a.page, topicHash('groceries'));
  await openHash(b.page, topicHash('groceries'));
  const listA = a.page.locator(`${messageSelector(id)} .todo-widget`);
  const listB = b.page.locator(`${messageSelector(id)} .todo-widget`);
  // The box turns when the submessage event comes back, not on the click itself.
  await listB.getByRole('checkbox', { name: 'Milk: two liters' }).click();
  await listB.locator('li.todo-done', { hasText: 'Milk' }).waitFor();
  await listA.locator('li.todo-done', { hasText: 'Milk' }).waitFor();
  expect(await listA.getByRole('checkbox', { name: 'Milk: two liters' }).isChecked()).toBe(true);

  await listB.getByLabel('New task').fill('Bread');
  await listB.getByLabel('Description').fill('wholemeal');
  await listB.getByRole('button', { name: 'Add' }).click();
  await listA.getByRole('checkbox', { name: 'Bread: wholemeal' }).waitFor();
  expect(await listA.getByRole('checkbox', { name: 'Eggs' }).isChecked()).toBe(false);
});
