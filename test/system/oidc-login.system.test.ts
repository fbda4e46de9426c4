import crypto from 'node:crypto';
import { otpDecryptApiKey } from '../../src/core/accounts/otp';
import { launchBrowser, watchPage } from '../helpers/browser';
import { startOidcProvider, type TestProvider } from '../helpers/oidc-provider';
import { freePort } from '../helpers/ports';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, type TestServer, type TestUser } from '../helpers/server';

/** Single sign-on from the mobile apps, in a real browser: the login page's button, the provider, back to the app. */
let ts: TestServer;
let provider: TestProvider;
let member: TestUser;
beforeAll(async () => {
  const port = await freePort();
  const externalUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider(`${externalUrl}/complete/oidc/`);
  ts = await startTestServer({
    PORT: String(port),
    PARLEY_EXTERNAL_URL: externalUrl,
    PARLEY_OIDC_ISSUER: provider.issuer,
    PARLEY_OIDC_CLIENT_ID: provider.clientId,
    PARLEY_OIDC_CLIENT_SECRET: provider.clientSecret,
    PARLEY_OIDC_NAME: 'Example SSO',
  });
  member = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await provider?.close();
});

test('the SSO button with mobile_flow_otp ends in zulip:// with a working key', async () => {
  provider.nextUser = { sub: 'sso-member', email: member.email, email_verified: true };
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage();
    const watch = watchPage(page);
    const otp = crypto.randomBytes(32).toString('hex');
    await page.goto(`${ts.url}/login/?mobile_flow_otp=${otp}`);
    const [redirect] = await Promise.all([
      page.waitForResponse((response) => response.status() === 302 && (response.headers()['location'] ?? '').startsWith('zulip://')),
      page.getByRole('link', { name: 'Log in with Example SSO' }).click(),
    ]);
    const location = new URL(redirect.headers()['location']);
    expect(location.host).toBe('login');
    expect(location.searchParams.get('email')).toBe(member.email);
    expect(location.searchParams.get('realm')).toBe(ts.server.deps.config.externalUrl);
    const apiKey = otpDecryptApiKey(location.searchParams.get('otp_encrypted_api_key')!, otp);
    const me = await fetch(`${ts.url}/api/v1/users/me`, { headers: { authorization: `Basic ${Buffer.from(`${member.email}:${apiKey}`).toString('base64')}` } });
    expect(me.status).toBe(200);
    expect(watch.offMachine).toEqual([]);
  } finally {
    await browser.close();
  }
});
