import crypto from 'node:crypto';
import { otpDecryptApiKey } from '../../src/core/accounts/otp';
import { assertSuccess, client } from '../helpers/api';
import { throughProvider as followToCallback, startServerWithProvider, TestProvider } from '../helpers/oidc-provider';
import { makeUser, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';
import { WebClient } from './web-client';

/** Single sign-on against a real OpenID Connect provider (oidc-provider) on loopback. */
let ts: TestServer;
let provider: TestProvider;
let member: TestUser;
const logged: string[] = [];
const originalError = console.error;

beforeAll(async () => {
  ({ ts, provider } = await startServerWithProvider({ PARLEY_OIDC_NAME: 'Example SSO' }));
  member = await makeUser(ts, 400);
  console.error = (...args: unknown[]) => logged.push(args.map(String).join(' '));
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  console.error = originalError;
  await ts?.close();
  await provider?.close();
});

/** Through the provider, back to (but not into) Parley's callback. */
const throughProvider = (start: string) => followToCallback(start, `${ts.server.deps.config.externalUrl}/complete/oidc/`);

const pathOf = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

async function ssoLogin(web: WebClient, otp: string | null) {
  const start = await web.get(`/accounts/login/social/oidc${otp ? `?mobile_flow_otp=${otp}` : ''}`);
  expect(start.status).toBe(302);
  expect(start.location!.startsWith(provider.issuer)).toBe(true);
  const callback = await throughProvider(start.location!);
  return { callback, done: await web.get(pathOf(callback)) };
}

test('server_settings and the login page show the provider', async () => {
  const settings = assertSuccess(await client(ts, null).get('/server_settings'));
  expect(settings.authentication_methods['openid connect']).toBe(true);
  expect(settings.external_authentication_methods).toEqual([
    { name: 'oidc', display_name: 'Example SSO', display_icon: null, login_url: '/accounts/login/social/oidc', signup_url: '/accounts/register/social/oidc' },
  ]);
  const otp = crypto.randomBytes(32).toString('hex');
  const page = await new WebClient(ts).get(`/login/?mobile_flow_otp=${otp}`);
  expect(page.html).toContain(`href="/accounts/login/social/oidc?mobile_flow_otp=${otp}">Log in with Example SSO</a>`);
});

test('the mobile flow: provider login, then zulip:// with the key encrypted with the pad', async () => {
  provider.nextUser = { sub: 'member-sub', email: member.email.toUpperCase(), email_verified: true, name: 'Whoever' };
  const otp = crypto.randomBytes(32).toString('hex');
  const web = new WebClient(ts);
  const { done } = await ssoLogin(web, otp);
  expect(done.status).toBe(302);
  const location = new URL(done.location!);
  expect(location.protocol).toBe('zulip:');
  expect(location.searchParams.get('email')).toBe(member.email);
  expect(location.searchParams.get('user_id')).toBe(String(member.id));
  const apiKey = otpDecryptApiKey(location.searchParams.get('otp_encrypted_api_key')!, otp);
  expect(assertSuccess(await client(ts, { email: member.email, apiKey }).get('/users/me')).user_id).toBe(member.id);
});

test('without a pad the browser gets a session', async () => {
  provider.nextUser = { sub: 'member-sub', email: member.email, email_verified: true };
  const web = new WebClient(ts);
  const { done } = await ssoLogin(web, null);
  expect(done.status).toBe(302);
  expect(done.location).toBe('/');
  expect((await web.get('/login/')).location).toBe('/');
});

test('a callback whose state does not match the browser is refused', async () => {
  provider.nextUser = { sub: 'member-sub', email: member.email, email_verified: true };
  const otp = crypto.randomBytes(32).toString('hex');
  const web = new WebClient(ts);
  const start = await web.get(`/accounts/login/social/oidc?mobile_flow_otp=${otp}`);
  const callback = new URL(await throughProvider(start.location!));
  callback.searchParams.set('state', 'x'.repeat(43));
  const forged = await web.get(pathOf(callback.toString()));
  expect(forged.status).toBe(400);
  expect(forged.location).toBeNull();
  expect(forged.html).toContain('Single sign-on failed');

  // Another browser (without this flow's cookie) cannot use a genuine callback either.
  const web2 = new WebClient(ts);
  const start2 = await web2.get(`/accounts/login/social/oidc?mobile_flow_otp=${otp}`);
  const genuine = await throughProvider(start2.location!);
  const stranger = await new WebClient(ts).get(pathOf(genuine));
  expect(stranger.status).toBe(400);
  expect(stranger.location).toBeNull();
  // The browser that started the flow completes it, once.
  const owner = await web2.get(pathOf(genuine));
  expect(owner.status).toBe(302);
  const again = await web2.get(pathOf(genuine));
  expect(again.status).toBe(400);
});

test('refusals: no account for the address, unverified address, malformed pad', async () => {
  provider.nextUser = { sub: 'stranger', email: 'stranger@example.org', email_verified: true };
  const { done } = await ssoLogin(new WebClient(ts), null);
  expect(done.status).toBe(400);
  expect(done.html).toContain('There is no account for stranger@example.org in this organization.');

  provider.nextUser = { sub: 'unverified', email: member.email, email_verified: false };
  const unverified = await ssoLogin(new WebClient(ts), null);
  expect(unverified.done.status).toBe(400);
  expect(unverified.done.location).toBeNull();

  const bad = await new WebClient(ts).get('/accounts/login/social/oidc?mobile_flow_otp=123');
  expect(bad.status).toBe(400);
  expect(bad.html).toContain('Invalid OTP');
});

test('no secret reaches the log', async () => {
  expect(logged.join('\n')).not.toContain(provider.clientSecret);
  for (const line of logged) expect(line).not.toMatch(/[A-Za-z0-9_-]{40,}/);
});
