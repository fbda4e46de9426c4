import { sendDigests, zulipWeekday } from '../../src/core/notifications/digest';
import { unsubscribeUrl } from '../../src/core/notifications/unsubscribe-links';
import { verifyAction } from '../helpers/events';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { sendToChannel, subscribe } from '../messages/helpers';
import { mailsTo, setSettings } from './helpers';
import { CapturedMail, startSmtp } from './smtp';

jest.setTimeout(120_000);

let smtp: { url: string; mails: CapturedMail[]; close(): Promise<void> };
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The next day (today, if it is one) that is `weekday` in Zulip's numbering (Monday 0), a little later than now. */
function nextDay(weekday: number): Date {
  const day = new Date(Date.now() + 60_000);
  while (zulipWeekday(day) !== weekday) day.setTime(day.getTime() + DAY_MS);
  return day;
}

/** The organization's digest day: Tuesday unless changed. */
const TUESDAY = 1;
const nextDigestDay = () => nextDay(TUESDAY);

beforeAll(async () => {
  smtp = await startSmtp();
  ts = await startTestServer({ SMTP_URL: smtp.url });
  alice = await makeUser(ts, 400, { fullName: 'Alice Digest' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Digest' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Digest' });
  const channelId = await subscribe(ts, ts.owner, 'digested', [alice, bob, carol]);
  for (let i = 0; i < 3; i++) await sendToChannel(ts, alice, channelId, 'busy topic', `message ${i}`);
  await sendToChannel(ts, carol, channelId, 'quiet topic', 'just one');
  await setSettings(ts, carol, { enable_digest_emails: false });
}, 120_000);

test('nothing while the organization has digests off (the default)', async () => {
  expect(assertSuccess(await client(ts, bob).post('/register', { fetch_event_types: ['realm'] }))).toMatchObject({
    realm_digest_emails_enabled: false,
    realm_digest_weekday: TUESDAY,
    settings_send_digest_emails: true,
  });
  expect(await sendDigests(ts.server.deps, nextDigestDay())).toBe(0);
  expect(mailsTo(smtp.mails, bob)).toHaveLength(0);
  assertSuccess(await client(ts, ts.owner).patch('/realm', { digest_emails_enabled: true }));
});

afterAll(async () => {
  await ts?.close();
  await smtp?.close();
});

test('no digest on other days', async () => {
  const other = nextDigestDay();
  other.setTime(other.getTime() + DAY_MS);
  expect(await sendDigests(ts.server.deps, other)).toBe(0);
  expect(mailsTo(smtp.mails, bob)).toHaveLength(0);
});

test('an inactive user gets one digest of the week, with an unsubscribe link that works', async () => {
  const day = nextDigestDay();
  expect(await sendDigests(ts.server.deps, day)).toBeGreaterThan(0);
  const mails = mailsTo(smtp.mails, bob);
  expect(mails).toHaveLength(1);
  const [mail] = mails;
  expect(mail.subject).toBe('Test Org: what you missed');
  expect(mail.text).toContain('#digested > busy topic (3 messages from Alice Digest)');
  expect(mail.text).toContain('#digested > quiet topic (1 message from Carol Digest)');
  expect(mail.html).toContain('New channels');
  expect(mailsTo(smtp.mails, carol)).toHaveLength(0);

  // Once a week: running the job again sends nothing more.
  await sendDigests(ts.server.deps, day);
  expect(mailsTo(smtp.mails, bob)).toHaveLength(1);

  const link = /(http:\/\/\S+\/accounts\/unsubscribe\/digest\/\S+)/.exec(mail.text)![1];
  const res = await fetch(link.replace(ts.server.deps.config.externalUrl, ts.url));
  expect(res.status).toBe(200);
  const state = assertSuccess(await client(ts, bob).post('/register', { fetch_event_types: ['user_settings'] }));
  expect(state.user_settings.enable_digest_emails).toBe(false);
});

test("the organization's digest weekday is the day", async () => {
  assertSuccess(await client(ts, ts.owner).patch('/realm', { digest_weekday: 4 }));
  try {
    // Someone who has had no digest yet.
    const dave = await makeUser(ts, 400, { fullName: 'Dave Digest' });
    await subscribe(ts, ts.owner, 'digested', [dave]);
    const friday = nextDay(4);
    expect(await sendDigests(ts.server.deps, nextDigestDay())).toBe(0);
    expect(mailsTo(smtp.mails, dave)).toHaveLength(0);
    expect(await sendDigests(ts.server.deps, friday)).toBeGreaterThan(0);
    expect(mailsTo(smtp.mails, dave)).toHaveLength(1);
  } finally {
    assertSuccess(await client(ts, ts.owner).patch('/realm', { digest_weekday: TUESDAY }));
  }
});

describe('unsubscribe links', () => {
  const reachable = (link: string) => link.replace(ts.server.deps.config.externalUrl, ts.url);

  test('turn the setting off with its user_settings event', async () => {
    const link = await unsubscribeUrl(ts.server.deps, alice.id, 'missed_messages');
    const events = await verifyAction(ts, alice, async () => expect((await fetch(reachable(link))).status).toBe(200));
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'user_settings', op: 'update', property: 'enable_offline_email_notifications', value: false }),
    );
  });

  test('a link for another user, type or a bad signature changes nothing', async () => {
    const link = await unsubscribeUrl(ts.server.deps, carol.id, 'missed_messages');
    const other = link.replace(`/${carol.id}.`, `/${bob.id}.`);
    for (const bad of [other, link.replace('/missed_messages/', '/digest/'), link.replace('/missed_messages/', '/marketing/'), `${link}x`]) {
      const res = await fetch(reachable(bad));
      expect(res.status).toBe(404);
    }
    for (const who of [bob, carol]) {
      const state = assertSuccess(await client(ts, who).post('/register', { fetch_event_types: ['user_settings'] }));
      expect(state.user_settings.enable_offline_email_notifications).toBe(true);
    }
  });
});
