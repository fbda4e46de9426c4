import fs from 'node:fs';
import { assertError, assertSuccess, client } from '../helpers/api';
import { registerQueue } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { sendDirect, sendToChannel, subscribe } from '../messages/helpers';
import { Bouncer, startBouncer } from '../notifications/bouncer';
import { mailsTo, notificationEnv, serviceKeys, setSettings } from '../notifications/helpers';
import { CapturedMail, startSmtp } from '../notifications/smtp';
import { tempDataDir, upload } from '../uploads/files';
import { solidPng } from '../uploads/images';

/**
 * Organization settings that change what the server does, each checked through the API: the
 * setting is changed, the behaviour follows, and the setting is put back for the next test.
 */
let smtp: { url: string; mails: CapturedMail[]; close(): Promise<void> };
let bouncer: Bouncer;
let ts: TestServer;
let dataDir: string;
let creator: TestUser;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  smtp = await startSmtp();
  bouncer = await startBouncer();
  dataDir = tempDataDir();
  ts = await startTestServer({ ...notificationEnv(await serviceKeys(), smtp.url, bouncer.url), DATA_DIR: dataDir });
  creator = await makeUser(ts, 100, { canCreateUsers: true });
  alice = await makeUser(ts, 400, { fullName: 'Alice Sender' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Away' });
}, SERVER_HOOK_TIMEOUT);

afterAll(async () => {
  await ts?.close();
  await bouncer?.close();
  await smtp?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const owner = () => client(ts, ts.owner);

async function setRealm(settings: Record<string, unknown>): Promise<void> {
  assertSuccess(await owner().patch('/realm', settings));
}

const invite = (who: TestUser, emails: string) => client(ts, who).post('/invites', { invitee_emails: emails, stream_ids: [] });

const render = async (content: string): Promise<string> => assertSuccess(await client(ts, alice).post('/messages/render', { content })).rendered;

test('disallow_disposable_email_addresses refuses throwaway mailboxes for invitations and email changes', async () => {
  expect((await invite(alice, 'someone@mailinator.com')).body).toMatchObject({
    code: 'INVITATION_FAILED',
    errors: [['someone@mailinator.com', 'Please use your real email address.', false]],
    sent_invitations: false,
  });
  assertError(await client(ts, alice).patch('/settings', { email: 'alice@mailinator.com' }), 'BAD_REQUEST', 'Please use your real email address.');
  await setRealm({ disallow_disposable_email_addresses: false });
  try {
    assertSuccess(await invite(alice, 'someone@mailinator.com'));
  } finally {
    await setRealm({ disallow_disposable_email_addresses: true });
  }
});

test('emails_restricted_to_domains also refuses addresses with a "+"', async () => {
  assertSuccess(await owner().post('/realm/domains', { domain: 'example.org', allow_subdomains: false }));
  await setRealm({ emails_restricted_to_domains: true });
  try {
    expect((await invite(alice, 'in+tag@example.org, out@example.net')).body.errors).toEqual([
      ['in+tag@example.org', 'Email addresses containing + are not allowed.', false],
      ['out@example.net', 'Outside your domain.', false],
    ]);
    assertSuccess(await invite(alice, 'in@example.org'));
  } finally {
    await setRealm({ emails_restricted_to_domains: false });
    assertSuccess(await owner().delete('/realm/domains/example.org'));
  }
  assertSuccess(await invite(alice, 'in+tag@example.org'));
});

test("default_language is a new account's interface language", async () => {
  await setRealm({ default_language: 'de' });
  try {
    const email = 'sprecher@example.com';
    assertSuccess(await client(ts, creator).post('/users', { email, password: 'a-good-password', full_name: 'Neue Person' }));
    const { api_key: apiKey, user_id: id } = assertSuccess(await client(ts, null).post('/fetch_api_key', { username: email, password: 'a-good-password' }));
    const newcomer: TestUser = { id, email, apiKey, password: 'a-good-password', fullName: 'Neue Person', role: 400 };
    const { state } = await registerQueue(ts, newcomer, { fetchEventTypes: ['user_settings'] });
    expect(state.user_settings.default_language).toBe('de');
  } finally {
    await setRealm({ default_language: 'en' });
  }
});

test('message_content_allowed_in_email_notifications keeps content out of emails whatever users prefer', async () => {
  await setSettings(ts, bob, { email_notifications_batching_period_seconds: 1 });
  await setRealm({ message_content_allowed_in_email_notifications: false });
  try {
    const before = mailsTo(smtp.mails, bob).length;
    await sendDirect(ts, alice, [bob], 'the launch code is 1234');
    await waitUntil(() => mailsTo(smtp.mails, bob).length > before);
    const mail = mailsTo(smtp.mails, bob)[before];
    expect(mail.text).toContain('Alice Sender');
    expect(mail.text).not.toContain('launch code');
    expect(mail.html).not.toContain('launch code');
  } finally {
    await setRealm({ message_content_allowed_in_email_notifications: true });
  }
});

test('inline_image_preview turns previews of uploaded images off and on', async () => {
  const url = assertSuccess(await upload(ts, alice, [{ name: 'dot.png', data: await solidPng(8, 8), type: 'image/png' }])).url;
  const content = `[dot.png](${url})`;
  expect(await render(content)).toContain('message_inline_image');
  await setRealm({ inline_image_preview: false });
  try {
    const html = await render(content);
    expect(html).not.toContain('message_inline_image');
    expect(html).toContain(`href="${url}"`);
  } finally {
    await setRealm({ inline_image_preview: true });
  }
});

test('default_code_block_language applies to fences that name no language', async () => {
  const content = '```\nprint(1)\n```\n\n```js\nx\n```';
  expect(await render(content)).not.toContain('data-code-language="Python"');
  await setRealm({ default_code_block_language: 'python' });
  try {
    const html = await render(content);
    expect(html).toContain('<div class="codehilite" data-code-language="Python">');
    expect(html).toContain('data-code-language="JavaScript"');
  } finally {
    await setRealm({ default_code_block_language: '' });
  }
});

/** The raw contents of the latest messages of a channel topic, oldest first. */
async function topicContents(channelId: number, topic: string): Promise<string[]> {
  const narrow = [
    { operator: 'channel', operand: channelId },
    { operator: 'topic', operand: topic },
  ];
  const body = assertSuccess(await owner().get('/messages', { narrow, anchor: 'newest', num_before: 10, num_after: 0, apply_markdown: false }));
  return body.messages.map((m: { content: string }) => m.content);
}

test('signup_announcements_stream_id: the notification bot announces new accounts there', async () => {
  const channelId = await subscribe(ts, ts.owner, 'signups here', [ts.owner]);
  await setRealm({ signup_announcements_stream_id: channelId });
  try {
    const res = await client(ts, creator).post('/users', { email: 'joiner@example.com', password: 'a-good-password', full_name: 'New Joiner' });
    const { user_id: id } = assertSuccess(res);
    expect(await topicContents(channelId, 'signups')).toEqual([`@_**New Joiner|${id}** joined this organization.`]);
  } finally {
    await setRealm({ signup_announcements_stream_id: -1 });
  }
  assertSuccess(await client(ts, creator).post('/users', { email: 'quiet@example.com', password: 'a-good-password', full_name: 'Quiet Joiner' }));
  expect(await topicContents(channelId, 'signups')).toHaveLength(1);
});

test('new_stream_announcements_stream_id: channels created with announce are announced there', async () => {
  const channelId = await subscribe(ts, ts.owner, 'channel news', [ts.owner]);
  await setRealm({ new_stream_announcements_stream_id: channelId });
  try {
    const create = (names: string[], announce: boolean) =>
      client(ts, alice).post('/users/me/subscriptions', { subscriptions: names.map((name) => ({ name })), announce });
    assertSuccess(await create(['quiet one'], false));
    assertSuccess(await create(['loud one'], true));
    assertSuccess(await create(['loud two', 'loud three', 'loud one'], true));
    expect(await topicContents(channelId, 'new channels')).toEqual([
      `@_**Alice Sender|${alice.id}** created a new channel #**loud one**.`,
      `@_**Alice Sender|${alice.id}** created the following channels: #**loud two**, #**loud three**.`,
    ]);
  } finally {
    await setRealm({ new_stream_announcements_stream_id: -1 });
  }
});

test('require_e2ee_push_notifications keeps message content out of pushes to legacy tokens', async () => {
  assertSuccess(await client(ts, bob).post('/users/me/android_gcm_reg_id', { token: 'legacy-token-e2ee' }));
  const legacyPush = async (content: string) => {
    const id = await sendDirect(ts, alice, [bob], content);
    const sent = () => bouncer.requests.find((r) => r.path === '/api/v1/remotes/push/notify' && r.body.gcm_payload?.zulip_message_id === id);
    await waitUntil(() => sent() !== undefined);
    return sent()!.body;
  };
  await setRealm({ require_e2ee_push_notifications: true });
  try {
    const body = await legacyPush('the vault opens at noon');
    expect(body.gcm_payload).toMatchObject({ content: 'New message', sender_full_name: 'Alice Sender' });
    expect(body.apns_payload.alert).toMatchObject({ title: 'Alice Sender', body: 'New message' });
    expect(JSON.stringify(body)).not.toContain('vault');
  } finally {
    await setRealm({ require_e2ee_push_notifications: false });
  }
  expect((await legacyPush('plain again')).gcm_payload.content).toBe('plain again');
  assertSuccess(await client(ts, bob).delete('/users/me/android_gcm_reg_id', { token: 'legacy-token-e2ee' }));
  expect(bouncer.violations).toEqual([]);
});

const UNMUTED = 2;
const FOLLOWED = 3;

/** The user's visibility policy for a topic (0: none set). */
async function topicPolicy(who: TestUser, channelId: number, topic: string): Promise<number> {
  const { state } = await registerQueue(ts, who, { fetchEventTypes: ['user_topic'] });
  const found = state.user_topics.find((t: { stream_id: number; topic_name: string }) => t.stream_id === channelId && t.topic_name === topic);
  return found?.visibility_policy ?? 0;
}

test("automatically_follow_topics_policy: sending follows a topic only as the sender's setting says", async () => {
  const channelId = await subscribe(ts, ts.owner, 'follow rules', [alice, bob]);
  // 4: never.
  await setSettings(ts, alice, { automatically_follow_topics_policy: 4 });
  try {
    await sendToChannel(ts, alice, channelId, 'never followed', 'first');
    await sendToChannel(ts, alice, channelId, 'never followed', 'second');
    expect(await topicPolicy(alice, channelId, 'never followed')).toBe(0);
    // 2: on sending; the next message to the same topic obeys the change at once.
    await setSettings(ts, alice, { automatically_follow_topics_policy: 2 });
    await sendToChannel(ts, alice, channelId, 'never followed', 'third');
    expect(await topicPolicy(alice, channelId, 'never followed')).toBe(FOLLOWED);
  } finally {
    await setSettings(ts, alice, { automatically_follow_topics_policy: 3 });
  }
  await sendToChannel(ts, alice, channelId, 'started here', 'a new topic');
  expect(await topicPolicy(alice, channelId, 'started here')).toBe(FOLLOWED);
});

test('automatically_follow_topics_where_mentioned: a mention follows the topic only for those who want it', async () => {
  const channelId = await subscribe(ts, ts.owner, 'mention rules', [alice, bob]);
  await setSettings(ts, bob, { automatically_follow_topics_where_mentioned: false });
  try {
    await sendToChannel(ts, alice, channelId, 'quiet mention', `@**Bob Away|${bob.id}** look`);
    expect(await topicPolicy(bob, channelId, 'quiet mention')).toBe(0);
  } finally {
    await setSettings(ts, bob, { automatically_follow_topics_where_mentioned: true });
  }
  await sendToChannel(ts, alice, channelId, 'loud mention', `@**Bob Away|${bob.id}** look`);
  expect(await topicPolicy(bob, channelId, 'loud mention')).toBe(FOLLOWED);
});

test('automatically_unmute_topics_in_muted_streams_policy: sending in a muted channel unmutes the topic only as the setting says', async () => {
  const channelId = await subscribe(ts, ts.owner, 'muted rules', [alice, bob]);
  const mute = { subscription_data: [{ stream_id: channelId, property: 'is_muted', value: true }] };
  assertSuccess(await client(ts, alice).post('/users/me/subscriptions/properties', mute));
  await setSettings(ts, alice, { automatically_follow_topics_policy: 4, automatically_unmute_topics_in_muted_streams_policy: 4 });
  try {
    await sendToChannel(ts, alice, channelId, 'stays muted', 'hello');
    expect(await topicPolicy(alice, channelId, 'stays muted')).toBe(0);
    // 2 (Zulip's default): on sending.
    await setSettings(ts, alice, { automatically_unmute_topics_in_muted_streams_policy: 2 });
    await sendToChannel(ts, alice, channelId, 'stays muted', 'again');
    expect(await topicPolicy(alice, channelId, 'stays muted')).toBe(UNMUTED);
  } finally {
    await setSettings(ts, alice, { automatically_follow_topics_policy: 3, automatically_unmute_topics_in_muted_streams_policy: 2 });
  }
});
