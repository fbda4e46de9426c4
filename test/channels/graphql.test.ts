import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { captureEvents } from './helpers';

let ts: TestServer;
let member: TestUser;
let other: TestUser;
let guest: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  other = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  groups = await systemGroups(ts);
}, 120_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

const SUBSCRIBE = `mutation($input: SubscribeInput!) {
  subscribe(input: $input) { subscribed { userId channelNames } alreadySubscribed { userId channelNames } unauthorized }
}`;

test('subscribe creates channels through the same action, with the same events', async () => {
  const capture = captureEvents(ts);
  const res = await graphql(ts, member, SUBSCRIBE, {
    input: {
      channels: [{ name: 'gql-room', description: 'From *GraphQL*', color: '#112233' }],
      userIds: [member.id, other.id],
      permissions: { canSendMessageGroup: { groupId: groups['role:members'] }, canAddSubscribersGroup: { directMembers: [other.id] } },
      topicsPolicy: 'disable_empty_topic',
    },
  });
  capture.stop();
  expect(res.errors).toBeUndefined();
  expect(res.data!.subscribe).toEqual({
    subscribed: [
      { userId: member.id, channelNames: ['gql-room'] },
      { userId: other.id, channelNames: ['gql-room'] },
    ].sort((a, b) => a.userId - b.userId),
    alreadySubscribed: [],
    unauthorized: null,
  });
  expect(capture.recipientsOf((e) => e.type === 'subscription' && e.op === 'add')).toEqual([member.id, other.id].sort((a, b) => a - b));
  const rest = assertSuccess(await client(ts, member).get('/users/me/subscriptions')).subscriptions.find((s: any) => s.name === 'gql-room');
  expect(rest).toMatchObject({
    color: '#112233',
    topics_policy: 'disable_empty_topic',
    can_send_message_group: groups['role:members'],
    can_add_subscribers_group: { direct_members: [other.id], direct_subgroups: [] },
  });
});

test('queries: channels, channel, subscriptions, subscribers', async () => {
  const res = await graphql(
    ts,
    other,
    `{
      channels { name inviteOnly canSendMessageGroup { groupId } canAdministerChannelGroup { groupId directMembers directSubgroups } }
      subscriptions(includeSubscribers: true) { color isMuted desktopNotifications channel { name subscribers subscriberCount renderedDescription } }
    }`,
  );
  expect(res.errors).toBeUndefined();
  expect(res.data!.channels).toEqual([
    {
      name: 'gql-room',
      inviteOnly: false,
      canSendMessageGroup: { groupId: groups['role:members'] },
      canAdministerChannelGroup: { groupId: null, directMembers: [member.id], directSubgroups: [] },
    },
  ]);
  expect(res.data!.subscriptions).toEqual([
    {
      color: expect.stringMatching(/^#/),
      isMuted: false,
      desktopNotifications: null,
      channel: {
        name: 'gql-room',
        subscribers: [member.id, other.id].sort((a, b) => a - b),
        subscriberCount: 2,
        renderedDescription: '<p>From <em>GraphQL</em></p>',
      },
    },
  ]);
  const id = assertSuccess(await client(ts, other).get('/get_stream_id', { stream: 'gql-room' })).stream_id;
  const one = await graphql(ts, other, 'query($id: Int!) { channel(id: $id) { streamId name } channelSubscribers(id: $id) }', { id });
  expect(one.data).toEqual({ channel: { streamId: id, name: 'gql-room' }, channelSubscribers: [member.id, other.id].sort((a, b) => a - b) });
});

test('errors carry the Zulip codes and messages', async () => {
  const hidden = await graphql(ts, guest, 'query { channel(id: 1) { name } }');
  expect(graphqlError(hidden)).toEqual({ message: 'Invalid channel ID', code: 'BAD_REQUEST' });
  const guestSub = await graphql(ts, guest, SUBSCRIBE, { input: { channels: [{ name: 'x' }] } });
  expect(graphqlError(guestSub)).toEqual({ message: 'Insufficient permission', code: 'BAD_REQUEST' });
  const badPolicy = await graphql(ts, member, SUBSCRIBE, { input: { channels: [{ name: 'x' }], topicsPolicy: 'sometimes' } });
  expect(graphqlError(badPolicy)).toEqual({ message: 'Invalid topics_policy', code: 'BAD_REQUEST' });
  const ambiguous = await graphql(ts, member, SUBSCRIBE, {
    input: { channels: [{ name: 'x' }], permissions: { canSendMessageGroup: { groupId: 1, directMembers: [1] } } },
  });
  expect(graphqlError(ambiguous).code).toBe('BAD_REQUEST');
  const anonymous = await graphql(ts, null, '{ channels { name } }');
  expect(graphqlError(anonymous)).toEqual({ message: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
});

test('updateChannel, updateSubscriptionProperties, unsubscribe, archiveChannel', async () => {
  const id = assertSuccess(await client(ts, member).get('/get_stream_id', { stream: 'gql-room' })).stream_id;
  const updated = await graphql(
    ts,
    member,
    `mutation($id: Int!) {
      updateChannel(id: $id, input: { newName: "gql-renamed", description: "New", permissions: { canSendMessageGroup: { newValue: { groupId: ${groups['role:everyone']} }, oldValue: { groupId: ${groups['role:members']} } } } }) {
        name description canSendMessageGroup { groupId }
      }
    }`,
    { id },
  );
  expect(updated.data).toEqual({ updateChannel: { name: 'gql-renamed', description: 'New', canSendMessageGroup: { groupId: groups['role:everyone'] } } });
  const denied = await graphql(ts, other, `mutation { updateChannel(id: ${id}, input: { description: "no" }) { name } }`);
  expect(graphqlError(denied)).toEqual({ message: 'You do not have permission to administer this channel.', code: 'BAD_REQUEST' });

  const props = await graphql(
    ts,
    other,
    `mutation { updateSubscriptionProperties(changes: [{ streamId: ${id}, isMuted: true, color: "#abcdef" }]) { color isMuted channel { streamId } } }`,
  );
  expect(props.data).toEqual({ updateSubscriptionProperties: [{ color: '#abcdef', isMuted: true, channel: { streamId: id } }] });

  const left = await graphql(ts, other, 'mutation { unsubscribe(channels: ["gql-renamed"]) { removed notRemoved } }');
  expect(left.data).toEqual({ unsubscribe: { removed: ['gql-renamed'], notRemoved: [] } });

  const archived = await graphql(ts, member, `mutation { archiveChannel(id: ${id}) { id } }`);
  expect(archived.data).toEqual({ archiveChannel: { id: String(id) } });
  const again = await graphql(ts, member, `mutation { archiveChannel(id: ${id}) { id } }`);
  expect(graphqlError(again)).toEqual({ message: 'Channel is already deactivated', code: 'BAD_REQUEST' });
  const back = await graphql(ts, member, `mutation { updateChannel(id: ${id}, input: { isArchived: false }) { isArchived } }`);
  expect(back.data).toEqual({ updateChannel: { isArchived: false } });
});
