import { assertSuccess, client } from '../helpers/api';
import { IDLE_POLL_MS, MIN_PASS_INTERVAL_MS } from '../../src/core/notifications/worker';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { sendDirect, sendToChannel, subscribe } from '../messages/helpers';
import { parseAppPayload } from './app-payloads';
import { Bouncer, startBouncer } from './bouncer';
import {
  Device,
  e2eePayloads,
  mailsTo,
  messagePushes,
  notificationEnv,
  registerDevice,
  serviceKeys,
  ServiceKeys,
  setSettings,
  setSubscription,
  waitForPush,
  waitForQuiet,
} from './helpers';
import { CapturedMail, startSmtp } from './smtp';

jest.setTimeout(120_000);

let smtp: { url: string; mails: CapturedMail[]; close(): Promise<void> };
let bouncer: Bouncer;
let keys: ServiceKeys;
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let bobDevice: Device;
let channelId: number;
let marker = 0;
/** The server's external URL (its configured one; tests listen on an ephemeral port). */
const realmUrl = () => ts.server.deps.config.externalUrl;
/** A link from an email, pointed at the test server's actual address. */
const reachable = (link: string) => link.replace(realmUrl(), ts.url);
const unique = (label: string) => `${label}-${++marker}-${Math.random().toString(36).slice(2, 8)}`;

beforeAll(async () => {
  smtp = await startSmtp();
  bouncer = await startBouncer();
  keys = await serviceKeys();
  ts = await startTestServer(notificationEnv(keys, smtp.url, bouncer.url));
  alice = await makeUser(ts, 400, { fullName: 'Alice Sender' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Away' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Sentinel' });
  bobDevice = await registerDevice(ts, bob, bouncer);
  await setSettings(ts, bob, { email_notifications_batching_period_seconds: 1 });
  channelId = await subscribe(ts, ts.owner, 'notified', [alice, bob, carol]);
}, 120_000);

afterAll(async () => {
  await ts?.close();
  await bouncer?.close();
  await smtp?.close();
});

/**
 * A direct message from Carol to Bob after the message under test: once its push and email have
 * arrived, everything due for the earlier message has arrived too (jobs are decided and delivered
 * in message order, and a user's due emails go out together).
 */
async function sentinel(): Promise<void> {
  const text = unique('sentinel');
  const id = await sendDirect(ts, carol, [bob], text);
  await waitForPush(bouncer, bobDevice, id);
  await waitUntil(() => mailsTo(smtp.mails, bob).some((m) => m.text.includes(text)));
}

async function outcome(text: string, messageId: number): Promise<{ email: boolean; push: boolean }> {
  await sentinel();
  return {
    email: mailsTo(smtp.mails, bob).some((m) => m.text.includes(text)),
    push: (await messagePushes(bouncer, bobDevice)).some((p) => p.message_id === messageId),
  };
}

describe('configuration', () => {
  test('push_notifications_enabled is true in server_settings and register when the service is configured', async () => {
    expect(assertSuccess(await client(ts, null).get('/server_settings')).push_notifications_enabled).toBe(true);
    const state = assertSuccess(await client(ts, bob).post('/register', { fetch_event_types: ['realm'] }));
    expect(state.realm_push_notifications_enabled).toBe(true);
  });
});

describe('a direct message to someone away', () => {
  test('brings one email after the batching period and one encrypted push', async () => {
    const text = unique('hello bob');
    const sentAt = Date.now();
    const id = await sendDirect(ts, alice, [bob], `**${text}**`);
    const push = await waitForPush(bouncer, bobDevice, id);
    expect(push).toMatchObject({
      type: 'message',
      message_id: id,
      sender_id: alice.id,
      sender_full_name: 'Alice Sender',
      recipient_type: 'direct',
      content: text,
      user_id: bob.id,
      realm_name: 'Test Org',
      realm_url: realmUrl(),
    });
    expect(push).not.toHaveProperty('pm_users');
    // As the app reads it: a 1:1 conversation is named by both participants.
    expect(parseAppPayload(push)).toMatchObject({
      type: 'message',
      messageId: id,
      userId: bob.id,
      senderId: alice.id,
      realmUrl: realmUrl(),
      recipient: { recipientUserIds: [alice.id, bob.id].sort((a, b) => a - b) },
    });
    await waitUntil(() => mailsTo(smtp.mails, bob).some((m) => m.text.includes(text)));
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(1000);
    const mails = mailsTo(smtp.mails, bob).filter((m) => m.text.includes(text));
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail.subject).toBe('DMs with Alice Sender');
    expect(mail.html).toContain(`<strong>${text}</strong>`);
    expect(mail.text).toContain(`${realmUrl()}/#narrow/dm/`);
    expect(mail.text).toMatch(/\/accounts\/unsubscribe\/missed_messages\/\d+\.[\w-]+/);
    expect(mail.headerLines.get('list-unsubscribe')).toContain('/accounts/unsubscribe/missed_messages/');

    // Credentials of the registration, and the service request's shape.
    const request = bouncer.requests.find((r) => r.path === '/api/v1/remotes/push/e2ee/notify')!;
    expect(request.authorization).toBe(`Basic ${Buffer.from(`${keys.orgId}:${keys.orgKey}`).toString('base64')}`);
    // The device is named by its token's id; the token stays with the service.
    expect(request.body.push_requests[0]).toEqual({ token_id: bobDevice.tokenId, fcm_priority: 'high', payload: expect.any(Object) });
    // FCM data values are strings; the app finds its key by the key's id.
    expect(request.body.push_requests[0].payload).toEqual({ push_key_id: String(bobDevice.pushKeyId), encrypted_data: expect.any(String) });
    expect(JSON.stringify(request.body)).not.toContain(text);

    // Nothing more arrives for it later.
    await waitForQuiet(ts, bob, id);
    expect(mailsTo(smtp.mails, bob).filter((m) => m.text.includes(text))).toHaveLength(1);
    expect((await messagePushes(bouncer, bobDevice)).filter((p) => p.message_id === id)).toHaveLength(1);
  });

  test('a group direct message names every participant', async () => {
    const text = unique('group hello');
    const id = await sendDirect(ts, alice, [bob, carol], text);
    const push = await waitForPush(bouncer, bobDevice, id);
    const everyone = [alice.id, bob.id, carol.id].sort((a, b) => a - b);
    expect(push).not.toHaveProperty('pm_users');
    expect(parseAppPayload(push)).toMatchObject({ recipient: { recipientUserIds: everyone } });
    await waitUntil(() => mailsTo(smtp.mails, bob).some((m) => m.text.includes(text)));
    expect(mailsTo(smtp.mails, bob).find((m) => m.text.includes(text))!.subject).toBe('Group DMs with Alice Sender, Carol Sentinel');
  });

  test('read before the batching period ends: no email, and the push is taken back', async () => {
    // A period no busy machine outlasts before the read; the sentinel's email (1 s) then takes
    // every pending email job of Bob's along, so the read message's job is settled with it.
    await setSettings(ts, bob, { email_notifications_batching_period_seconds: 600 });
    try {
      const text = unique('read quickly');
      const id = await sendDirect(ts, alice, [bob], text);
      await waitForPush(bouncer, bobDevice, id);
      assertSuccess(await client(ts, bob).post('/messages/flags', { messages: [id], op: 'add', flag: 'read' }));
      await waitUntil(async () => (await e2eePayloads(bouncer, bobDevice)).some((p) => p.type === 'remove' && p.message_ids.includes(id)));
      const removal = (await e2eePayloads(bouncer, bobDevice)).find((p) => p.type === 'remove' && p.message_ids.includes(id));
      expect(removal).toMatchObject({ type: 'remove', message_ids: [id], user_id: bob.id, realm_url: realmUrl() });
      expect(parseAppPayload(removal)).toEqual({ type: 'remove', messageIds: [id], userId: bob.id, realmUrl: realmUrl(), realmName: 'Test Org' });
      // Taken back with normal priority: nothing to show.
      const request = bouncer.requests.find((r) => r.path.endsWith('/e2ee/notify') && r.body.push_requests[0].fcm_priority === 'normal');
      expect(request).toBeDefined();
      await setSettings(ts, bob, { email_notifications_batching_period_seconds: 1 });
      await sentinel();
      expect(mailsTo(smtp.mails, bob).some((m) => m.text.includes(text))).toBe(false);
    } finally {
      await setSettings(ts, bob, { email_notifications_batching_period_seconds: 1 });
    }
  });

  test('a deleted message: its push is taken back', async () => {
    const text = unique('deleted soon');
    const id = await sendDirect(ts, alice, [bob], text);
    await waitForPush(bouncer, bobDevice, id);
    assertSuccess(await client(ts, alice).delete(`/messages/${id}`));
    await waitUntil(async () => (await e2eePayloads(bouncer, bobDevice)).some((p) => p.type === 'remove' && p.message_ids.includes(id)));
    const removal = (await e2eePayloads(bouncer, bobDevice)).find((p) => p.type === 'remove' && p.message_ids.includes(id));
    expect(removal).toMatchObject({ type: 'remove', message_ids: [id], user_id: bob.id });
  });

  test('a device token of the legacy endpoints gets the legacy payload', async () => {
    assertSuccess(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token: 'legacy-gcm-token-1' }));
    try {
      const text = unique('legacy');
      const id = await sendDirect(ts, alice, [bob], text);
      await waitUntil(() => bouncer.requests.some((r) => r.path === '/api/v1/remotes/push/notify' && r.body.gcm_payload?.zulip_message_id === id));
      const request = bouncer.requests.find((r) => r.path === '/api/v1/remotes/push/notify' && r.body.gcm_payload.zulip_message_id === id)!;
      expect(request.body).toMatchObject({
        user_id: bob.id,
        android_devices: ['legacy-gcm-token-1'],
        apple_devices: [],
        gcm_options: { priority: 'high' },
        gcm_payload: { event: 'message', content: text, sender_id: alice.id, sender_full_name: 'Alice Sender', recipient_type: 'private' },
        apns_payload: { alert: { title: 'Alice Sender', body: text }, custom: { zulip: { message_ids: [id] } } },
      });
      // The service sends to the tokens registered there for the user the request names.
      const registered = bouncer.tokens.find((t) => t.token === 'legacy-gcm-token-1')!;
      expect(registered).toMatchObject({ userId: String(bob.id), tokenKind: 2, iosAppId: null });
      expect([request.body.user_uuid, request.body.realm_uuid]).toEqual([registered.userUuid, registered.realmUuid]);
    } finally {
      assertSuccess(await client(ts, bob).delete('/users/me/android_gcm_reg_id', { token: 'legacy-gcm-token-1' }));
    }
    expect(bouncer.tokens.some((t) => t.token === 'legacy-gcm-token-1')).toBe(false);
  });
});

describe('messages close together', () => {
  // After a quiet moment, the pass woken by the first message begins SETTLE_MS (200 ms) after it,
  // before the second has settled; the second must not then wait for the idle poll (IDLE_POLL_MS,
  // 30 s). Sends started 0 to 60 ms apart land in that window.
  test('each is pushed without waiting for the idle poll', async () => {
    for (const gap of [0, 20, 40, 60]) {
      // Quiet: no job due to bring the worker back early, and its last pass long enough ago
      // that the next one begins as soon as the first message has settled.
      await waitUntil(
        async () =>
          (await ts.server.deps
            .knex('notification_jobs')
            .where('due_at', '<', new Date(Date.now() + IDLE_POLL_MS))
            .first()) === undefined && Date.now() - ts.server.notifications.lastPassAt >= MIN_PASS_INTERVAL_MS,
      );
      // The first notifies nobody, so no job of its own brings the worker back early.
      const first = sendToChannel(ts, alice, channelId, 'close together', unique('first'));
      // The gap between the two sends is the case under test, not a wait for an outcome.
      await new Promise((resolve) => setTimeout(resolve, gap));
      const second = await sendDirect(ts, carol, [bob], unique('second'));
      await first;
      await waitUntil(async () => (await messagePushes(bouncer, bobDevice)).some((p) => p.message_id === second), IDLE_POLL_MS / 3);
    }
  });
});

describe('settings decide what is due', () => {
  test('the unsubscribe link turns missed-message emails off', async () => {
    const mail = mailsTo(smtp.mails, bob)[0];
    const link = /(http:\/\/\S+\/accounts\/unsubscribe\/missed_messages\/\S+)/.exec(mail.text)![1];
    const forged = link.replace(/\.[\w-]+$/, `.${'A'.repeat(43)}`);
    expect((await fetch(reachable(forged))).status).toBe(404);
    expect((await fetch(reachable(link.replace('/missed_messages/', '/other/')))).status).toBe(404);
    const res = await fetch(reachable(link));
    expect(res.status).toBe(200);
    const state = assertSuccess(await client(ts, bob).post('/register', { fetch_event_types: ['user_settings'] }));
    expect(state.user_settings.enable_offline_email_notifications).toBe(false);
    try {
      const text = unique('after unsubscribe');
      const id = await sendDirect(ts, alice, [bob], text);
      // Push is separate from email.
      const push = await waitForPush(bouncer, bobDevice, id);
      expect(push.content).toBe(text);
      // The sentinel's own email is off too: wait until the message is decided and nothing is left to deliver.
      await waitForQuiet(ts, bob, id);
      expect(mailsTo(smtp.mails, bob).some((m) => m.text.includes(text))).toBe(false);
    } finally {
      await setSettings(ts, bob, { enable_offline_email_notifications: true });
    }
  });

  test('enable_offline_push_notifications off: email only', async () => {
    await setSettings(ts, bob, { enable_offline_push_notifications: false });
    const text = unique('no push');
    const id = await sendDirect(ts, alice, [bob], text);
    await waitUntil(() => mailsTo(smtp.mails, bob).some((m) => m.text.includes(text)));
    await setSettings(ts, bob, { enable_offline_push_notifications: true });
    expect(await outcome(text, id)).toEqual({ email: true, push: false });
  });

  test('a plain channel message notifies nobody by default', async () => {
    const text = unique('plain');
    const id = await sendToChannel(ts, alice, channelId, 'plain', text);
    expect(await outcome(text, id)).toEqual({ email: false, push: false });
  });

  test('a personal mention notifies, also in a muted channel', async () => {
    const text = unique('mention');
    const id = await sendToChannel(ts, alice, channelId, 'mentions', `@**Bob Away** ${text}`);
    expect(await outcome(text, id)).toEqual({ email: true, push: true });
    const push = (await messagePushes(bouncer, bobDevice)).find((p) => p.message_id === id);
    expect(push).toMatchObject({ recipient_type: 'channel', channel_id: channelId, channel_name: 'notified', topic: 'mentions' });
    expect(parseAppPayload(push)).toMatchObject({ recipient: { channelId, channelName: 'notified', topic: 'mentions' } });
    expect(push).not.toHaveProperty('mentioned_user_group_id');
    const mail = mailsTo(smtp.mails, bob).find((m) => m.text.includes(text))!;
    expect(mail.subject).toBe('#notified > mentions');
    expect(mail.text).toContain(`/#narrow/channel/${channelId}-notified/topic/mentions/near/${id}`);

    await setSubscription(ts, bob, channelId, 'is_muted', true);
    try {
      const again = unique('mention muted');
      const id2 = await sendToChannel(ts, alice, channelId, 'mentions', `@**Bob Away** ${again}`);
      expect(await outcome(again, id2)).toEqual({ email: true, push: true });
    } finally {
      await setSubscription(ts, bob, channelId, 'is_muted', false);
    }
  });

  test('channel settings: the user default, and the subscription override (null inherits)', async () => {
    await setSettings(ts, bob, { enable_stream_push_notifications: true });
    try {
      let text = unique('stream push');
      let id = await sendToChannel(ts, alice, channelId, 'channel settings', text);
      expect(await outcome(text, id)).toEqual({ email: false, push: true });

      await setSubscription(ts, bob, channelId, 'push_notifications', false);
      await setSubscription(ts, bob, channelId, 'email_notifications', true);
      text = unique('overridden');
      id = await sendToChannel(ts, alice, channelId, 'channel settings', text);
      expect(await outcome(text, id)).toEqual({ email: true, push: false });

      // Muted channel: no channel-level notifications.
      await setSubscription(ts, bob, channelId, 'is_muted', true);
      text = unique('muted channel');
      id = await sendToChannel(ts, alice, channelId, 'channel settings', text);
      expect(await outcome(text, id)).toEqual({ email: false, push: false });
      await setSubscription(ts, bob, channelId, 'is_muted', false);

      // Muted topic: likewise.
      assertSuccess(await client(ts, bob).post('/user_topics', { stream_id: channelId, topic: 'hushed', visibility_policy: 1 }));
      text = unique('muted topic');
      id = await sendToChannel(ts, alice, channelId, 'hushed', text);
      expect(await outcome(text, id)).toEqual({ email: false, push: false });
    } finally {
      await setSettings(ts, bob, { enable_stream_push_notifications: false });
      await setSubscription(ts, bob, channelId, 'push_notifications', false);
      await setSubscription(ts, bob, channelId, 'email_notifications', false);
      await setSubscription(ts, bob, channelId, 'is_muted', false);
    }
  });

  // Each step in its own topic: a mention makes the mentioned follow the topic (Zulip's default).
  test('wildcard mentions: wildcard_mentions_notify and the channel override', async () => {
    let text = unique('wildcard');
    let id = await sendToChannel(ts, alice, channelId, 'wildcard 1', `@**all** ${text}`);
    expect(await outcome(text, id)).toEqual({ email: true, push: true });

    await setSubscription(ts, bob, channelId, 'wildcard_mentions_notify', false);
    text = unique('wildcard off');
    id = await sendToChannel(ts, alice, channelId, 'wildcard 2', `@**all** ${text}`);
    expect(await outcome(text, id)).toEqual({ email: false, push: false });

    await setSettings(ts, bob, { wildcard_mentions_notify: false });
    await setSubscription(ts, bob, channelId, 'wildcard_mentions_notify', true);
    try {
      text = unique('wildcard override on');
      id = await sendToChannel(ts, alice, channelId, 'wildcard 3', `@**all** ${text}`);
      expect(await outcome(text, id)).toEqual({ email: true, push: true });
    } finally {
      await setSettings(ts, bob, { wildcard_mentions_notify: true });
    }
  });

  test('followed topics notify per the followed-topic settings', async () => {
    assertSuccess(await client(ts, bob).post('/user_topics', { stream_id: channelId, topic: 'followed', visibility_policy: 3 }));
    let text = unique('followed');
    let id = await sendToChannel(ts, alice, channelId, 'followed', text);
    expect(await outcome(text, id)).toEqual({ email: true, push: true });

    await setSettings(ts, bob, { enable_followed_topic_email_notifications: false });
    try {
      text = unique('followed no email');
      id = await sendToChannel(ts, alice, channelId, 'followed', text);
      expect(await outcome(text, id)).toEqual({ email: false, push: true });
    } finally {
      await setSettings(ts, bob, { enable_followed_topic_email_notifications: true });
    }
  });

  test('alert words notify like mentions', async () => {
    assertSuccess(await client(ts, bob).post('/users/me/alert_words', { alert_words: ['pineapple'] }));
    const text = unique('pineapple');
    const id = await sendToChannel(ts, alice, channelId, 'alerts', `pineapple ${text}`);
    expect(await outcome(text, id)).toEqual({ email: true, push: true });
  });

  test('a group mention names the smallest mentioned group the recipient is in', async () => {
    const small = `pushers${marker}`;
    const large = `crew${marker}`;
    const create = async (name: string, members: number[]) =>
      assertSuccess(await client(ts, ts.owner).post('/user_groups/create', { name, description: name, members })).group_id as number;
    const smallId = await create(small, [bob.id]);
    await create(large, [alice.id, bob.id, carol.id]);
    const text = unique('group mention');
    const id = await sendToChannel(ts, alice, channelId, unique('groups'), `@*${large}* @*${small}* ${text}`);
    const push = await waitForPush(bouncer, bobDevice, id);
    expect(push).toMatchObject({ mentioned_user_group_id: smallId, mentioned_user_group_name: small, content: `@${large} @${small} ${text}` });
  });

  test('an edit that adds a mention notifies', async () => {
    const text = unique('edited');
    const id = await sendToChannel(ts, alice, channelId, 'channel settings', text);
    assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { content: `@**Bob Away** ${text}` }));
    const push = await waitForPush(bouncer, bobDevice, id);
    expect(push.content).toBe(`@Bob Away ${text}`);
  });

  test('an edit that drops the mention takes the push back', async () => {
    const text = unique('unmentioned');
    const id = await sendToChannel(ts, alice, channelId, 'channel settings', `@**Bob Away** ${text}`);
    await waitForPush(bouncer, bobDevice, id);
    assertSuccess(await client(ts, alice).patch(`/messages/${id}`, { content: text }));
    await waitUntil(async () => (await e2eePayloads(bouncer, bobDevice)).some((p) => p.type === 'remove' && p.message_ids.includes(id)));
    const removal = (await e2eePayloads(bouncer, bobDevice)).find((p) => p.type === 'remove' && p.message_ids.includes(id));
    expect(removal).toMatchObject({ type: 'remove', message_ids: [id], user_id: bob.id });
  });

  test('a muted sender: nothing', async () => {
    assertSuccess(await client(ts, bob).post(`/users/me/muted_users/${alice.id}`));
    try {
      const text = unique('muted sender');
      const id = await sendDirect(ts, alice, [bob], text);
      expect(await outcome(text, id)).toEqual({ email: false, push: false });
    } finally {
      assertSuccess(await client(ts, bob).delete(`/users/me/muted_users/${alice.id}`));
    }
  });

  test('content and organization name in emails follow the settings', async () => {
    await setSettings(ts, bob, { message_content_in_email_notifications: false, realm_name_in_email_notifications_policy: 2 });
    try {
      const text = unique('secret');
      const before = mailsTo(smtp.mails, bob).length;
      await sendDirect(ts, alice, [bob], text);
      await waitUntil(() => mailsTo(smtp.mails, bob).length > before);
      const mail = mailsTo(smtp.mails, bob)[before];
      expect(mail.subject).toBe('[Test Org] DMs with Alice Sender');
      expect(mail.text).toContain('1 new message from Alice Sender');
      expect(mail!.text).not.toContain(text);
      expect(mail!.html).not.toContain(text);
      expect(mail!.text).toContain('Alice Sender');
    } finally {
      await setSettings(ts, bob, { message_content_in_email_notifications: true, realm_name_in_email_notifications_policy: 1 });
    }
  });

  test('someone online gets no email, and a push only with enable_online_push_notifications', async () => {
    assertSuccess(await client(ts, bob).post('/users/me/presence', { status: 'active' }));
    try {
      await setSettings(ts, bob, { enable_online_push_notifications: false });
      let text = unique('online');
      let id = await sendDirect(ts, alice, [bob], text);
      // The sentinel is subject to the same rules while Bob is online: wait until the message is decided and nothing is left to deliver.
      await waitForQuiet(ts, bob, id);
      expect(mailsTo(smtp.mails, bob).some((m) => m.text.includes(text))).toBe(false);
      expect((await messagePushes(bouncer, bobDevice)).some((p) => p.message_id === id)).toBe(false);

      await setSettings(ts, bob, { enable_online_push_notifications: true });
      text = unique('online push');
      id = await sendDirect(ts, alice, [bob], text);
      await waitForPush(bouncer, bobDevice, id);
      await waitForQuiet(ts, bob, id);
      expect(mailsTo(smtp.mails, bob).some((m) => m.text.includes(text))).toBe(false);
    } finally {
      await ts.server.deps.knex('user_presence').where({ user_id: bob.id }).delete();
    }
  });
});

describe('the push service', () => {
  test('received only requests of the shape it takes', () => {
    expect(bouncer.requests.length).toBeGreaterThan(0);
    expect(bouncer.violations).toEqual([]);
  });
});
