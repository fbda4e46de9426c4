import crypto from 'node:crypto';
import { otpDecryptApiKey } from '../../src/core/accounts/otp';
import { assertSuccess, client, graphql } from '../helpers/api';
import { verifyAction } from '../helpers/events';
import { throughProvider as followToCallback, startOidcProvider, TestProvider } from '../helpers/oidc-provider';
import { freePort } from '../helpers/ports';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { WebClient } from '../accounts/web-client';
import { CapturedMail, startSmtp } from '../notifications/smtp';

/**
 * enable_login_emails: a "new login" email at each login with a credential (web, mobile flow,
 * POST /fetch_api_key, GraphQL, single sign-on), not for a just-created account nor for API-key
 * requests; its unsubscribe link turns the setting off. send_welcome_emails: a welcome email to
 * people who join by invitation or POST /users, not to bots.
 */
let ts: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let provider: TestProvider;
let admin: TestUser;

const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

beforeAll(async () => {
  smtp = await startSmtp();
  const port = await freePort();
  const externalUrl = `http://127.0.0.1:${port}`;
  provider = await startOidcProvider(`${externalUrl}/complete/oidc/`);
  ts = await startTestServer({
    SMTP_URL: smtp.url,
    PORT: String(port),
    PARLEY_EXTERNAL_URL: externalUrl,
    PARLEY_OIDC_ISSUER: provider.issuer,
    PARLEY_OIDC_CLIENT_ID: provider.clientId,
    PARLEY_OIDC_CLIENT_SECRET: provider.clientSecret,
  });
  admin = await makeUser(ts, 200, { canCreateUsers: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await provider?.close();
  await smtp?.close();
});

const loginMails = (to: string): CapturedMail[] => smtp.mails.filter((m) => m.to.includes(to) && m.subject.startsWith('New login to Test Org'));
const welcomeMails = (to: string): CapturedMail[] => smtp.mails.filter((m) => m.to.includes(to) && m.subject === 'Welcome to Test Org');

/** An account made more than a minute ago: its logins are not its sign-up. */
async function settledUser(role: 100 | 200 | 400 = 400): Promise<TestUser> {
  const user = await makeUser(ts, role);
  await ts.server.deps
    .knex('users')
    .where({ id: user.id })
    .update({ date_joined: new Date(Date.now() - 3600_000) });
  return user;
}

async function fetchApiKey(user: TestUser, userAgent = FIREFOX_LINUX): Promise<Record<string, any>> {
  const res = await fetch(`${ts.url}/api/v1/fetch_api_key`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': userAgent },
    body: new URLSearchParams({ username: user.email, password: user.password }).toString(),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, any>;
}

describe('new-login emails', () => {
  test('POST /fetch_api_key: when, where from and which device, in the user’s time zone and clock', async () => {
    const user = await settledUser();
    assertSuccess(await client(ts, user).patch('/settings', { timezone: 'America/New_York' }));
    await fetchApiKey(user);
    const [mail] = loginMails(user.email);
    expect(loginMails(user.email)).toHaveLength(1);
    expect(mail.subject).toBe('New login to Test Org from Firefox on Linux');
    expect(mail.text).toContain(`Your account ${user.email} in Test Org (${ts.server.deps.config.externalUrl}) was just used to log in.`);
    expect(mail.text).toContain('Device: Firefox on Linux');
    expect(mail.text).toContain('IP address: 127.0.0.1');
    expect(mail.text).toMatch(/When: \w+day, \w+ \d{1,2}, \d{4} at \d{1,2}:\d{2} (AM|PM) E[SD]T/);
    expect(mail.html).toContain('Firefox on Linux');
    expect(mail.headerLines.get('list-unsubscribe')).toMatch(/\/accounts\/unsubscribe\/login\//);
    // Nothing secret in it.
    expect(mail.text).not.toContain(user.password);

    assertSuccess(await client(ts, user).patch('/settings', { twenty_four_hour_time: true }));
    await fetchApiKey(user, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36 Edg/131.0');
    const second = loginMails(user.email)[1];
    expect(second.text).toContain('Device: Edge on Windows');
    expect(second.text).toMatch(/When: \w+day, \w+ \d{1,2}, \d{4} at \d{2}:\d{2} E[SD]T/);
  });

  test('none for an account created less than a minute ago, nor with the setting off, nor for API-key requests', async () => {
    const fresh = await makeUser(ts, 400);
    await fetchApiKey(fresh);
    expect(loginMails(fresh.email)).toEqual([]);

    const user = await settledUser();
    assertSuccess(await client(ts, user).patch('/settings', { enable_login_emails: false }));
    await fetchApiKey(user);
    assertSuccess(await client(ts, user).get('/users/me'));
    expect(loginMails(user.email)).toEqual([]);
  });

  test('web login, the mobile login flow and GraphQL fetchApiKey each send one', async () => {
    const user = await settledUser();
    const web = new WebClient(ts);
    await web.get('/login/');
    expect((await web.post('/login/', { username: user.email, password: user.password })).status).toBe(302);
    expect(loginMails(user.email)).toHaveLength(1);
    // The test browser names no known browser or system.
    expect(loginMails(user.email)[0].text).toContain('Device: An unknown browser on an unknown operating system');
    // Visiting pages with the session is no new login.
    await web.get('/login/');
    expect(loginMails(user.email)).toHaveLength(1);

    const otp = crypto.randomBytes(32).toString('hex');
    const mobile = new WebClient(ts);
    await mobile.get(`/login/?mobile_flow_otp=${otp}`);
    const res = await mobile.post('/login/', { username: user.email, password: user.password, mobile_flow_otp: otp });
    expect(res.location).toMatch(/^zulip:\/\/login\?/);
    expect(otpDecryptApiKey(new URL(res.location!).searchParams.get('otp_encrypted_api_key')!, otp)).toHaveLength(32);
    expect(loginMails(user.email)).toHaveLength(2);

    const gql = await graphql(ts, null, 'mutation($u: String!, $p: String!) { fetchApiKey(username: $u, password: $p) { userId } }', {
      u: user.email,
      p: user.password,
    });
    expect(gql.data?.fetchApiKey.userId).toBe(user.id);
    expect(loginMails(user.email)).toHaveLength(3);
  });

  test('single sign-on logins send one', async () => {
    const user = await settledUser();
    provider.nextUser = { sub: `sub-${user.id}`, email: user.email, email_verified: true, name: user.fullName };
    const web = new WebClient(ts);
    const start = await web.get('/accounts/login/social/oidc');
    const callback = await followToCallback(start.location!, `${ts.server.deps.config.externalUrl}/complete/oidc/`);
    const url = new URL(callback);
    const done = await web.get(url.pathname + url.search);
    expect(done.status).toBe(302);
    expect(web.cookies.has('sessionid')).toBe(true);
    expect(loginMails(user.email)).toHaveLength(1);
  });

  test('the unsubscribe link turns enable_login_emails off, announced to the user', async () => {
    const user = await settledUser();
    await fetchApiKey(user);
    const link = /(https?:\/\/\S+\/accounts\/unsubscribe\/login\/\S+)/.exec(loginMails(user.email)[0].text)![1];
    const events = await verifyAction(ts, user, async () => {
      const res = await fetch(link);
      expect(res.status).toBe(200);
    });
    expect(events).toEqual([expect.objectContaining({ type: 'user_settings', op: 'update', property: 'enable_login_emails', value: false })]);
    await fetchApiKey(user);
    expect(loginMails(user.email)).toHaveLength(1);
    // A link for another kind of email does not work for this one.
    expect((await fetch(link.replace('/login/', '/digest/'))).status).toBe(404);
  });
});

describe('welcome emails', () => {
  async function joinByInvitation(email: string): Promise<void> {
    assertSuccess(await client(ts, admin).post('/invites', { invitee_emails: email, stream_ids: [] }));
    const invitation = smtp.mails.filter((m) => m.to.includes(email)).at(-1)!;
    const key = /\/join\/([a-z0-9]{24})\//.exec(invitation.text)![1];
    assertSuccess(await client(ts, null).post(`/join/${key}`, { full_name: 'New Person', password: 'a-long-unguessable-pass-42' }));
  }

  const setWelcome = async (on: boolean) => assertSuccess(await client(ts, ts.owner).patch('/realm', { send_welcome_emails: on }));

  test('invitation sign-up and POST /users: organization, address, login email, apps and help', async () => {
    const invited = `welcome-invited-${crypto.randomUUID()}@example.com`;
    await joinByInvitation(invited);
    expect(welcomeMails(invited)).toHaveLength(1);
    const [mail] = welcomeMails(invited);
    const url = ts.server.deps.config.externalUrl;
    expect(mail.text).toContain('Welcome to Test Org!');
    expect(mail.text).toContain(`Address: ${url}`);
    expect(mail.text).toContain(`Your login email: ${invited}`);
    expect(mail.text).toContain('https://zulip.com/apps/');
    expect(mail.text).toContain('https://zulip.com/help/');
    expect(mail.html).toContain(`<a href="${url}">`);
    // Read on its own (a saved file, a screen reader), the HTML part says its language and subject.
    expect(mail.html).toContain('<html lang="en"><head><meta charset="utf-8"><title>Welcome to Test Org</title>');
    // Signing up is no new login to report.
    expect(loginMails(invited)).toEqual([]);

    const created = `welcome-api-${crypto.randomUUID()}@example.com`;
    assertSuccess(await client(ts, admin).post('/users', { email: created, password: 'a-long-unguessable-pass-42', full_name: 'Api Person' }));
    expect(welcomeMails(created)).toHaveLength(1);
    expect(welcomeMails(created)[0].text).toContain('Hi Api Person,');
  });

  test('none while send_welcome_emails is off, and none to bots', async () => {
    await setWelcome(false);
    try {
      const invited = `nowelcome-invited-${crypto.randomUUID()}@example.com`;
      await joinByInvitation(invited);
      const created = `nowelcome-api-${crypto.randomUUID()}@example.com`;
      assertSuccess(await client(ts, admin).post('/users', { email: created, password: 'a-long-unguessable-pass-42', full_name: 'Quiet Person' }));
      expect(welcomeMails(invited)).toEqual([]);
      expect(welcomeMails(created)).toEqual([]);
    } finally {
      await setWelcome(true);
    }
    const welcomes = () => smtp.mails.filter((m) => m.subject === 'Welcome to Test Org').length;
    const before = welcomes();
    assertSuccess(await client(ts, admin).post('/bots', { full_name: 'Helper Bot', short_name: `helper-${Date.now()}`, bot_type: 1 }));
    expect(welcomes()).toBe(before);
  });
});
