import { assertSuccess, client, graphql } from '../helpers/api';
import { getEvents, registerQueue } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { fetchMessages, sendDirect, sendToChannel, subscribe } from '../messages/helpers';
import { fixture, newestMessage, postWebhook } from '../webhooks/helpers';

// Feature levels 482 (1:1 recipient_id), 484 (reaction events lose `user`) and 485 (webhook
// url_options name their form input `input_type`).
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let town: number;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Able' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Baker' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Cole' });
  town = await subscribe(ts, alice, 'town', [alice, bob, carol]);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

describe('482: recipient_id of 1:1 direct messages', () => {
  const recipientOf = async (viewer: TestUser, id: number) => assertSuccess(await client(ts, viewer).get(`/messages/${id}`)).message.recipient_id as number;

  test('one value per 1:1 conversation, the same in both directions and for both people', async () => {
    const toBob = await sendDirect(ts, alice, [bob], 'hi bob');
    const fromBob = await sendDirect(ts, bob, [alice], 'hi alice');
    const toCarol = await sendDirect(ts, alice, [carol], 'hi carol');
    const group = await sendDirect(ts, alice, [bob, carol], 'hi both');
    const self = await sendDirect(ts, alice, [alice], 'note to self');
    const channel = await sendToChannel(ts, alice, town, 'general', 'hi town');

    const pair = await recipientOf(alice, toBob);
    expect(await recipientOf(bob, toBob)).toBe(pair);
    expect(await recipientOf(alice, fromBob)).toBe(pair);
    expect(await recipientOf(bob, fromBob)).toBe(pair);

    const others = [await recipientOf(alice, toCarol), await recipientOf(alice, group), await recipientOf(alice, self), await recipientOf(alice, channel)];
    expect(new Set([pair, ...others]).size).toBe(5);
    expect(await recipientOf(carol, toCarol)).toBe(others[0]);

    // GET /messages reports the same value as GET /messages/{id}.
    const listed = (await fetchMessages(ts, bob, { narrow: [{ operator: 'dm', operand: [alice.id] }] })).messages;
    expect(listed.map((m: { recipient_id: number }) => m.recipient_id)).toEqual([pair, pair]);
  });

  test('the message event carries the conversation value', async () => {
    const { queueId, lastEventId } = await registerQueue(ts, bob, { eventTypes: ['message'] });
    const id = await sendDirect(ts, alice, [bob], 'again');
    const [event] = await getEvents(ts, bob, queueId, lastEventId);
    expect(event).toMatchObject({ type: 'message', message: { id, recipient_id: await recipientOf(bob, id) } });
  });
});

describe('484: reaction events carry user_id only', () => {
  test('add and remove events have no `user` object', async () => {
    const id = await sendToChannel(ts, alice, town, 'reactions', 'react to me');
    const { queueId, lastEventId } = await registerQueue(ts, alice, { eventTypes: ['reaction'] });
    assertSuccess(await client(ts, bob).post(`/messages/${id}/reactions`, { emoji_name: 'tada' }));
    const [added] = await getEvents(ts, alice, queueId, lastEventId);
    assertSuccess(await client(ts, bob).delete(`/messages/${id}/reactions`, { emoji_name: 'tada' }));
    const [removed] = await getEvents(ts, alice, queueId, added.id);
    const shape = { type: 'reaction', user_id: bob.id, message_id: id, emoji_name: 'tada', emoji_code: '1f389', reaction_type: 'unicode_emoji' };
    expect(added).toEqual({ ...shape, op: 'add', id: added.id });
    expect(removed).toEqual({ ...shape, op: 'remove', id: removed.id });
  });

  test('nor does the GraphQL reaction event type', async () => {
    const res = await graphql(ts, alice, '{ __type(name: "ReactionEvent") { fields { name } } }');
    expect(res.errors).toBeUndefined();
    const fields = (res.data!.__type.fields as { name: string }[]).map((f) => f.name);
    expect(fields).toEqual(expect.arrayContaining(['userId', 'messageId', 'emojiName', 'op']));
    expect(fields).not.toContain('user');
  });
});

describe('485: webhook url_options name the input `input_type`', () => {
  let apiKey: string;
  beforeAll(async () => {
    assertSuccess(await client(ts, alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'alerts' }] }));
    apiKey = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Hook Bot', short_name: 'hook485', bot_type: 2 })).api_key;
  });

  test('register lists each integration’s URL parameters with key, label and input_type', async () => {
    const { state } = await registerQueue(ts, alice, { fetchEventTypes: ['realm_incoming_webhook_bots'] });
    const byName = Object.fromEntries(state.realm_incoming_webhook_bots.map((i: { name: string }) => [i.name, i]));
    expect(byName.github.url_options).toEqual([
      { key: 'branches', label: 'Branches to report (comma-separated)', input_type: 'text' },
      { key: 'ignore_private_repositories', label: 'Skip events from private repositories', input_type: 'checkbox' },
    ]);
    expect(byName.gitlab.url_options).toEqual([{ key: 'branches', label: 'Branches to report (comma-separated)', input_type: 'text' }]);
    for (const name of ['grafana', 'json', 'slack_incoming']) expect(byName[name].url_options).toEqual([]);
    for (const integration of state.realm_incoming_webhook_bots) {
      for (const option of integration.url_options) expect(option).not.toHaveProperty('validator');
    }
  });

  test('the advertised checkbox does what it says: private repositories are skipped when set', async () => {
    const privatePing = fixture('github', 'ping').replace('"private": false', '"private": true');
    expect(privatePing).toContain('"private": true');
    const before = await newestMessage(ts, alice);
    const skipped = await postWebhook(ts, 'github', { api_key: apiKey, stream: 'alerts', ignore_private_repositories: 'true' }, privatePing, {
      'X-GitHub-Event': 'ping',
    });
    expect(skipped).toEqual({ status: 200, body: { result: 'success', msg: '' } });
    expect((await newestMessage(ts, alice))!.id).toBe(before!.id);

    const kept = await postWebhook(ts, 'github', { api_key: apiKey, stream: 'alerts' }, privatePing, { 'X-GitHub-Event': 'ping' });
    expect(kept.status).toBe(200);
    const message = await newestMessage(ts, alice, [{ operator: 'channel', operand: 'alerts' }]);
    expect(message!.id).toBeGreaterThan(before!.id);
    expect(message!.sender_full_name).toBe('Hook Bot');
  });
});
