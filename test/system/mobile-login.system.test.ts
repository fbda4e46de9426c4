import crypto from 'node:crypto';
import { launchBrowser, watchPage } from '../helpers/browser';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';

/**
 * The mobile apps' web login, in a real browser: the app opens /login/?mobile_flow_otp=<pad>, the
 * user logs in on the page, and the app takes the key from the zulip:// redirect.
 */
let ts: TestServer;
let member: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
});

/** What the app does with the callback (zulip-flutter, zulip-mobile): check it, then XOR the bytes. */
function appReadsCallback(callback: string, otp: string, realm: string): { email: string; apiKey: string; userId: number } | null {
  const url = new URL(callback);
  const callbackRealm = url.searchParams.get('realm');
  const encrypted = url.searchParams.get('otp_encrypted_api_key');
  const email = url.searchParams.get('email');
  if (url.protocol !== 'zulip:' || url.host !== 'login' || !callbackRealm || new URL(callbackRealm).origin !== new URL(realm).origin) return null;
  if (!email || !encrypted || encrypted.length !== otp.length) return null;
  const pad = Buffer.from(otp, 'hex');
  const bytes = Buffer.from(encrypted, 'hex').map((byte, i) => byte ^ pad[i]);
  return { email, apiKey: Buffer.from(bytes).toString('ascii'), userId: Number(url.searchParams.get('user_id')) };
}

test('log in through the page with mobile_flow_otp, follow the redirect to zulip://, use the key', async () => {
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const watch = watchPage(page);
    const otp = crypto.randomBytes(32).toString('hex');
    const redirects: string[] = [];
    page.on('response', (response) => {
      const location = response.headers()['location'];
      if (response.status() === 302 && location?.startsWith('zulip://')) redirects.push(location);
    });

    await page.goto(`${ts.url}/login/?mobile_flow_otp=${otp}`);
    expect(await page.title()).toBe('Log in to Test Org');

    // A wrong password first: the page says so, and sends nobody anywhere.
    await page.getByLabel('Email').fill(member.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toContain('Your username or password is incorrect');
    expect(redirects).toEqual([]);

    await page.getByLabel('Password').fill(member.password);
    await Promise.all([
      page.waitForResponse((response) => response.status() === 302 && (response.headers()['location'] ?? '').startsWith('zulip://')),
      page.getByRole('button', { name: 'Log in' }).click(),
    ]);
    expect(redirects).toHaveLength(1);

    // The app knows the organization by its URL: the server's configured external URL.
    const auth = appReadsCallback(redirects[0], otp, ts.server.deps.config.externalUrl);
    expect(auth).not.toBeNull();
    expect(auth!.email).toBe(member.email);
    expect(auth!.userId).toBe(member.id);
    expect(auth!.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);

    const me = await fetch(`${ts.url}/api/v1/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`${auth!.email}:${auth!.apiKey}`).toString('base64')}` },
    });
    expect(me.status).toBe(200);
    expect(((await me.json()) as { user_id: number }).user_id).toBe(member.id);

    expect(watch.offMachine).toEqual([]);
    // The wrong password's 401 is the only console noise a page may show.
    expect(watch.errors.filter((e) => !e.includes('401'))).toEqual([]);
  } finally {
    await browser.close();
  }
});
