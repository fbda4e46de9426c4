import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { lastLinkTo, mailsTo, tempDataDir } from './outbox';
import { csrfFieldOf, WebClient } from './web-client';

let ts: TestServer;
let data: ReturnType<typeof tempDataDir>;
let member: TestUser;

beforeAll(async () => {
  data = tempDataDir();
  ts = await startTestServer({ DATA_DIR: data.dir });
  member = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  data.remove();
});

const RESET = '/accounts/password/reset/';

async function requestReset(web: WebClient, email: string) {
  const form = await web.get(RESET);
  expect(form.status).toBe(200);
  expect(csrfFieldOf(form.html)).toBe(web.cookies.get('csrftoken'));
  return web.post(RESET, { email });
}

const fetchKey = (username: string, password: string) => client(ts, null).post('/fetch_api_key', { username, password });

describe('password change in PATCH /settings', () => {
  test('needs the old password and a strong new one', async () => {
    const user = await makeUser(ts, 400);
    const me = client(ts, user);
    assertError(await me.patch('/settings', { old_password: 'not-it', new_password: 'a much better password 7' }), 'BAD_REQUEST', 'Wrong password!');
    assertError(await me.patch('/settings', { old_password: user.password, new_password: 'password' }), 'BAD_REQUEST', 'New password is too weak!');
    assertError(await me.patch('/settings', { old_password: user.password, new_password: 'qwerty12' }), 'BAD_REQUEST', 'New password is too weak!');
    assertSuccess(await fetchKey(user.email, user.password));

    assertSuccess(await me.patch('/settings', { old_password: user.password, new_password: 'a much better password 7' }));
    assertError(await fetchKey(user.email, user.password), 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
    assertSuccess(await fetchKey(user.email, 'a much better password 7'));
  });
});

describe('password reset by email', () => {
  test('the whole flow: request, open the link, set a new password, log in', async () => {
    const user = await makeUser(ts, 400);
    const web = new WebClient(ts);
    const asked = await requestReset(web, user.email.toUpperCase());
    expect(asked.status).toBe(200);
    expect(asked.html).toContain('Check your email');

    const link = lastLinkTo(ts, user.email, RESET);
    const mail = mailsTo(ts, user.email).at(-1)!;
    expect(mail.subject).toBe('Reset your password for Test Org');

    const page = await web.get(link);
    expect(page.status).toBe(200);
    expect(page.html).toContain(user.email);
    expect(page.html).toContain('name="new_password1"');

    const mismatch = await web.post(link, { new_password1: 'brand new secret 42', new_password2: 'brand new secret 43' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.html).toContain('The two password fields didn’t match.');
    const weak = await web.post(link, { new_password1: 'abcdef', new_password2: 'abcdef' });
    expect(weak.status).toBe(400);
    expect(weak.html).toContain('The password is too weak.');

    const done = await web.post(link, { new_password1: 'brand new secret 42', new_password2: 'brand new secret 42' });
    expect(done.status).toBe(200);
    expect(done.html).toContain('Your password has been changed');
    assertError(await fetchKey(user.email, user.password), 'AUTHENTICATION_FAILED', 'Your username or password is incorrect', 401);
    const key = assertSuccess(await fetchKey(user.email, 'brand new secret 42'));
    expect(key.user_id).toBe(user.id);
    // The account's API keys keep working, as in Zulip.
    assertSuccess(await client(ts, user).get('/users/me'));

    // A used link is refused, on the page and on submission.
    const again = await web.get(link);
    expect(again.status).toBe(400);
    expect(again.html).toContain('The confirmation link has expired or been deactivated.');
    const resubmit = await web.post(link, { new_password1: 'yet another secret 99', new_password2: 'yet another secret 99' });
    expect(resubmit.status).toBe(400);
    assertSuccess(await fetchKey(user.email, 'brand new secret 42'));
  });

  test('an expired link is refused', async () => {
    const web = new WebClient(ts);
    await requestReset(web, member.email);
    const link = lastLinkTo(ts, member.email, RESET);
    await ts.server.deps
      .knex('account_tokens')
      .where({ user_id: member.id, purpose: 'password_reset' })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const page = await web.get(link);
    expect(page.status).toBe(400);
    expect(page.html).toContain('The confirmation link has expired or been deactivated.');
    const submit = await web.post(link, { new_password1: 'brand new secret 42', new_password2: 'brand new secret 42' });
    expect(submit.status).toBe(400);
    assertSuccess(await fetchKey(member.email, member.password));
  });

  test('a made-up link is refused', async () => {
    const web = new WebClient(ts);
    expect((await web.get(`${RESET}abcdefghijklmnopqrstuvwx/`)).status).toBe(400);
    expect((await web.get(`${RESET}not-a-token/`)).status).toBe(400);
  });

  test('the same answer whether the address has an account or not', async () => {
    const web = new WebClient(ts);
    const known = await requestReset(web, member.email);
    const unknown = await requestReset(web, 'nobody-here@example.com');
    expect(unknown.status).toBe(known.status);
    expect(unknown.html.replace('nobody-here@example.com', 'X')).toBe(known.html.replace(member.email, 'X'));
    // The unknown address is told there is no account; no link goes anywhere.
    const note = mailsTo(ts, 'nobody-here@example.com');
    expect(note).toHaveLength(1);
    expect(note[0].text).toContain('there is no account with this address');
    expect(note[0].text).not.toMatch(/\/accounts\/password\/reset\/[a-z0-9]{24}\//);
  });

  test('a deactivated account gets no link', async () => {
    const gone = await makeUser(ts, 400);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const web = new WebClient(ts);
    expect((await requestReset(web, gone.email)).status).toBe(200);
    expect(mailsTo(ts, gone.email).at(-1)!.text).toContain('has been deactivated');
  });

  test('forms without the CSRF token are refused and change nothing', async () => {
    const web = new WebClient(ts);
    await web.get(RESET);
    const before = mailsTo(ts, member.email).length;
    const res = await web.post(RESET, { email: member.email }, { csrf: false });
    expect(res.status).toBe(403);
    expect(res.html).toContain('CSRF verification failed');
    const forged = await web.post(RESET, { email: member.email, csrfmiddlewaretoken: 'x'.repeat(43) }, { csrf: false });
    expect(forged.status).toBe(403);
    expect(mailsTo(ts, member.email).length).toBe(before);
  });

  test('an invalid address is refused', async () => {
    const web = new WebClient(ts);
    await web.get(RESET);
    const res = await web.post(RESET, { email: 'not an address' });
    expect(res.status).toBe(400);
    expect(res.html).toContain('Enter a valid email address.');
  });

  test('GraphQL requestPasswordReset sends the same link', async () => {
    const user = await makeUser(ts, 400);
    const res = await fetch(`${ts.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `mutation($e: String!) { requestPasswordReset(email: $e) { email } }`, variables: { e: user.email } }),
    });
    const body = (await res.json()) as { errors?: unknown; data: { requestPasswordReset: { email: string } } };
    expect(body.errors).toBeUndefined();
    expect(body.data.requestPasswordReset.email).toBe(user.email);
    expect(lastLinkTo(ts, user.email, RESET)).toMatch(/^\/accounts\/password\/reset\/[a-z0-9]{24}\/$/);
  });
});

describe('rate limits', () => {
  let limited: TestServer;
  let limitedData: ReturnType<typeof tempDataDir>;
  beforeAll(async () => {
    limitedData = tempDataDir();
    limited = await startTestServer({
      DATA_DIR: limitedData.dir,
      PARLEY_RATE_LIMITING: 'true',
      PARLEY_RATE_LIMIT_PASSWORD_RESET_FORM_BY_EMAIL: '3600:2',
      PARLEY_RATE_LIMIT_SENDS_EMAIL_BY_IP: '86400:5',
      PARLEY_RATE_LIMIT_AUTHENTICATE_BY_USERNAME: '1800:3',
    });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await limited.close();
    limitedData.remove();
  });

  test('reset requests per address, then per client address', async () => {
    const web = new WebClient(limited);
    await web.get(RESET);
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await web.post(RESET, { email: 'someone@example.com' })).status);
    expect(statuses).toEqual([200, 200, 429]);
    // Other addresses from the same client: two more, then the client is out of emails for the day.
    const more = [];
    for (const email of ['a1@example.com', 'a2@example.com', 'a3@example.com', 'a4@example.com']) more.push((await web.post(RESET, { email })).status);
    expect(more).toEqual([200, 200, 429, 429]);
    expect(mailsTo(limited, 'someone@example.com')).toHaveLength(2);
    expect(mailsTo(limited, 'a3@example.com')).toHaveLength(0);
  });

  test('password changes count against the address, as logins do', async () => {
    const user = await makeUser(limited, 400);
    const me = client(limited, user);
    for (let i = 0; i < 3; i++)
      assertError(await me.patch('/settings', { old_password: `wrong-${i}`, new_password: 'brand new secret 42' }), 'BAD_REQUEST', 'Wrong password!');
    const res = await me.patch('/settings', { old_password: user.password, new_password: 'brand new secret 42' });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('RATE_LIMIT_HIT');
    assertSuccess(await client(limited, user).get('/users/me'));
    const login = await client(limited, null).post('/fetch_api_key', { username: user.email, password: user.password });
    expect(login.status).toBe(429);
  });
});
