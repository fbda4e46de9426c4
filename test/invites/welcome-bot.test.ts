import crypto from 'node:crypto';
import { assertSuccess, client, graphql } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { startServerWithProvider, TestProvider, throughProvider } from '../helpers/oidc-provider';
import { makeUser, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { waitForQuiet } from '../notifications/helpers';
import { WebClient } from '../accounts/web-client';

/**
 * The Welcome Bot greets each person who joins (an invitation, POST /users, GraphQL createUser, a
 * first single sign-on) with a direct message, followed by the custom welcome text that applies:
 * the invitation's own, else the organization's. Bots and the operator's accounts get nothing.
 * The messages start unread and notify nobody by email or push.
 */
let ts: TestServer;
let provider: TestProvider;
let admin: TestUser;

const WELCOME_BOT = 'welcome-bot@zulip.com';
const PASSWORD = 'a-long-unguessable-pass-42';

beforeAll(async () => {
  ({ ts, provider } = await startServerWithProvider({ PARLEY_OIDC_CREATE_USERS: 'true' }));
  admin = await makeUser(ts, 200, { canCreateUsers: true });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await provider?.close();
});

type Joiner = { id: number; email: string; apiKey: string };

/** Signs up through a reusable invitation link made with `options`. */
async function joinThroughLink(options: Record<string, unknown> = {}): Promise<Joiner> {
  const link = assertSuccess(await client(ts, admin).post('/invites/multiuse', { invite_as: 400, ...options })).invite_link as string;
  const key = /\/join\/([a-z0-9]{24})\//.exec(link)![1];
  const email = `joiner-${crypto.randomUUID()}@example.com`;
  const body = assertSuccess(await client(ts, null).post(`/join/${key}`, { email, full_name: 'New Joiner', password: PASSWORD }));
  return { id: body.user_id, email, apiKey: body.api_key };
}

/** The user's messages from the Welcome Bot, oldest first, as written. */
async function fromWelcomeBot(who: Joiner): Promise<any[]> {
  const res = assertSuccess(await client(ts, who).get('/messages', { anchor: 'newest', num_before: 50, num_after: 0, narrow: [], apply_markdown: false }));
  return res.messages.filter((m: any) => m.sender_email === WELCOME_BOT);
}

const setRealmText = async (text: string) => assertSuccess(await client(ts, ts.owner).patch('/realm', { welcome_message_custom_text: text }));

test('an invitation with its own text: the greeting, then that text; unread, announced, and notifying nobody', async () => {
  await setRealmText('The organization’s own text.');
  const captured = captureEvents(ts);
  let joiner: Joiner;
  try {
    joiner = await joinThroughLink({ welcome_message_custom_text: 'Start with the **handbook**.' });
  } finally {
    captured.stop();
    await setRealmText('');
  }
  const messages = await fromWelcomeBot(joiner);
  expect(messages).toHaveLength(2);
  const [greeting, custom] = messages;
  for (const m of messages) {
    expect(m).toMatchObject({ type: 'private', sender_full_name: 'Welcome Bot', flags: [] });
    expect(m.display_recipient.map((r: any) => r.id).sort()).toEqual([greeting.sender_id, joiner.id].sort());
  }
  expect(greeting.content).toContain('welcome to Test Org');
  expect(greeting.content).toContain('channels');
  expect(custom.content).toBe('A message from the administrators of Test Org:\n\nStart with the **handbook**.');

  // Each went out as a message event to the new user, unread.
  const events: any[] = captured.for(joiner.id).filter((e) => e.type === 'message');
  expect(events.map((e) => [e.message.id, e.flags])).toEqual([
    [greeting.id, []],
    [custom.id, []],
  ]);
  // The new user's client starts with both unread.
  const state = assertSuccess(await client(ts, joiner).post('/register', { fetch_event_types: ['message'] }));
  expect(state.unread_msgs.pms).toEqual([expect.objectContaining({ other_user_id: greeting.sender_id, unread_message_ids: [greeting.id, custom.id] })]);

  // No email or push is decided for them, while a person's direct message is.
  await waitForQuiet(ts, joiner as TestUser, custom.id);
  expect(await ts.server.deps.knex('notification_jobs').where({ user_id: joiner.id })).toEqual([]);
  assertSuccess(await client(ts, admin).post('/messages', { type: 'direct', to: [joiner.id], content: 'Hello from a person' }));
  await ts.server.notifications.runNow();
  await waitUntil(async () => (await ts.server.deps.knex('notification_jobs').where({ user_id: joiner.id }).first()) !== undefined);
});

test('without an invitation text, the organization’s; an empty invitation text or no text at all: the greeting only', async () => {
  await setRealmText('Please read #**general** first.');
  let withRealmText: Joiner;
  let emptyInvitationText: Joiner;
  try {
    withRealmText = await joinThroughLink();
    emptyInvitationText = await joinThroughLink({ welcome_message_custom_text: '' });
  } finally {
    await setRealmText('');
  }
  const realmTexts = await fromWelcomeBot(withRealmText);
  expect(realmTexts).toHaveLength(2);
  expect(realmTexts[1].content).toBe('A message from the administrators of Test Org:\n\nPlease read #**general** first.');
  expect(await fromWelcomeBot(emptyInvitationText)).toHaveLength(1);

  const neither = await fromWelcomeBot(await joinThroughLink());
  expect(neither).toHaveLength(1);
  expect(neither[0].content).toContain('welcome to Test Org');
});

test('POST /users and GraphQL createUser: the greeting', async () => {
  const email = `created-${crypto.randomUUID()}@example.com`;
  assertSuccess(await client(ts, admin).post('/users', { email, password: PASSWORD, full_name: 'Api Person' }));
  const apiKey = assertSuccess(await client(ts, null).post('/fetch_api_key', { username: email, password: PASSWORD })).api_key;
  const created = { id: 0, email, apiKey };
  const messages = await fromWelcomeBot(created);
  expect(messages).toHaveLength(1);
  expect(messages[0].content).toContain('welcome to Test Org');
  expect(messages[0].flags).toEqual([]);

  const captured = captureEvents(ts);
  const res = await graphql(ts, admin, 'mutation ($input: CreateUserInput!) { createUser(input: $input) { userId } }', {
    input: { email: `gql-${crypto.randomUUID()}@example.com`, password: PASSWORD, fullName: 'Graph Person' },
  });
  captured.stop();
  const userId = res.data!.createUser.userId as number;
  const events: any[] = captured.for(userId).filter((e) => e.type === 'message');
  expect(events).toHaveLength(1);
  expect(events[0].message).toMatchObject({ sender_email: WELCOME_BOT, type: 'private' });
});

test('a first single sign-on honouring an invitation: the greeting, then the invitation’s text', async () => {
  const email = `sso-${crypto.randomUUID()}@example.com`;
  assertSuccess(await client(ts, admin).post('/invites', { invitee_emails: email, stream_ids: [], welcome_message_custom_text: 'Welcome aboard.' }));
  const captured = captureEvents(ts);
  try {
    provider.nextUser = { sub: `sub-${email}`, email, email_verified: true, name: 'Sso Person' };
    const web = new WebClient(ts);
    const start = await web.get('/accounts/register/social/oidc');
    const callback = new URL(await throughProvider(start.location!, `${ts.server.deps.config.externalUrl}/complete/oidc/`));
    expect((await web.get(callback.pathname + callback.search)).status).toBe(302);
  } finally {
    captured.stop();
  }
  const userId = assertSuccess(await client(ts, admin).get(`/users/${encodeURIComponent(email)}`)).user.user_id as number;
  const welcomes = (captured.for(userId) as any[]).filter((e) => e.type === 'message' && e.message.sender_email === WELCOME_BOT);
  expect(welcomes).toHaveLength(2);
  expect(welcomes[0].message.content).toContain('welcome to Test Org');
  expect(welcomes[1].message.content).toContain('Welcome aboard.');
  expect(welcomes.map((e) => e.flags)).toEqual([[], []]);
});

test('bots and the operator’s accounts get nothing', async () => {
  await setRealmText('Hello, newcomer.');
  const captured = captureEvents(ts);
  let botId: number;
  let operatorMade: TestUser;
  try {
    botId = assertSuccess(await client(ts, admin).post('/bots', { full_name: 'Helper Bot', short_name: `helper-${Date.now()}`, bot_type: 1 })).user_id;
    operatorMade = await makeUser(ts, 400);
  } finally {
    captured.stop();
    await setRealmText('');
  }
  expect((captured.events('message') as any[]).filter((e) => e.message.sender_email === WELCOME_BOT)).toEqual([]);
  expect(captured.for(botId).filter((e) => e.type === 'message')).toEqual([]);
  expect(await fromWelcomeBot(operatorMade)).toEqual([]);
});
