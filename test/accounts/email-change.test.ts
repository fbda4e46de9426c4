import { assertError, assertSuccess, client } from '../helpers/api';
import { verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { lastLinkTo, mailsTo, tempDataDir } from './outbox';
import { WebClient } from './web-client';

let ts: TestServer;
let data: ReturnType<typeof tempDataDir>;
let admin: TestUser;
let other: TestUser;

beforeAll(async () => {
  data = tempDataDir();
  ts = await startTestServer({ DATA_DIR: data.dir });
  admin = await makeUser(ts, 200);
  other = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  data.remove();
});

const CONFIRM = '/accounts/confirm_new_email/';

async function confirm(link: string) {
  const web = new WebClient(ts);
  const page = await web.get(link);
  return { page, done: page.status === 200 ? await web.post(link, {}) : null };
}

test('a confirmed change: link to the new address, realm_user events, old address told', async () => {
  const user = await makeUser(ts, 400);
  const newEmail = `renamed-${user.id}@example.net`;
  const started = await client(ts, user).patch('/settings', { email: newEmail });
  assertSuccess(started);
  // Nothing changes until the link is opened.
  expect((await client(ts, user).get('/users/me')).body.delivery_email).toBe(user.email);
  const link = lastLinkTo(ts, newEmail, CONFIRM);
  expect(mailsTo(ts, newEmail).at(-1)!.text).toContain(user.email);

  // Opening the link only asks; the form's POST changes the address.
  const web = new WebClient(ts);
  const page = await web.get(link);
  expect(page.status).toBe(200);
  expect(page.html).toContain(newEmail);
  expect((await client(ts, user).get('/users/me')).body.delivery_email).toBe(user.email);

  // The user's own client goes on with the new address once it has changed.
  const self = { ...user };
  const [mine, admins, others] = await verifyActionFor(ts, [self, admin, other], async () => {
    expect((await web.post(link, {})).status).toBe(200);
    self.email = newEmail;
  });
  for (const events of [mine, admins, others]) {
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: newEmail } }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: newEmail } }));
  }

  const notice = mailsTo(ts, user.email).at(-1)!;
  expect(notice.subject).toBe('Email address changed for Test Org');
  expect(notice.text).toContain(newEmail);

  // The new address logs in and authenticates; the old one no longer does.
  const me = assertSuccess(await client(ts, { email: newEmail, apiKey: user.apiKey }).get('/users/me'));
  expect(me.delivery_email).toBe(newEmail);
  expect((await client(ts, user).get('/users/me')).status).toBe(401);
  assertSuccess(await client(ts, null).post('/fetch_api_key', { username: newEmail, password: user.password }));

  // A used link is refused.
  const again = await confirm(link);
  expect(again.page.status).toBe(400);
  expect(again.page.html).toContain('The confirmation link has expired or been deactivated.');
});

test('only members who may see the real address hear of it', async () => {
  const user = await makeUser(ts, 400);
  // Visible to administrators only.
  assertSuccess(await client(ts, user).patch('/settings', { email_address_visibility: 3 }));
  const newEmail = `hidden-${user.id}@example.net`;
  assertSuccess(await client(ts, user).patch('/settings', { email: newEmail }));
  const link = lastLinkTo(ts, newEmail, CONFIRM);
  const web = new WebClient(ts);
  await web.get(link);
  const [admins, others] = await verifyActionFor(ts, [admin, other], () => web.post(link, {}).then((r) => expect(r.status).toBe(200)));
  expect(admins).toContainEqual(expect.objectContaining({ person: { user_id: user.id, delivery_email: newEmail } }));
  // Others learn only the new gravatar, never the address.
  expect(JSON.stringify(others)).not.toContain(newEmail);
  expect(others.map((e) => Object.keys(e.person as object).sort())).toEqual([
    ['avatar_source', 'avatar_url', 'avatar_url_medium', 'avatar_version', 'user_id'],
  ]);
});

test('refusals: address in use, invalid address, a newer request replaces the older link', async () => {
  const user = await makeUser(ts, 400);
  const me = client(ts, user);
  assertError(await me.patch('/settings', { email: other.email }), 'BAD_REQUEST', 'Already has an account.');
  assertError(await me.patch('/settings', { email: other.email.toUpperCase() }), 'BAD_REQUEST', 'Already has an account.');
  assertError(await me.patch('/settings', { email: 'nope' }), 'BAD_REQUEST', 'Invalid address.');
  const gone = await makeUser(ts, 400);
  assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
  assertError(await me.patch('/settings', { email: gone.email }), 'BAD_REQUEST', 'Account has been deactivated.');
  // The same address as now changes nothing and sends nothing.
  const before = mailsTo(ts, user.email).length;
  assertSuccess(await me.patch('/settings', { email: user.email }));
  expect(mailsTo(ts, user.email).length).toBe(before);

  const first = `first-${user.id}@example.net`;
  const second = `second-${user.id}@example.net`;
  assertSuccess(await me.patch('/settings', { email: first }));
  const firstLink = lastLinkTo(ts, first, CONFIRM);
  assertSuccess(await me.patch('/settings', { email: second }));
  expect((await confirm(firstLink)).page.status).toBe(400);

  // Someone else takes the address before the link is used: refused then too.
  const secondLink = lastLinkTo(ts, second, CONFIRM);
  await makeUser(ts, 400, { email: second });
  const late = await confirm(secondLink);
  expect(late.page.status).toBe(200);
  expect(late.done!.status).toBe(400);
  expect(late.done!.html).toContain('Already has an account.');
  expect((await me.get('/users/me')).body.delivery_email).toBe(user.email);
});

test('the change through GraphQL updateSettings', async () => {
  const user = await makeUser(ts, 400);
  const newEmail = `graphql-${user.id}@example.net`;
  const res = await fetch(`${ts.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from(`${user.email}:${user.apiKey}`).toString('base64')}` },
    body: JSON.stringify({ query: `mutation($e: String!) { updateSettings(input: { email: $e }) { timezone } }`, variables: { e: newEmail } }),
  });
  expect(((await res.json()) as { errors?: unknown }).errors).toBeUndefined();
  expect(lastLinkTo(ts, newEmail, CONFIRM)).toMatch(/^\/accounts\/confirm_new_email\/[a-z0-9]{24}\/$/);
});

describe('rate limit', () => {
  let limited: TestServer;
  let limitedData: ReturnType<typeof tempDataDir>;
  beforeAll(async () => {
    limitedData = tempDataDir();
    limited = await startTestServer({ DATA_DIR: limitedData.dir, PARLEY_RATE_LIMITING: 'true', PARLEY_RATE_LIMIT_EMAIL_CHANGE_BY_USER: '3600:2' });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await limited.close();
    limitedData.remove();
  });

  test('email changes per user', async () => {
    const user = await makeUser(limited, 400);
    const me = client(limited, user);
    assertSuccess(await me.patch('/settings', { email: 'x1@example.net' }));
    assertSuccess(await me.patch('/settings', { email: 'x2@example.net' }));
    const third = await me.patch('/settings', { email: 'x3@example.net' });
    expect(third.status).toBe(429);
    expect(third.body.code).toBe('RATE_LIMIT_HIT');
    expect(mailsTo(limited, 'x3@example.net')).toHaveLength(0);
  });
});

test("the organization's email_changes_disabled stops members, not administrators", async () => {
  const user = await makeUser(ts, 400);
  assertSuccess(await client(ts, ts.owner).patch('/realm', { email_changes_disabled: true }));
  try {
    assertError(
      await client(ts, user).patch('/settings', { email: `blocked-${user.id}@example.net` }),
      'BAD_REQUEST',
      'Email address changes are disabled in this organization.',
    );
    expect(mailsTo(ts, `blocked-${user.id}@example.net`)).toHaveLength(0);
    assertSuccess(await client(ts, admin).patch('/settings', { email: `admin-moves-${admin.id}@example.net` }));
    expect(lastLinkTo(ts, `admin-moves-${admin.id}@example.net`, CONFIRM)).toMatch(/^\/accounts\/confirm_new_email\//);
  } finally {
    assertSuccess(await client(ts, ts.owner).patch('/realm', { email_changes_disabled: false }));
  }
  assertSuccess(await client(ts, user).patch('/settings', { email: `allowed-${user.id}@example.net` }));
});
