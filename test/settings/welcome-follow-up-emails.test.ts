import crypto from 'node:crypto';
import { isoWeekday, onboardingEmailDelays } from '../../src/core/accounts/onboarding-schedule';
import { assertSuccess, client } from '../helpers/api';
import { freePort } from '../helpers/ports';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { CapturedMail, startSmtp } from '../notifications/smtp';

/**
 * The onboarding emails that follow the welcome email days later (Zulip's onboarding_zulip_topics
 * and onboarding_zulip_guide): queued when a person joins, sent by the delivery worker once due (the
 * tests move the due time instead of waiting), written to the account as it is then; not for bots,
 * the operator's accounts, nor with send_welcome_emails off; gone after the one-click welcome
 * unsubscribe, the account's deactivation or the organization's.
 */
let ts: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let admin: TestUser;

const HOUR = 3600_000;
const DAY = 24 * HOUR;
const TOPICS = 'Making the most of topics in Test Org';
const GUIDE = 'Ideas for using Test Org';

beforeAll(async () => {
  smtp = await startSmtp();
  const port = await freePort();
  ts = await startTestServer({ SMTP_URL: smtp.url, PORT: String(port), PARLEY_EXTERNAL_URL: `http://127.0.0.1:${port}` });
  admin = await makeUser(ts, 200, { canCreateUsers: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await smtp?.close();
});

const mailsTo = (to: string, subject: string): CapturedMail[] => smtp.mails.filter((m) => m.to.includes(to) && m.subject === subject);

interface FollowUpRow {
  id: number;
  which: string;
  state: string;
  dueAt: Date;
}

/** The user's onboarding follow-ups in the outbox, first due first. */
async function followUps(userId: number, state = 'pending'): Promise<FollowUpRow[]> {
  const rows = await ts.server.deps
    .knex('deliveries')
    .where({ state })
    .whereRaw(`payload->>'welcome_follow_up' IS NOT NULL AND payload->>'user_id' = ?`, [String(userId)])
    .orderBy('next_attempt_at')
    .select('id', 'payload', 'state', 'next_attempt_at');
  return rows.map((r) => {
    const payload = typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload;
    return { id: Number(r.id), which: payload.welcome_follow_up, state: r.state, dueAt: new Date(r.next_attempt_at) };
  });
}

/** Time passes for the outbox: the named follow-ups (all of the user's by default) fall due, and the worker runs. */
async function passTime(userId: number, which?: string): Promise<void> {
  const query = ts.server.deps
    .knex('deliveries')
    .where({ state: 'pending' })
    .whereRaw(`payload->>'user_id' = ? AND payload->>'welcome_follow_up' IS NOT NULL`, [String(userId)]);
  if (which) query.whereRaw(`payload->>'welcome_follow_up' = ?`, [which]);
  await query.update({ next_attempt_at: new Date(Date.now() - 1000) });
  await ts.server.outbox.runNow();
}

async function joinByApi(): Promise<{ id: number; email: string }> {
  const email = `followup-${crypto.randomUUID()}@example.com`;
  const res = assertSuccess(await client(ts, admin).post('/users', { email, password: 'a-long-unguessable-pass-42', full_name: 'Fresh Person' }));
  return { id: res.user_id as number, email };
}

async function joinByInvitation(inviteAs = 400): Promise<{ id: number; email: string }> {
  const email = `followup-invited-${crypto.randomUUID()}@example.com`;
  assertSuccess(await client(ts, ts.owner).post('/invites', { invitee_emails: email, stream_ids: [], invite_as: inviteAs }));
  const invitation = smtp.mails.filter((m) => m.to.includes(email)).at(-1)!;
  const key = /\/join\/([a-z0-9]{24})\//.exec(invitation.text)![1];
  assertSuccess(await client(ts, null).post(`/join/${key}`, { full_name: 'Invited Person', password: 'a-long-unguessable-pass-42' }));
  const row = await ts.server.deps.knex('users').where({ delivery_email: email }).first('id');
  return { id: Number(row.id), email };
}

async function withOrgType<T>(orgType: number, run: () => Promise<T>): Promise<T> {
  assertSuccess(await client(ts, ts.owner).patch('/realm', { org_type: orgType }));
  try {
    return await run();
  } finally {
    assertSuccess(await client(ts, ts.owner).patch('/realm', { org_type: 0 }));
  }
}

describe('the schedule (Zulip’s weekday rule)', () => {
  // 2018-01-01 was a Monday; each sign-up at 01:00 UTC.
  const joined = (day: number) => new Date(Date.UTC(2018, 0, day, 1));
  const weekdayOf = (from: Date, delay: number) => isoWeekday(new Date(from.getTime() + delay), 'UTC');

  test.each([
    // signed up on, topics, guide, team (ISO weekdays) as in Zulip's test of the schedule
    ['Monday', 1, [3, 5, 2]],
    ['Tuesday', 2, [4, 1, 3]],
    ['Wednesday', 3, [5, 2, 4]],
    ['Thursday', 4, [1, 3, 5]],
    ['Friday', 5, [2, 4, 1]],
    ['Saturday', 6, [1, 3, 5]],
    ['Sunday', 7, [2, 4, 1]],
  ] as const)('signed up on %s: never on a weekend, a weekday between each', (_name, day, expected) => {
    const at = joined(day);
    const delays = onboardingEmailDelays(at, '');
    expect([weekdayOf(at, delays.zulip_topics), weekdayOf(at, delays.zulip_guide), weekdayOf(at, delays.team_to_zulip)]).toEqual(expected);
    // Each is an hour short of whole days.
    for (const ms of Object.values(delays)) expect((ms + HOUR) % DAY).toBe(0);
  });

  test('the weekday is the sign-up’s in the person’s time zone (an unknown zone counts as UTC)', () => {
    // Friday 01:00 UTC is still Thursday in Phoenix (UTC-7): Monday, Wednesday, Friday.
    const at = new Date(Date.UTC(2018, 0, 5, 1));
    expect(onboardingEmailDelays(at, 'America/Phoenix')).toEqual({ zulip_topics: 4 * DAY - HOUR, zulip_guide: 6 * DAY - HOUR, team_to_zulip: 8 * DAY - HOUR });
    expect(onboardingEmailDelays(at, 'UTC')).toEqual({ zulip_topics: 4 * DAY - HOUR, zulip_guide: 6 * DAY - HOUR, team_to_zulip: 10 * DAY - HOUR });
    expect(onboardingEmailDelays(at, 'Not/AZone')).toEqual(onboardingEmailDelays(at, 'UTC'));
  });
});

describe('follow-up emails', () => {
  test('the welcome email now; the topics email only once it is due, then to the account as it is', async () => {
    const person = await joinByApi();
    expect(mailsTo(person.email, 'Welcome to Test Org')).toHaveLength(1);
    const [row] = await followUps(person.id);
    expect(await followUps(person.id)).toHaveLength(1);
    expect(row.which).toBe('zulip_topics');

    // Due after the delay of the sign-up's weekday (the person has no time zone: UTC).
    const user = await ts.server.deps.knex('users').where({ id: person.id }).first('date_joined');
    const joinedAt = new Date(user.date_joined);
    const expected = joinedAt.getTime() + onboardingEmailDelays(joinedAt, '').zulip_topics;
    expect(Math.abs(row.dueAt.getTime() - expected)).toBeLessThan(60_000);
    expect(row.dueAt.getTime()).toBeGreaterThan(Date.now() + DAY);

    // Not before its time.
    await ts.server.outbox.runNow();
    expect(mailsTo(person.email, TOPICS)).toEqual([]);

    // Renamed meanwhile: the email greets the name of the day it is sent.
    assertSuccess(await client(ts, admin).patch(`/users/${person.id}`, { full_name: 'Renamed Person' }));
    await passTime(person.id);
    const mails = mailsTo(person.email, TOPICS);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.text).toContain('Hi Renamed Person,');
    expect(mail.text).toContain('https://zulip.com/help/rename-a-topic');
    expect(mail.text).toContain('https://zulip.com/help/move-content-to-another-channel');
    expect(mail.text).toContain(`Open Test Org: ${ts.server.deps.config.externalUrl}`);
    expect(mail.text).toMatch(/Stop these onboarding emails: http\S+\/accounts\/unsubscribe\/welcome\/\S+/);
    expect(mail.html).toContain('<a href="https://zulip.com/help/introduction-to-topics">');
    expect(mail.headerLines.get('list-unsubscribe')).toMatch(/\/accounts\/unsubscribe\/welcome\//);
    expect(await followUps(person.id)).toEqual([]);
    expect(await followUps(person.id, 'sent')).toHaveLength(1);

    // Sent once.
    await ts.server.outbox.runNow();
    expect(mailsTo(person.email, TOPICS)).toHaveLength(1);
  });

  test('the guide email for organization types that have one; for community types only to administrators', async () => {
    // A business: everyone gets it, two days after the topics email's day at least.
    await withOrgType(10, async () => {
      const member = await joinByInvitation();
      const rows = await followUps(member.id);
      expect(rows.map((r) => r.which)).toEqual(['zulip_topics', 'zulip_guide']);
      expect(rows[1].dueAt.getTime() - rows[0].dueAt.getTime()).toBeGreaterThanOrEqual(2 * DAY);
      await passTime(member.id, 'zulip_guide');
      const [guide] = mailsTo(member.email, GUIDE);
      expect(guide.text).toContain('Test Org is set up as a business.');
      expect(guide.text).toContain('https://zulip.com/help/getting-started-with-zulip');
      expect(guide.html).toContain('Stop these onboarding emails</a>');
      expect(mailsTo(member.email, TOPICS)).toEqual([]);
      await passTime(member.id);
      expect(mailsTo(member.email, TOPICS)).toHaveLength(1);
      expect(mailsTo(member.email, GUIDE)).toHaveLength(1);
    });

    // A community: members get the topics email only; an administrator also the guide.
    await withOrgType(90, async () => {
      const member = await joinByInvitation();
      expect((await followUps(member.id)).map((r) => r.which)).toEqual(['zulip_topics']);
      const newAdmin = await joinByInvitation(200);
      expect((await followUps(newAdmin.id)).map((r) => r.which)).toEqual(['zulip_topics', 'zulip_guide']);
      await passTime(newAdmin.id);
      const [guide] = mailsTo(newAdmin.email, GUIDE);
      expect(guide.text).toContain('Test Org is set up as a community.');
      expect(guide.text).toContain('https://zulip.com/help/getting-your-organization-started-with-zulip');
    });

    // Government, personal and unspecified organizations get no guide.
    for (const orgType of [70, 100]) {
      await withOrgType(orgType, async () => {
        const person = await joinByApi();
        expect((await followUps(person.id)).map((r) => r.which)).toEqual(['zulip_topics']);
      });
    }
  });

  test('none while send_welcome_emails is off, none to bots, the first owner or accounts the operator makes', async () => {
    assertSuccess(await client(ts, ts.owner).patch('/realm', { send_welcome_emails: false }));
    let quiet: { id: number; email: string };
    try {
      quiet = await joinByApi();
    } finally {
      assertSuccess(await client(ts, ts.owner).patch('/realm', { send_welcome_emails: true }));
    }
    expect(await followUps(quiet.id)).toEqual([]);
    expect(mailsTo(quiet.email, 'Welcome to Test Org')).toEqual([]);

    const bot = assertSuccess(await client(ts, admin).post('/bots', { full_name: 'Follow Bot', short_name: `follow-${Date.now()}`, bot_type: 1 }));
    expect(await followUps(bot.user_id as number)).toEqual([]);
    // The first owner and the operator's accounts (CLI, import) are not people joining.
    expect(await followUps(ts.owner.id)).toEqual([]);
    const made = await makeUser(ts, 400);
    expect(await followUps(made.id)).toEqual([]);
  });

  test('the one-click welcome unsubscribe deletes the rest; other links do not', async () => {
    await withOrgType(20, async () => {
      const person = await joinByApi();
      expect(await followUps(person.id)).toHaveLength(2);
      await passTime(person.id, 'zulip_topics');
      const [topics] = mailsTo(person.email, TOPICS);
      const link = /(https?:\/\/\S+\/accounts\/unsubscribe\/welcome\/\S+)/.exec(topics.text)![1];

      // A link altered to name someone else, or another kind of email, is refused and changes nothing.
      const other = await joinByApi();
      const forged = link.replace(`/welcome/${person.id}.`, `/welcome/${other.id}.`);
      expect((await fetch(forged)).status).toBe(404);
      expect(await followUps(other.id)).toHaveLength(2);
      expect((await fetch(link.replace('/welcome/', '/digest/'))).status).toBe(404);
      expect(await followUps(person.id)).toHaveLength(1);

      const res = await fetch(link);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('You will receive no more onboarding emails.');
      expect(await followUps(person.id)).toEqual([]);
      await passTime(person.id);
      expect(mailsTo(person.email, GUIDE)).toEqual([]);
      // Opening it again is harmless; the user's settings are untouched.
      expect((await fetch(link, { method: 'POST' })).status).toBe(200);
      const settings = assertSuccess(await client(ts, admin).get(`/users/${person.id}`));
      expect(settings.user.is_active).toBe(true);
    });
  });

  test('deactivating the account deletes them; one found inactive when due is skipped', async () => {
    const person = await joinByApi();
    expect(await followUps(person.id)).toHaveLength(1);
    assertSuccess(await client(ts, admin).delete(`/users/${person.id}`));
    expect(await followUps(person.id)).toEqual([]);
    // Reactivation does not bring them back (as in Zulip).
    assertSuccess(await client(ts, admin).post(`/users/${person.id}/reactivate`));
    expect(await followUps(person.id)).toEqual([]);

    // An account found inactive at send time (its row kept): done, nothing sent.
    const later = await joinByApi();
    await ts.server.deps.knex('users').where({ id: later.id }).update({ is_active: false });
    try {
      await passTime(later.id);
      expect(mailsTo(later.email, TOPICS)).toEqual([]);
      expect(await followUps(later.id, 'sent')).toHaveLength(1);
    } finally {
      await ts.server.deps.knex('users').where({ id: later.id }).update({ is_active: true });
    }
  });

  // Last: the organization stays deactivated.
  test('deactivating the organization deletes everyone’s', async () => {
    const first = await joinByApi();
    const second = await joinByInvitation();
    expect(await followUps(first.id)).toHaveLength(1);
    expect(await followUps(second.id)).toHaveLength(1);
    assertSuccess(await client(ts, ts.owner).post('/realm/deactivate', { deletion_delay_days: null }));
    expect(await followUps(first.id)).toEqual([]);
    expect(await followUps(second.id)).toEqual([]);
  });
});
