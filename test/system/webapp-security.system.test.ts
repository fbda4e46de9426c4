import type { Browser } from 'playwright-core';
import { assertSuccess, client } from '../helpers/api';
import { launchBrowser } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';
import { type AppPage, buildWebapp, messageSelector, openHash, secondTab, signIn } from '../helpers/webapp';
import { openSocket } from '../helpers/ws';

// Page-side code in page.evaluate/waitForFunction runs in the browser; the test project has no DOM types.
declare const window: any;
declare const document: any;

/**
 * The web app against hostile input and forged requests: message HTML, topics and names that try
 * to run script stay inert; the page's policy allows no inline script; a cookie alone (without the
 * page's CSRF token, or from another origin's socket) gets nothing; signing out ends the session
 * everywhere, open sockets included.
 */
let ts: TestServer;
let browser: Browser;
let alice: TestUser;
let bob: TestUser;
let mallory: TestUser;
let channel: number;
let b: AppPage;

beforeAll(async () => {
  buildWebapp();
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Anderson' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Brown' });
  // Names may not hold > or " (the server refuses them), but a tag opened in one would close in what follows.
  mallory = await makeUser(ts, 400, { fullName: "Mal &amp; <img src=x onerror=window.__pwned='name' y=" });
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'lobby' }], principals: [alice.id, bob.id, mallory.id] }));
  channel = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'lobby' })).stream_id;
  browser = await launchBrowser();
  b = await signIn(browser, ts, bob);
  // Before any of the page's own scripts: record dialogs, policy violations and the marker.
  await b.context.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e: any) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await ts?.close();
});

const HOSTILE = [
  '<script>window.__pwned = "script"</script>',
  '<img src=x onerror="window.__pwned = \'img\'">',
  '[click me](javascript:window.__pwned="link")',
  '<svg onload="window.__pwned = \'svg\'"><circle r="5"/></svg>',
  '<iframe src="javascript:parent.__pwned=\'iframe\'"></iframe><iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '<a href="data:text/html,<script>alert(1)</script>" onclick="window.__pwned=\'click\'">raw html link</a> <b onmouseover="window.__pwned=\'hover\'">bold</b>',
  '<style>body { display: none }</style><form action="https://evil.example"><input name=x></form><object data="x"></object><embed src="x">',
  '![image](javascript:window.__pwned="image") <math><mtext><a href="javascript:window.__pwned=\'math\'">m</a></mtext></math>',
];

test('hostile messages, topics and names show as inert text and run nothing', async () => {
  const page = await b.context.newPage();
  let dialogs = 0;
  page.on('dialog', (dialog) => {
    dialogs += 1;
    void dialog.dismiss();
  });
  await page.goto(`${ts.url}/`);
  await page.waitForSelector('.left-sidebar', { state: 'attached' });
  const topic = '<img src=x onerror="window.__pwned=\'topic\'">';
  await openHash(page, `#narrow/channel/${channel}-lobby`);
  const ids: number[] = [];
  for (const content of HOSTILE) {
    ids.push(assertSuccess(await client(ts, mallory).post('/messages', { type: 'stream', to: channel, topic, content })).id);
  }
  for (const id of ids) await page.locator(messageSelector(id)).waitFor();

  // Hover over each, as a reader would (handlers on hover would fire now).
  for (const id of ids) await page.locator(`${messageSelector(id)} .message-content`).hover();

  // What the page holds: no script, frame, plugin or handler; no javascript: or data: link.
  const found = await page.evaluate((sel: string) => {
    const bad: string[] = [];
    for (const root of document.querySelectorAll(sel)) {
      for (const el of root.querySelectorAll('*')) {
        const tag = el.tagName.toLowerCase();
        if (['script', 'iframe', 'object', 'embed', 'form', 'style', 'svg', 'math', 'base', 'meta', 'link'].includes(tag)) bad.push(`<${tag}>`);
        for (const attr of el.attributes) {
          if (attr.name.startsWith('on')) bad.push(`${tag}[${attr.name}]`);
          if (['href', 'src', 'action', 'xlink:href', 'formaction'].includes(attr.name) && /^\s*(javascript|data|vbscript):/i.test(attr.value))
            bad.push(`${tag}[${attr.name}=${attr.value}]`);
        }
      }
    }
    return bad;
  }, '[data-message-id]');
  expect(found).toEqual([]);
  // The raw HTML is shown as the text it is.
  expect(await page.textContent(`${messageSelector(ids[0])} .message-content`)).toContain('<script>');
  expect(await page.textContent(`${messageSelector(ids[1])} .message-content`)).toContain('onerror');
  // The sender's name and the topic are text too.
  expect(await page.locator(`${messageSelector(ids[0])} .sender-name`).textContent()).toBe("Mal &amp; <img src=x onerror=window.__pwned='name' y=");
  expect(await page.locator('body').textContent()).toContain('<img src=x onerror');

  expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  expect(dialogs).toBe(0);
  // Nothing even tried to run script past the policy.
  expect((await page.evaluate(() => window.__violations as string[])).filter((v) => v.startsWith('script-src'))).toEqual([]);
  await page.close();
});

test("the page's policy allows no inline script", async () => {
  const page = await b.context.newPage();
  const response = await page.goto(`${ts.url}/`);
  const policy = response?.headers()['content-security-policy'] ?? '';
  const directives = new Map(policy.split(';').map((d) => [d.trim().split(/\s+/)[0], d.trim()]));
  const scripts = directives.get('script-src') ?? directives.get('default-src') ?? '';
  expect(scripts).not.toBe('');
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  expect(scripts).not.toContain('*');
  expect(directives.get('object-src')).toBe("object-src 'none'");
  expect(directives.get('frame-ancestors')).toBe("frame-ancestors 'none'");
  // An inline script added to the page is refused.
  await page.waitForSelector('.left-sidebar', { state: 'attached' });
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inline = true';
    document.body.appendChild(s);
  });
  expect(await page.evaluate(() => window.__inline)).toBeUndefined();
  await page.close();
});

test('a cookie without the CSRF token gets nothing from GraphQL', async () => {
  const page = await b.context.newPage();
  await page.goto(`${ts.url}/`);
  await page.waitForSelector('.left-sidebar', { state: 'attached' });
  const ask = (token: string | null) =>
    page.evaluate(async (t: string | null) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (t !== null) headers['X-CSRFToken'] = t === 'page' ? document.querySelector('meta[name="csrf-token"]').content : t;
      const r = await fetch('/graphql', { method: 'POST', credentials: 'same-origin', headers, body: JSON.stringify({ query: '{ me { email } }' }) });
      return { status: r.status, body: await r.text() };
    }, token);
  const withToken = await ask('page');
  expect(withToken.status).toBe(200);
  expect(JSON.parse(withToken.body).data.me.email).toBe(bob.email);
  for (const token of [null, 'not-the-token-0000000000000000000000000000000']) {
    const refused = await ask(token);
    expect(refused.status).toBe(403);
    expect(refused.body).not.toContain(bob.email);
  }
  await page.close();
});

test("a WebSocket with Bob's cookie from another origin is refused; from the app's origin it is accepted", async () => {
  const cookies = await b.context.cookies(ts.url);
  const header = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  expect(header).toContain('sessionid=');

  const foreign = await openSocket(ts, { cookie: header, origin: 'http://127.0.0.1:1' });
  if ('ws' in foreign) {
    expect(await foreign.init()).toBe(false);
    expect(await foreign.closed()).toBe(4403);
  } else {
    expect(foreign.status).toBeGreaterThanOrEqual(400);
  }

  const own = await openSocket(ts, { cookie: header, origin: new URL(ts.url).origin });
  if (!('ws' in own)) throw new Error(`the upgrade was refused with ${own.status}`);
  expect(await own.init()).toBe(true);
  own.ws.close();
});

test('signing out ends the session: the cookie gets nothing, and open tabs and sockets are closed', async () => {
  const me = await signIn(browser, ts, bob);
  const other = await secondTab(me, ts);
  const cookies = await me.context.cookies(ts.url);
  const header = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const csrf = cookies.find((c) => c.name === 'csrftoken')?.value ?? '';
  const socket = await openSocket(ts, { cookie: header, origin: new URL(ts.url).origin });
  if (!('ws' in socket)) throw new Error(`the upgrade was refused with ${socket.status}`);
  expect(await socket.init()).toBe(true);
  const ask = () =>
    fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { cookie: header, 'x-csrftoken': csrf, 'content-type': 'application/json', origin: new URL(ts.url).origin },
      body: JSON.stringify({ query: '{ me { email } }' }),
    });
  expect(((await (await ask()).json()) as { data: { me: { email: string } } }).data.me.email).toBe(bob.email);

  // Through the app's own menu.
  const signOut = me.page.getByRole('button', { name: 'Sign out' });
  if (!(await signOut.isVisible())) await me.page.locator('.user-menu button[aria-haspopup]').first().click();
  await signOut.click();
  await me.page.waitForURL(/\/login\//);

  const after = await ask();
  expect(await after.text()).not.toContain(bob.email);
  expect(after.status).toBeGreaterThanOrEqual(400);
  expect(await socket.closed()).toBe(4403);
  // The other tab's socket was closed too, and the tab went to the login page.
  await other.waitForURL(/\/login\//);
  await me.context.close();
});
