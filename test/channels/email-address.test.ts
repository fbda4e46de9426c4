import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { createChannel } from './helpers';

let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;
let alicesBot: TestUser;
let town: number;
let secret: number;

const address = (who: TestUser, id: number, params: Record<string, unknown> = {}) => client(ts, who).get(`/streams/${id}/email_address`, params);

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  alicesBot = await makeUser(ts, 400, { fullName: 'Alice Bot' });
  // There is no bot-creation endpoint yet: the account is made a bot of Alice's directly.
  await ts.server.deps.knex('users').where({ id: alicesBot.id }).update({ is_bot: true, bot_owner_id: alice.id });
  town = await createChannel(ts, alice, 'town');
  secret = await createChannel(ts, alice, 'secret', { invite_only: true });
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('GET /streams/{stream_id}/email_address', () => {
  test('answers an empty address, as Zulip does without an email gateway', async () => {
    expect(assertSuccess(await address(alice, town))).toEqual({ result: 'success', msg: '', email: '' });
    expect(assertSuccess(await address(alice, town, { sender_id: alice.id })).email).toBe('');
    expect(assertSuccess(await address(alice, town, { sender_id: alicesBot.id })).email).toBe('');
    expect(assertSuccess(await address(admin, town, { sender_id: alicesBot.id })).email).toBe('');
  });

  test('checks the channel and the sender as Zulip does', async () => {
    assertError(await address(bob, secret), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await address(guest, town), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await address(alice, 99_999_999), 'BAD_REQUEST', 'Invalid channel ID');
    assertError(await address(bob, town, { sender_id: alicesBot.id }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await address(alice, town, { sender_id: bob.id }), 'BAD_REQUEST', 'No such bot');
    assertError(await address(alice, town, { sender_id: 99_999_999_999 }), 'BAD_REQUEST', 'No such bot');
    assertError(await address(alice, town, { sender_id: -1 }), 'BAD_REQUEST', 'sender_id is too small');
  });

  test('GraphQL channelEmailAddress answers the same', async () => {
    const query = 'query($id: Int!, $sender: Int) { channelEmailAddress(streamId: $id, senderId: $sender) }';
    const res = await graphql(ts, alice, query, { id: town });
    expect(res.errors).toBeUndefined();
    expect(res.data!.channelEmailAddress).toBe('');
    expect(graphqlError(await graphql(ts, bob, query, { id: town, sender: alicesBot.id }))).toEqual({
      message: 'Insufficient permission',
      code: 'BAD_REQUEST',
    });
  });
});
