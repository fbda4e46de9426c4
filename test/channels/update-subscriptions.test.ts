import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyAction } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { createChannel } from './helpers';

let ts: TestServer;
let owner: TestUser;
let alice: TestUser;
let guest: TestUser;

const update = (who: TestUser, params: Record<string, unknown>) => client(ts, who).patch('/users/me/subscriptions', params);
const subscribedNames = async (who: TestUser) =>
  (assertSuccess(await client(ts, who).get('/users/me/subscriptions')).subscriptions as { name: string }[]).map((s) => s.name).sort();

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  await createChannel(ts, owner, 'kitchen');
  await createChannel(ts, owner, 'garden');
  await createChannel(ts, alice, 'attic');
}, 120_000);
afterAll(() => ts.close(), 60_000);

describe('PATCH /users/me/subscriptions', () => {
  test('adds and removes in one request, answering both results', async () => {
    await verifyAction(ts, alice, async () => {
      const res = assertSuccess(
        await update(alice, { add: [{ name: 'kitchen' }, { name: 'attic' }, { name: 'cellar', color: '#a1b2c3' }], delete: ['garden', 'attic'] }),
      );
      expect(res).toEqual({
        result: 'success',
        msg: '',
        subscribed: { [alice.id]: ['kitchen', 'cellar'] },
        already_subscribed: { [alice.id]: ['attic'] },
        removed: ['attic'],
        not_removed: ['garden'],
      });
    });
    expect(await subscribedNames(alice)).toEqual(['cellar', 'kitchen']);
  });

  test('either list may be left out', async () => {
    expect(assertSuccess(await update(alice, { delete: ['cellar'] }))).toMatchObject({ subscribed: {}, already_subscribed: {}, removed: ['cellar'] });
    expect(assertSuccess(await update(alice, { add: [{ name: 'cellar' }] }))).toMatchObject({ subscribed: { [alice.id]: ['cellar'] }, removed: [] });
  });

  test('refusals change nothing', async () => {
    assertError(await update(alice, {}), 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
    assertError(await update(alice, { add: [], delete: [] }), 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
    const before = await subscribedNames(alice);
    assertError(await update(alice, { add: [{ name: 'garden' }], delete: ['nowhere'] }), 'BAD_REQUEST', 'Channel(s) (nowhere) do not exist');
    assertError(await update(alice, { add: [{ name: 'garden', color: 'red' }] }), 'BAD_REQUEST', 'add.color is not a valid hex color code');
    assertError(await update(alice, { add: [{ name: 'garden' }], delete: '"garden"' }), 'BAD_REQUEST', 'delete is not a list');
    expect(await subscribedNames(alice)).toEqual(before);
    // A guest may not create channels, nor subscribe to public ones it was not invited to.
    assertError(await update(guest, { add: [{ name: 'kitchen' }] }), 'BAD_REQUEST', 'Unable to access channel (kitchen).');
  });

  test('PATCH /users/me/subscriptions/{stream_id} changes one property, as Zulip routes it', async () => {
    const id = assertSuccess(await client(ts, alice).get('/get_stream_id', { stream: 'kitchen' })).stream_id;
    await verifyAction(ts, alice, async () =>
      assertSuccess(await client(ts, alice).patch(`/users/me/subscriptions/${id}`, { property: 'pin_to_top', value: 'true' })),
    );
    const sub = (assertSuccess(await client(ts, alice).get('/users/me/subscriptions')).subscriptions as { stream_id: number; pin_to_top: boolean }[]).find(
      (s) => s.stream_id === id,
    );
    expect(sub?.pin_to_top).toBe(true);
  });

  test('GraphQL updateSubscriptions does the same', async () => {
    const mutation =
      'mutation($add: [NewChannelInput!]!, $remove: [String!]!) { updateSubscriptions(add: $add, remove: $remove) { subscribed { userId channelNames } alreadySubscribed { userId channelNames } removed notRemoved } }';
    const res = await graphql(ts, alice, mutation, { add: [{ name: 'garden' }], remove: ['kitchen'] });
    expect(res.errors).toBeUndefined();
    expect(res.data!.updateSubscriptions).toEqual({
      subscribed: [{ userId: alice.id, channelNames: ['garden'] }],
      alreadySubscribed: [],
      removed: ['kitchen'],
      notRemoved: [],
    });
    expect(graphqlError(await graphql(ts, alice, mutation, { add: [], remove: [] }))).toEqual({
      message: 'Nothing to do. Specify at least one of "add" or "delete".',
      code: 'BAD_REQUEST',
    });
  });
});
