import { openDatabase, Database } from '../../src/db/connect';
import { assertSuccess, client } from '../helpers/api';
import { namespaceFor } from '../../src/realtime/redis';
import { persistentDatabase, PersistentDatabase, startOn } from '../helpers/persistent';
import { describeWithRedis, REDIS_URL, removeKeys } from '../helpers/redis';
import { makeUser, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { sendDirect } from '../messages/helpers';
import { Bouncer, BouncerRequest, openPayload, startBouncer } from './bouncer';
import { Device, e2eePayloads, mailsTo, messagePushes, notificationEnv, registerDevice, serviceKeys, ServiceKeys, setSettings, waitForQuiet } from './helpers';
import { CapturedMail, startSmtp } from './smtp';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(180_000);

let smtp: { url: string; mails: CapturedMail[]; close(): Promise<void> };
let bouncer: Bouncer;
let keys: ServiceKeys;

beforeAll(async () => {
  smtp = await startSmtp();
  bouncer = await startBouncer();
  keys = await serviceKeys();
});
afterAll(async () => {
  await bouncer?.close();
  await smtp?.close();
});

describe('a restart between the send and the delivery', () => {
  let db: PersistentDatabase;

  afterAll(async () => db?.drop());

  test('delivers the email and the push once', async () => {
    db = await persistentDatabase();
    const env = notificationEnv(keys, smtp.url, bouncer.url);
    const first = await startOn(db, null, env);
    const alice = await makeUser(first, 400, { fullName: 'Alice Restart' });
    const bob = await makeUser(first, 400, { fullName: 'Bob Restart' });
    const device = await registerDevice(first, bob, bouncer);
    await setSettings(first, bob, { email_notifications_batching_period_seconds: 2 });
    const text = 'sent just before a restart';
    const id = await sendDirect(first, alice, [bob], text);
    // Stopped before the message has settled: nothing was decided or delivered yet.
    await first.close();
    expect(mailsTo(smtp.mails, bob)).toHaveLength(0);
    expect(await messagePushes(bouncer, device)).toHaveLength(0);

    const second = await startOn(db, first.owner, env);
    try {
      await waitUntil(async () => (await messagePushes(bouncer, device)).some((p) => p.message_id === id), 90_000);
      await waitUntil(() => mailsTo(smtp.mails, bob).length > 0, 90_000);
      await waitForQuiet(second, bob, id);
      expect((await messagePushes(bouncer, device)).filter((p) => p.message_id === id)).toHaveLength(1);
      const mails = mailsTo(smtp.mails, bob);
      expect(mails).toHaveLength(1);
      expect(mails[0].text).toContain(text);
    } finally {
      await second.close();
    }
  }, 180_000);
});

describe('a restart between marking read and the removal', () => {
  let db: PersistentDatabase;

  afterAll(async () => db?.drop());

  test('takes the notification back once', async () => {
    db = await persistentDatabase();
    const env = notificationEnv(keys, smtp.url, bouncer.url);
    const first = await startOn(db, null, env);
    const alice = await makeUser(first, 400, { fullName: 'Alice Reader' });
    const bob = await makeUser(first, 400, { fullName: 'Bob Reader' });
    const device = await registerDevice(first, bob, bouncer);
    await setSettings(first, bob, { enable_offline_email_notifications: false });
    const id = await sendDirect(first, alice, [bob], 'read on another device');
    await waitUntil(async () => (await messagePushes(bouncer, device)).some((p) => p.message_id === id), 90_000);
    // The worker stops as a crash would stop it: the read commits, and nothing acts on it here.
    await first.server.notifications.stop();
    assertSuccess(await client(first, bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }));
    await first.close();
    expect(await removalsOf(device, id)).toBe(0);

    const second = await startOn(db, first.owner, env);
    try {
      await waitUntil(async () => (await removalsOf(device, id)) > 0, 90_000);
      await waitForQuiet(second, bob, id);
      expect(await removalsOf(device, id)).toBe(1);
      expect(bouncer.violations).toEqual([]);
    } finally {
      await second.close();
    }
  }, 180_000);
});

/** Removal payloads that named the message, for the device. */
async function removalsOf(device: Device, messageId: number): Promise<number> {
  return (await e2eePayloads(bouncer, device)).filter((p) => p.type === 'remove' && p.message_ids.includes(messageId)).length;
}

describe('the push service failing', () => {
  let db: PersistentDatabase;
  let ts: TestServer;
  let alice: TestUser;
  let bob: TestUser;
  let device: Device;

  beforeAll(async () => {
    db = await persistentDatabase();
    ts = await startOn(db, null, notificationEnv(keys, smtp.url, bouncer.url));
    alice = await makeUser(ts, 400);
    bob = await makeUser(ts, 400);
    device = await registerDevice(ts, bob, bouncer);
    await setSettings(ts, bob, { enable_offline_email_notifications: false });
    // Whatever was sent to Bob before (welcome messages) is delivered first.
    const first = await sendDirect(ts, alice, [bob], 'first');
    await waitUntil(async () => (await messagePushes(bouncer, device)).some((p) => p.message_id === first));
  });
  afterAll(async () => {
    await ts?.close();
    await db?.drop();
  });

  /** Requests that carried the message's notification for the device, failed or not. */
  async function requestsFor(messageId: number): Promise<BouncerRequest[]> {
    const out: BouncerRequest[] = [];
    for (const request of bouncer.requests) {
      if (!request.path.endsWith('/e2ee/notify')) continue;
      for (const push of request.body.push_requests) {
        if (push.token_id !== device.tokenId) continue;
        const payload = await openPayload(push.payload.encrypted_data, device.pushKey);
        if (payload.message_id === messageId) out.push(request);
      }
    }
    return out;
  }

  const attemptsFor = async (messageId: number) => (await requestsFor(messageId)).length;

  /** Whether a notification job for Bob about the message, or a push for Bob, is still waiting (or being retried). */
  async function jobPending(messageId: number): Promise<boolean> {
    const { knex } = ts.server.deps;
    if ((await knex('notification_jobs').where({ user_id: bob.id, message_id: messageId }).first()) !== undefined) return true;
    return (await pushItems('pending')).length > 0;
  }

  /** Bob's pushes in the outbox, in the state. */
  async function pushItems(state: string): Promise<{ attempts: number; last_error: string | null }[]> {
    return ts.server.deps.knex('deliveries').where({ kind: 'push', state }).whereRaw("(payload->>'user_id')::int = ?", [bob.id]).orderBy('id');
  }

  test('is retried after server errors, and the notification arrives once', async () => {
    bouncer.failWith.push(500, 502);
    const id = await sendDirect(ts, alice, [bob], 'retried');
    await waitUntil(async () => (await attemptsFor(id)) === 3);
    await waitUntil(async () => !(await jobPending(id)));
    // Two failures, then the success: one outbox item, its key on each attempt.
    const requests = await requestsFor(id);
    expect(requests).toHaveLength(3);
    expect(requests[0].delivery).toMatch(/^[0-9a-f-]{36}$/);
    expect(requests.map((r) => r.delivery)).toEqual([requests[0].delivery, requests[0].delivery, requests[0].delivery]);
    expect(bouncer.failWith).toHaveLength(0);
  });

  test('is given up after three retries', async () => {
    bouncer.failWith.push(500, 500, 500, 500);
    const id = await sendDirect(ts, alice, [bob], 'given up');
    await waitUntil(async () => (await attemptsFor(id)) === 4);
    // Given up: the push is dead, so nothing comes after the fourth attempt.
    await waitUntil(async () => !(await jobPending(id)));
    expect(await attemptsFor(id)).toBe(4);
    expect(bouncer.failWith).toHaveLength(0);
    expect(await pushItems('dead')).toEqual([expect.objectContaining({ attempts: 4 })]);
  });

  test('a refusal (4xx) is not retried', async () => {
    bouncer.failWith.push(400);
    const id = await sendDirect(ts, alice, [bob], 'refused');
    await waitUntil(async () => (await attemptsFor(id)) === 1);
    await waitUntil(async () => !(await jobPending(id)));
    expect(await attemptsFor(id)).toBe(1);
    const dead = await pushItems('dead');
    expect(dead[dead.length - 1]).toMatchObject({ attempts: 1 });
  });
});

describeWithRedis()('two processes on one database and one Redis', () => {
  let db: PersistentDatabase;
  let shared: Database | undefined;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    db = await persistentDatabase();
    shared = db.pgliteDir ? await openDatabase({ url: null, pgliteDir: db.pgliteDir }) : undefined;
    const env = { ...notificationEnv(keys, smtp.url, bouncer.url), REDIS_URL };
    a = await startOn(db, null, env, shared);
    b = await startOn(db, a.owner, env, shared);
  });
  afterAll(async () => {
    const knex = b?.server.deps.knex;
    const prefix = knex ? await namespaceFor(knex, b.server.deps.realmId) : null;
    await a?.close();
    await b?.close();
    await shared?.close();
    await db?.drop();
    if (prefix) await removeKeys(prefix);
  });

  test('each notification is delivered by exactly one of them', async () => {
    const alice = await makeUser(a, 400, { fullName: 'Alice Two' });
    const bob = await makeUser(a, 400, { fullName: 'Bob Two' });
    const device = await registerDevice(a, bob, bouncer);
    await setSettings(a, bob, { email_notifications_batching_period_seconds: 1 });
    const ids: number[] = [];
    for (let i = 0; i < 6; i++) ids.push(await sendDirect(i % 2 === 0 ? a : b, alice, [bob], `two processes ${i}`));
    await waitUntil(async () => {
      const seen = new Set((await messagePushes(bouncer, device)).map((p) => p.message_id));
      return ids.every((id) => seen.has(id));
    });
    await waitUntil(() => ids.every((_, i) => mailsTo(smtp.mails, bob).some((m) => m.text.includes(`two processes ${i}`))));
    await waitForQuiet([a, b], bob, Math.max(...ids));
    const pushes = (await messagePushes(bouncer, device)).map((p) => p.message_id).sort((x, y) => x - y);
    expect(pushes).toEqual(ids);
    const text = mailsTo(smtp.mails, bob)
      .map((m) => m.text)
      .join('\n');
    for (let i = 0; i < 6; i++) expect(text.split(`two processes ${i}\n`).length - 1).toBe(1);
  });
});
