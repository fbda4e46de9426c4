import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listOutbox } from '../../src/core/email/outbox';
import { assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents, verifyActionFor } from '../helpers/events';
import { startFakeSmtp } from './fake-smtp';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let dataDir: string;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-join-'));
  ts = await startTestServer({ DATA_DIR: dataDir });
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400);
}, 120_000);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let counter = 0;
const fresh = () => `joiner${++counter}-${Date.now()}@example.org`;
const linkFor = (email: string) => {
  const mails = listOutbox(ts.server.deps.config).filter((m) => m.to === email);
  return /(http\S+\/join\/[a-z0-9]{24}\/)/.exec(mails[mails.length - 1].text)![1];
};
const pathOf = (link: string) => new URL(link).pathname;
const keyOf = (link: string) => /\/join\/([a-z0-9]{24})\//.exec(link)![1];

async function submitForm(link: string, fields: Record<string, string>) {
  const res = await fetch(link, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    redirect: 'manual',
  });
  return { status: res.status, html: await res.text(), location: res.headers.get('location'), cookies: res.headers.getSetCookie() };
}

async function makeGroup(name: string): Promise<number> {
  const [row] = await ts.server.deps
    .knex('user_groups')
    .insert({ realm_id: ts.server.deps.realmId, name, settings: JSON.stringify({ can_manage_group: { direct_members: [admin.id], direct_subgroups: [] } }) })
    .returning('id');
  return typeof row === 'object' ? row.id : row;
}

test('the whole email flow: invite, open the link, sign up, log in', async () => {
  const email = fresh();
  const group = await makeGroup(`joiners-${Date.now()}`);
  assertSuccess(await client(ts, admin).post('/invites', { invitee_emails: email, stream_ids: [], invite_as: 300, group_ids: [group] }));
  const link = linkFor(email);
  expect(link.startsWith(ts.server.deps.config.externalUrl)).toBe(true);

  const page = await fetch(`${ts.url}${pathOf(link)}`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const html = await page.text();
  expect(html).toContain(email);
  expect(html).toContain('name="full_name"');
  expect(html).toContain('name="password"');
  expect(html).not.toContain('name="email"');

  const events = captureEvents(ts);
  let done;
  try {
    done = await submitForm(`${ts.url}${pathOf(link)}`, { full_name: 'New Moderator', password: 'a-good-password' });
    // Signed in, and on into the web app.
    expect(done.status).toBe(302);
    expect(done.location).toBe('/');
    expect(done.cookies.some((c) => /^sessionid=[^;]+;.*HttpOnly/i.test(c))).toBe(true);
    const added = events.ofType('realm_user').find((e) => e.event.op === 'add')!;
    expect(added.event.person).toMatchObject({ full_name: 'New Moderator', role: 300 });
    const userId = (added.event.person as { user_id: number }).user_id;
    expect(events.ofType('user_group').filter((e) => e.event.group_id === group)).toEqual([
      { event: { type: 'user_group', op: 'add_members', group_id: group, user_ids: [userId] }, userIds: expect.arrayContaining([admin.id, userId]) },
    ]);
    expect(events.ofType('invites_changed').length).toBeGreaterThanOrEqual(1);
  } finally {
    events.stop();
  }

  const login = assertSuccess(await client(ts, null).post('/fetch_api_key', { username: email, password: 'a-good-password' }));
  const me = assertSuccess(await client(ts, { email, apiKey: login.api_key }).get('/users/me'));
  expect(me).toMatchObject({ email, full_name: 'New Moderator', role: 300 });
  const members = await ts.server.deps.knex('user_group_members').where({ group_id: group }).pluck('user_id');
  expect(members).toEqual([me.user_id]);

  // The invitation is used up.
  expect(assertSuccess(await client(ts, admin).get('/invites')).invites.some((i: any) => i.email === email)).toBe(false);
  const again = await fetch(`${ts.url}${pathOf(link)}`);
  expect(again.status).toBe(400);
  expect(await again.text()).toContain('The confirmation link has expired or been deactivated.');
  assertError(
    await client(ts, null).post(`/join/${keyOf(link)}`, { full_name: 'Someone Else', password: 'another-password' }),
    'BAD_REQUEST',
    'The confirmation link has expired or been deactivated.',
  );
});

test('sign-up errors re-show the form with the message', async () => {
  const email = fresh();
  assertSuccess(await client(ts, member).post('/invites', { invitee_emails: email, stream_ids: [] }));
  const link = `${ts.url}${pathOf(linkFor(email))}`;
  const weak = await submitForm(link, { full_name: 'Short Password', password: 'abc' });
  expect(weak.status).toBe(400);
  expect(weak.html).toContain('The password is too weak.');
  expect(weak.html).toContain('value="Short Password"');
  const badName = await submitForm(link, { full_name: 'x', password: 'long-enough-password' });
  expect(badName.html).toContain('Name too short!');
  // Still usable after the failed attempts.
  const ok = await submitForm(link, { full_name: 'Finally Joined', password: 'long-enough-password' });
  expect(ok.status).toBe(302);
});

test('accepting through the JSON endpoint returns credentials; other invitations to the address are retired', async () => {
  const email = fresh();
  assertSuccess(await client(ts, member).post('/invites', { invitee_emails: email, stream_ids: [], invite_as: 600 }));
  const firstLink = linkFor(email);
  assertSuccess(await client(ts, admin).post('/invites', { invitee_emails: email, stream_ids: [] }));
  const secondLink = linkFor(email);
  expect(secondLink).not.toBe(firstLink);

  const body = assertSuccess(
    await client(ts, null).post(`/join/${keyOf(firstLink)}`, { full_name: 'Guest Person', password: 'guest-password', email: 'ignored@example.org' }),
  );
  expect(body).toMatchObject({ user_id: expect.any(Number), email, api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
  const me = assertSuccess(await client(ts, { email, apiKey: body.api_key }).get('/users/me'));
  expect(me.role).toBe(600);
  assertError(
    await client(ts, null).post(`/join/${keyOf(secondLink)}`, { full_name: 'Twice', password: 'guest-password' }),
    'BAD_REQUEST',
    'The confirmation link has expired or been deactivated.',
  );
  expect(assertSuccess(await client(ts, admin).get('/invites')).invites.some((i: any) => i.email === email)).toBe(false);
});

test('the referrer hears from the notification bot when asked, and the client state follows', async () => {
  const email = fresh();
  assertSuccess(await client(ts, member).post('/invites', { invitee_emails: email, stream_ids: [] }));
  let joined = 0;
  const [events] = await verifyActionFor(ts, [member], async () => {
    joined = assertSuccess(await client(ts, null).post(`/join/${keyOf(linkFor(email))}`, { full_name: 'New Joiner', password: 'joiner-password' })).user_id;
  });
  const notice = events.find((e) => e.type === 'message')!;
  expect(notice.message).toMatchObject({ type: 'private', sender_full_name: 'Notification Bot', sender_email: 'notification-bot@zulip.com' });
  expect(notice.message.content).toBe(`@_**New Joiner|${joined}** accepted your invitation to join the organization.`);
  expect(notice.flags).toEqual([]);
  const state = assertSuccess(await client(ts, member).post('/register', { fetch_event_types: ['realm_user', 'recent_private_conversations'] }));
  // The server's bots: the notification bot and the welcome bot.
  expect(state.cross_realm_bots).toEqual([
    expect.objectContaining({ full_name: 'Notification Bot', is_bot: true, is_system_bot: true, user_id: notice.message.sender_id }),
    expect.objectContaining({ full_name: 'Welcome Bot', email: 'welcome-bot@zulip.com', is_bot: true, is_system_bot: true }),
  ]);
  // The bot is not one of the organization's users.
  expect(state.realm_users.some((u: { user_id: number }) => u.user_id === notice.message.sender_id)).toBe(false);
  expect(state.recent_private_conversations[0]).toEqual({ max_message_id: notice.message.id, user_ids: [notice.message.sender_id] });

  const quiet = fresh();
  assertSuccess(await client(ts, member).post('/invites', { invitee_emails: quiet, stream_ids: [], notify_referrer_on_join: false }));
  const [none] = await verifyActionFor(ts, [member], () =>
    client(ts, null).post(`/join/${keyOf(linkFor(quiet))}`, { full_name: 'Quiet Joiner', password: 'joiner-password' }),
  );
  expect(none.filter((e) => e.type === 'message')).toEqual([]);
});

test('a reusable link serves several people until revoked', async () => {
  const link = assertSuccess(await client(ts, admin).post('/invites/multiuse', { invite_as: 400 })).invite_link;
  const page = await fetch(`${ts.url}${pathOf(link)}`);
  expect(await page.text()).toContain('name="email"');
  // The trailing slash is optional.
  expect((await fetch(`${ts.url}${pathOf(link).replace(/\/$/, '')}`)).status).toBe(200);
  const one = fresh();
  const two = fresh();
  const viaForm = await submitForm(`${ts.url}${pathOf(link)}`, { email: one, full_name: 'Link User One', password: 'password-one' });
  expect(viaForm.status).toBe(302);
  assertSuccess(await client(ts, null).post(`/join/${keyOf(link)}`, { email: two, full_name: 'Link User Two', password: 'password-two' }));
  assertError(
    await client(ts, null).post(`/join/${keyOf(link)}`, { full_name: 'No Email', password: 'password-two' }),
    'REQUEST_VARIABLE_MISSING',
    "Missing 'email' argument",
  );
  assertError(
    await client(ts, null).post(`/join/${keyOf(link)}`, { email: one, full_name: 'Link User One', password: 'password-one' }),
    'BAD_REQUEST',
    'Email is already in use.',
  );
  const id = assertSuccess(await client(ts, admin).get('/invites')).invites.find((i: any) => i.link_url === link).id;
  assertSuccess(await client(ts, admin).delete(`/invites/multiuse/${id}`));
  assertError(
    await client(ts, null).post(`/join/${keyOf(link)}`, { email: fresh(), full_name: 'Too Late', password: 'password-3' }),
    'BAD_REQUEST',
    'The confirmation link has expired or been deactivated.',
  );
  // Accounts made through the link before it was revoked keep working.
  expect(assertSuccess(await client(ts, null).post('/fetch_api_key', { username: two, password: 'password-two' })).email).toBe(two);
});

test('expired, revoked and unknown links', async () => {
  const email = fresh();
  assertSuccess(await client(ts, member).post('/invites', { invitee_emails: email, stream_ids: [], invite_expires_in_minutes: 10 }));
  const link = linkFor(email);
  await ts.server.deps
    .knex('invitations')
    .where({ key: keyOf(link) })
    .update({ expiry_date: new Date(Date.now() - 60_000) });
  const expired = await fetch(`${ts.url}${pathOf(link)}`);
  expect(expired.status).toBe(400);
  expect(await expired.text()).toContain('The confirmation link has expired or been deactivated.');

  const unknown = await fetch(`${ts.url}/join/${'z'.repeat(24)}/`);
  expect(unknown.status).toBe(404);
  expect(await unknown.text()).toContain('We couldn&#39;t find your confirmation link in the system.');
  assertError(
    await client(ts, null).post(`/join/${'z'.repeat(24)}`, { full_name: 'Nobody Here', password: 'password' }),
    'NOT_FOUND',
    "We couldn't find your confirmation link in the system.",
    404,
  );
});

test('the sign-up page escapes what it shows', async () => {
  const email = `o'brien${Date.now()}@example.org`;
  assertSuccess(await client(ts, member).post('/invites', { invitee_emails: email, stream_ids: [] }));
  const html = await (await fetch(`${ts.url}${pathOf(linkFor(email))}`)).text();
  expect(html).toContain(email.replace("'", '&#39;'));
});

test('with SMTP_URL set, invitations go out by SMTP instead of the outbox', async () => {
  const smtp = await startFakeSmtp();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-smtp-'));
  const server = await startTestServer({ DATA_DIR: dir, SMTP_URL: smtp.url, PARLEY_EMAIL_FROM: 'invites@example.org' });
  try {
    const inviter = await makeUser(server, 400);
    const email = fresh();
    assertSuccess(await client(server, inviter).post('/invites', { invitee_emails: email, stream_ids: [] }));
    expect(smtp.messages).toHaveLength(1);
    const [message] = smtp.messages;
    expect(message.from).toContain('invites@example.org');
    expect(message.to[0]).toContain(email);
    expect(message.data).toMatch(/Subject: .*invited you to join Test Org/);
    expect(listOutbox(server.server.deps.config)).toEqual([]);
  } finally {
    await server.close();
    await smtp.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
