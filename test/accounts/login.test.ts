import crypto from 'node:crypto';
import { otpDecryptApiKey } from '../../src/core/accounts/otp';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { csrfFieldOf, WebClient } from './web-client';

let ts: TestServer;
let member: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
});

const newOtp = () => crypto.randomBytes(32).toString('hex');
const cookieLine = (lines: string[], name: string) => lines.find((l) => l.startsWith(`${name}=`));

test('the login page: an accessible form with a CSRF token', async () => {
  const web = new WebClient(ts);
  const page = await web.get('/login/');
  expect(page.status).toBe(200);
  expect(page.html).toContain('<html lang="en">');
  expect(page.html).toContain('<label for="username">Email</label>');
  expect(page.html).toContain('<label for="password">Password</label>');
  expect(page.html).toContain('href="/accounts/password/reset/"');
  expect(csrfFieldOf(page.html)).toBe(web.cookies.get('csrftoken'));
  const csrfCookie = cookieLine(page.setCookies, 'csrftoken')!;
  expect(csrfCookie).toMatch(/HttpOnly/);
  expect(csrfCookie).toMatch(/SameSite=Lax/);
  expect(csrfCookie).not.toMatch(/Secure/);
});

test('wrong password: the form again with an error, no session', async () => {
  const web = new WebClient(ts);
  await web.get('/login/');
  const res = await web.post('/login/', { username: member.email, password: 'not-the-password' });
  expect(res.status).toBe(401);
  expect(res.html).toContain('Your username or password is incorrect');
  expect(res.html).toContain(`value="${member.email}"`);
  expect(res.html).not.toContain('not-the-password');
  expect(web.cookies.has('sessionid')).toBe(false);
});

test('a browser login starts a session; logout ends it', async () => {
  const web = new WebClient(ts);
  await web.get('/login/');
  const res = await web.post('/login/', { username: member.email, password: member.password });
  expect(res.status).toBe(302);
  expect(res.location).toBe('/');
  const session = cookieLine(res.setCookies, 'sessionid')!;
  expect(session).toMatch(/HttpOnly/);
  expect(session).toMatch(/SameSite=Lax/);
  const stored = await ts.server.deps.knex('web_sessions').where({ user_id: member.id });
  expect(stored.length).toBeGreaterThan(0);
  // Only the hash is stored.
  expect(stored.map((s) => s.session_hash)).not.toContain(web.cookies.get('sessionid'));

  // Signed in, /login/ leads into the web app.
  const page = await web.get('/login/');
  expect(page.status).toBe(302);
  expect(page.location).toBe('/');

  // Logout needs the CSRF token too.
  expect((await web.post('/logout/', {}, { csrf: false })).status).toBe(403);
  const sessionId = web.cookies.get('sessionid')!;
  const out = await web.post('/logout/', {});
  expect(out.status).toBe(302);
  expect(out.location).toBe('/login/');
  expect(web.cookies.has('sessionid')).toBe(false);
  // The old cookie no longer opens a session.
  web.cookies.set('sessionid', sessionId);
  expect((await web.get('/login/')).html).toContain('name="password"');
});

test('next: only paths on this server', async () => {
  const web = new WebClient(ts);
  await web.get('/login/?next=/accounts/password/reset/');
  const res = await web.post('/login/', { username: member.email, password: member.password, next: '/accounts/password/reset/' });
  expect(res.location).toBe('/accounts/password/reset/');
  const other = new WebClient(ts);
  await other.get('/login/');
  const away = await other.post('/login/', { username: member.email, password: member.password, next: '//evil.example/' });
  expect(away.location).toBe('/');
});

test('login without the CSRF token is refused', async () => {
  const web = new WebClient(ts);
  await web.get('/login/');
  const res = await web.post('/login/', { username: member.email, password: member.password }, { csrf: false });
  expect(res.status).toBe(403);
  expect(web.cookies.has('sessionid')).toBe(false);
});

describe('mobile_flow_otp', () => {
  test('login redirects to zulip://login with the key encrypted with the pad', async () => {
    const otp = newOtp();
    const web = new WebClient(ts);
    const page = await web.get(`/login/?mobile_flow_otp=${otp}`);
    expect(page.html).toContain(`name="mobile_flow_otp" value="${otp}"`);
    const res = await web.post('/login/', { username: member.email, password: member.password, mobile_flow_otp: otp });
    expect(res.status).toBe(302);
    const location = new URL(res.location!);
    expect(location.protocol).toBe('zulip:');
    expect(location.host).toBe('login');
    expect([...location.searchParams.keys()]).toEqual(['otp_encrypted_api_key', 'email', 'user_id', 'realm']);
    expect(location.searchParams.get('email')).toBe(member.email);
    expect(location.searchParams.get('user_id')).toBe(String(member.id));
    expect(location.searchParams.get('realm')).toBe(ts.server.deps.config.externalUrl);
    const encrypted = location.searchParams.get('otp_encrypted_api_key')!;
    expect(encrypted).toMatch(/^[0-9a-f]{64}$/);
    const apiKey = otpDecryptApiKey(encrypted, otp);
    expect(apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
    const me = assertSuccess(await client(ts, { email: member.email, apiKey }).get('/users/me'));
    expect(me.user_id).toBe(member.id);
    // The mobile flow starts no browser session, as in Zulip.
    expect(web.cookies.has('sessionid')).toBe(false);
  });

  test('a browser already logged in is sent straight back to the app', async () => {
    const web = new WebClient(ts);
    await web.get('/login/');
    await web.post('/login/', { username: member.email, password: member.password });
    const otp = newOtp();
    const res = await web.get(`/login/?mobile_flow_otp=${otp}`);
    expect(res.status).toBe(302);
    const apiKey = otpDecryptApiKey(new URL(res.location!).searchParams.get('otp_encrypted_api_key')!, otp);
    assertSuccess(await client(ts, { email: member.email, apiKey }).get('/users/me'));
  });

  test('a malformed pad is refused', async () => {
    const web = new WebClient(ts);
    for (const bad of ['1234', 'g'.repeat(64), 'a'.repeat(65)]) {
      const res = await web.get(`/login/?mobile_flow_otp=${bad}`);
      expect(res.status).toBe(400);
      expect(res.html).toContain('Invalid OTP');
    }
    await web.get('/login/');
    const res = await web.post('/login/', { username: member.email, password: member.password, mobile_flow_otp: 'abc' });
    expect(res.status).toBe(400);
    expect(res.location).toBeNull();
  });

  test('wrong password with a pad: no redirect', async () => {
    const otp = newOtp();
    const web = new WebClient(ts);
    await web.get(`/login/?mobile_flow_otp=${otp}`);
    const res = await web.post('/login/', { username: member.email, password: 'wrong', mobile_flow_otp: otp });
    expect(res.status).toBe(401);
    expect(res.location).toBeNull();
    expect(res.html).toContain(`name="mobile_flow_otp" value="${otp}"`);
  });
});

test('server_settings lists the password method and no external ones', async () => {
  const res = assertSuccess(await client(ts, null).get('/server_settings'));
  expect(res.authentication_methods).toMatchObject({ password: true, email: true, ldap: false, 'openid connect': false });
  expect(res.external_authentication_methods).toEqual([]);
  expect(res.require_email_format_usernames).toBe(true);
});

describe('behind https', () => {
  let secure: TestServer;
  beforeAll(async () => {
    secure = await startTestServer({ PARLEY_EXTERNAL_URL: 'https://chat.example.test' });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await secure.close();
  });

  test('cookies are Secure', async () => {
    const web = new WebClient(secure);
    const page = await web.get('/login/');
    expect(cookieLine(page.setCookies, 'csrftoken')).toMatch(/Secure/);
    const res = await web.post('/login/', { username: secure.owner.email, password: secure.owner.password });
    expect(cookieLine(res.setCookies, 'sessionid')).toMatch(/; Secure/);
  });
});
