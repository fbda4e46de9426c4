import crypto from 'node:crypto';
import { claimDue } from '../../src/core/deliveries/store';
import { assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { metricValue, outboxCommand } from './helpers';
import { SmtpAttempt, startRefusingSmtp } from './refusing-smtp';

// The outbox through its emails, against a real SMTP server on loopback that refuses when told to.
let smtp: Awaited<ReturnType<typeof startRefusingSmtp>>;
let ts: TestServer;
let member: TestUser;

beforeAll(async () => {
  smtp = await startRefusingSmtp();
  // Retries 20 ms, 40 ms, 80 ms... apart: the backoff's shape at a test's pace.
  ts = await startTestServer({ SMTP_URL: smtp.url, PARLEY_OUTBOX_RETRY_BASE_MS: '20' });
  member = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await smtp?.close();
}, SERVER_HOOK_TIMEOUT);

let counter = 0;
const fresh = () => `outbox${++counter}-${Date.now()}@example.org`;
const attemptsTo = (address: string): SmtpAttempt[] => smtp.attempts.filter((a) => a.to.includes(address));
const itemFor = async (address: string) => ts.server.deps.knex('deliveries').where({ kind: 'email' }).whereRaw("payload->>'to' = ?", [address]).first();
const messageIdOf = (key: string) => `<${key}@${new URL(ts.server.deps.config.externalUrl).hostname}>`;

async function invite(address: string): Promise<void> {
  assertSuccess(await client(ts, member).post('/invites', { invitee_emails: address, stream_ids: [] }));
}

const outbox = (values: Record<string, string | boolean> = {}) => outboxCommand(ts, values);

test('an email the mail server refuses twice is sent again with the same Message-ID, after a growing wait, and delivered once', async () => {
  const address = fresh();
  smtp.refuseNext = 2;
  await invite(address);
  await waitUntil(() => attemptsTo(address).some((a) => a.accepted));
  const item = await itemFor(address);
  await waitUntil(async () => (await itemFor(address)).state === 'sent');
  const attempts = attemptsTo(address);
  expect(attempts.map((a) => a.accepted)).toEqual([false, false, true]);
  expect(new Set(attempts.map((a) => a.messageId))).toEqual(new Set([messageIdOf(item.key)]));
  expect(attempts[0].subject).toMatch(/invited you to join/);
  // Backoff: 20 ms, then 40 ms (timers may fire a millisecond early).
  expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(18);
  expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(38);
  expect(await itemFor(address)).toMatchObject({ state: 'sent', attempts: 3, last_error: null });
});

test('an email whose attempts run out is dead: the command lists it with its error, /metrics counts it, and a retry delivers it', async () => {
  const address = fresh();
  // An email has five attempts.
  smtp.refuseNext = 5;
  await invite(address);
  await waitUntil(async () => (await itemFor(address))?.state === 'dead');
  const item = await itemFor(address);
  expect(item).toMatchObject({ attempts: 5, last_error: 'SMTP 451' });
  expect(attemptsTo(address).filter((a) => a.accepted)).toEqual([]);

  const listing = await outbox();
  expect(listing).toMatch(/^email\tdead\t1$/m);
  expect(listing).toContain([item.id, 'email', 5].join('\t'));
  expect(listing).toContain(`${item.key}\tSMTP 451`);
  expect(listing).not.toContain(address);

  expect(await metricValue(ts, 'parley_outbox_items{kind="email",state="dead"}')).toBe(1);
  expect(await metricValue(ts, 'parley_outbox_dead_total{kind="email"}')).toBe(1);
  expect(await metricValue(ts, 'parley_outbox_retries_total{kind="email"}')).toBeGreaterThanOrEqual(4 + 2);
  expect(await metricValue(ts, 'parley_outbox_sent_total{kind="email"}')).toBeGreaterThanOrEqual(1);

  expect(await outbox({ retry: String(item.id) })).toBe('1 dead item queued again.');
  await waitUntil(async () => (await itemFor(address)).state === 'sent');
  const delivered = attemptsTo(address).filter((a) => a.accepted);
  expect(delivered).toHaveLength(1);
  expect(delivered[0].messageId).toBe(messageIdOf(item.key));
  expect(await outbox()).not.toMatch(/^email\tdead/m);
});

test('the command refuses a bad id and an item that is not dead', async () => {
  await expect(outbox({ retry: 'abc' })).rejects.toThrow('--retry takes an item id');
  await expect(outbox({ retry: '999999999' })).rejects.toThrow('No dead outbox item with id 999999999');
});

test('an item claimed by a worker that died is sent once the claim runs out', async () => {
  const { knex, realmId } = ts.server.deps;
  const address = fresh();
  const key = crypto.randomUUID();
  // As a worker leaves it when it dies mid-send: claimed for another minute.
  await knex('deliveries').insert({
    realm_id: realmId,
    kind: 'email',
    payload: JSON.stringify({ to: address, subject: 'left behind', text: 'hello' }),
    key,
    claimed_until: new Date(Date.now() + 60_000),
    claim_token: crypto.randomUUID(),
  });
  await ts.server.outbox.runNow();
  expect(attemptsTo(address)).toEqual([]);
  expect(await itemFor(address)).toMatchObject({ state: 'pending', attempts: 0 });

  await knex('deliveries')
    .where({ key })
    .update({ claimed_until: new Date(Date.now() - 1000) });
  await ts.server.outbox.runNow();
  await waitUntil(() => attemptsTo(address).length > 0);
  expect(attemptsTo(address)).toEqual([expect.objectContaining({ accepted: true, subject: 'left behind', messageId: messageIdOf(key) })]);
  expect(await itemFor(address)).toMatchObject({ state: 'sent', attempts: 1 });
});

test('workers claiming at the same time get disjoint items', async () => {
  const { knex } = ts.server.deps;
  // An organization of their own, so that the server's worker leaves the items alone.
  const realmId = 987_654;
  await knex('deliveries').insert(
    Array.from({ length: 40 }, (_, i) => ({ realm_id: realmId, kind: 'email', payload: JSON.stringify({ n: i }), key: crypto.randomUUID() })),
  );
  try {
    const claims = await Promise.all(Array.from({ length: 4 }, () => claimDue(knex, realmId, new Date(), 15)));
    const ids = claims.flat().map((item) => item.id);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    // Each claim is its own: a token per worker, and nothing left to claim.
    expect(new Set(claims.filter((c) => c.length > 0).map((c) => c[0].token)).size).toBe(claims.filter((c) => c.length > 0).length);
    expect(await claimDue(knex, realmId, new Date(), 15)).toEqual([]);
  } finally {
    await knex('deliveries').where({ realm_id: realmId }).delete();
  }
});
