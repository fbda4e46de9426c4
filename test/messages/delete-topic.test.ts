import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyAction } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { fetchMessages, sendToChannel, subscribe } from './helpers';

let ts: TestServer;
let owner: TestUser;
let admin: TestUser;
let moderator: TestUser;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let town: number;

const deleteTopic = (who: TestUser, streamId: number, topic: string) => client(ts, who).post(`/streams/${streamId}/delete_topic`, { topic_name: topic });
const topicIds = async (who: TestUser, streamId: number, topic: string) =>
  (
    await fetchMessages(ts, who, {
      narrow: [
        { operator: 'channel', operand: streamId },
        { operator: 'topic', operand: topic },
      ],
    })
  ).messages.map((m: { id: number }) => m.id);

const bulk = { capabilities: { bulk_message_deletion: true } };

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  admin = await makeUser(ts, 200);
  moderator = await makeUser(ts, 300);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  town = await subscribe(ts, owner, 'town', [owner, admin, moderator, alice, bob]);
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('POST /streams/{stream_id}/delete_topic', () => {
  test("deletes the topic's messages in any letter case, announcing them; other topics stay", async () => {
    const doomed = [await sendToChannel(ts, alice, town, 'Plans', 'one'), await sendToChannel(ts, bob, town, 'plans', 'two')];
    const kept = await sendToChannel(ts, alice, town, 'keep', 'three');
    assertSuccess(await client(ts, bob).post('/user_topics', { stream_id: town, topic: 'Plans', visibility_policy: 3 }));
    const events = await verifyAction(
      ts,
      bob,
      async () => {
        const res = assertSuccess(await deleteTopic(admin, town, 'PLANS'));
        expect(res.complete).toBe(true);
      },
      bulk,
    );
    expect(events.filter((e) => e.type === 'delete_message')).toEqual([
      expect.objectContaining({ type: 'delete_message', message_ids: doomed, message_type: 'stream', stream_id: town, topic: 'plans' }),
    ]);
    expect(events.filter((e) => e.type === 'user_topic')).toEqual([expect.objectContaining({ stream_id: town, topic_name: 'Plans', visibility_policy: 0 })]);
    expect(await topicIds(alice, town, 'plans')).toEqual([]);
    expect(await topicIds(alice, town, 'keep')).toEqual([kept]);
  });

  test('a large topic goes in batches of 100, newest first', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 230; i++) ids.push(await sendToChannel(ts, alice, town, 'big', `message ${i}`));
    // Clients cannot learn the newest message from a deletion (the reducer checks it): one follows.
    await sendToChannel(ts, alice, town, 'after', 'later');
    const events = await verifyAction(ts, alice, async () => assertSuccess(await deleteTopic(owner, town, 'big')), bulk);
    const batches = events.filter((e) => e.type === 'delete_message').map((e) => e.message_ids);
    expect(batches.map((b) => b.length)).toEqual([100, 100, 30]);
    expect(batches[0]).toEqual(ids.slice(130));
    expect(batches.flat().sort((a: number, b: number) => a - b)).toEqual(ids);
  });

  test('when the time budget is spent, it answers complete: false and the client asks again', async () => {
    const id = await sendToChannel(ts, alice, town, 'slow', 'still here');
    const config = ts.server.deps.config;
    const budget = config.deleteTopicTimeLimitSeconds;
    config.deleteTopicTimeLimitSeconds = 0;
    try {
      expect(assertSuccess(await deleteTopic(admin, town, 'slow')).complete).toBe(false);
      expect(await topicIds(alice, town, 'slow')).toEqual([id]);
    } finally {
      config.deleteTopicTimeLimitSeconds = budget;
    }
    expect(assertSuccess(await deleteTopic(admin, town, 'slow')).complete).toBe(true);
    expect(await topicIds(alice, town, 'slow')).toEqual([]);
  });

  test('administrators only; channels they cannot access answer "Invalid channel ID"', async () => {
    const id = await sendToChannel(ts, alice, town, 'guarded', 'x');
    for (const who of [moderator, alice, guest]) {
      assertError(await deleteTopic(who, town, 'guarded'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    }
    assertError(await client(ts, moderator).post(`/streams/${town}/delete_topic`, {}), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(await client(ts, admin).post(`/streams/${town}/delete_topic`, {}), 'REQUEST_VARIABLE_MISSING', "Missing 'topic_name' argument");
    assertError(await deleteTopic(admin, 99_999_999, 'guarded'), 'BAD_REQUEST', 'Invalid channel ID');
    const secret = await subscribe(ts, alice, 'secret', [alice], { invite_only: true });
    await sendToChannel(ts, alice, secret, 'hidden', 'y');
    assertError(await deleteTopic(admin, secret, 'hidden'), 'BAD_REQUEST', 'Invalid channel ID');
    expect(await topicIds(alice, town, 'guarded')).toEqual([id]);
  });

  test('with protected history, only the messages the administrator received go', async () => {
    const vault = await subscribe(ts, alice, 'vault', [alice], { invite_only: true, history_public_to_subscribers: false });
    const before = await sendToChannel(ts, alice, vault, 'old', 'before the admin came');
    assertSuccess(await client(ts, alice).post('/users/me/subscriptions', { subscriptions: [{ name: 'vault' }], principals: [admin.id] }));
    const after = await sendToChannel(ts, alice, vault, 'old', 'after');
    expect(assertSuccess(await deleteTopic(admin, vault, 'old')).complete).toBe(true);
    expect(await topicIds(alice, vault, 'old')).toEqual([before]);
    expect(await topicIds(admin, vault, 'old')).not.toContain(after);
  });

  test('GraphQL deleteTopic does the same', async () => {
    await sendToChannel(ts, alice, town, 'gql', 'x');
    const mutation = 'mutation($id: Int!, $topic: String!) { deleteTopic(streamId: $id, topic: $topic) { streamId topic complete } }';
    expect(graphqlError(await graphql(ts, alice, mutation, { id: town, topic: 'gql' }))).toEqual({
      message: 'Must be an organization administrator',
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    const res = await graphql(ts, admin, mutation, { id: town, topic: 'gql' });
    expect(res.errors).toBeUndefined();
    expect(res.data!.deleteTopic).toEqual({ streamId: town, topic: 'gql', complete: true });
    expect(await topicIds(alice, town, 'gql')).toEqual([]);
  });
});
