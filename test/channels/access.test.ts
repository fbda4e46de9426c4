import { assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { ApiError } from '../../src/errors';
import { User } from '../../src/core/users/model';
import {
  accessChannelForPost,
  accessChannelForRead,
  canAddSubscribers,
  canAdministerChannel,
  findChannel,
  hasContentAccess,
  hasMetadataAccess,
  loadViewer,
} from '../../src/core/channels/access';
import { channelHasOnlyEmptyTopicMessages } from '../../src/core/channels/message-hooks';
import { createChannel } from './helpers';

/** The named access checks other features (messages) build on, called directly. */
let ts: TestServer;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let guest: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  other = await makeUser(ts, 400);
  admin = await makeUser(ts, 200);
  guest = await makeUser(ts, 600);
  groups = await systemGroups(ts);
}, 120_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

const viewerOf = async (who: TestUser) => loadViewer(ts.server.deps.knex, await User.query(ts.server.deps.knex).findById(who.id).throwIfNotFound());
const channel = async (id: number) => (await findChannel(ts.server.deps.knex, ts.server.deps.realmId, id))!;

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error.message;
    throw error;
  }
  return 'allowed';
}

test('posting: public channels for members, private ones for subscribers, never to archived ones', async () => {
  const open = await createChannel(ts, member, 'post-open');
  const closed = await createChannel(ts, member, 'post-closed', { invite_only: true });
  const db = ts.server.deps.knex;
  expect(await refusal(accessChannelForPost(db, await viewerOf(other), await channel(open)))).toBe('allowed');
  expect(await refusal(accessChannelForPost(db, await viewerOf(guest), await channel(open)))).toBe("Not authorized to send to channel 'post-open'");
  expect(await refusal(accessChannelForPost(db, await viewerOf(member), await channel(closed)))).toBe('allowed');
  expect(await refusal(accessChannelForPost(db, await viewerOf(admin), await channel(closed)))).toBe("Not authorized to send to channel 'post-closed'");
  assertSuccess(await client(ts, member).delete(`/streams/${open}`));
  expect(await refusal(accessChannelForPost(db, await viewerOf(member), await channel(open)))).toBe("Not authorized to send to channel 'post-open'");
});

test('posting: can_send_message_group comes first', async () => {
  const id = await createChannel(ts, member, 'announcements', { can_send_message_group: groups['role:administrators'] });
  const db = ts.server.deps.knex;
  expect(await refusal(accessChannelForPost(db, await viewerOf(member), await channel(id)))).toBe('You do not have permission to post in this channel.');
  expect(await refusal(accessChannelForPost(db, await viewerOf(admin), await channel(id)))).toBe('allowed');
});

test('posting to a private channel with shared history through can_subscribe_group', async () => {
  const id = await createChannel(ts, member, 'shared-history', {
    invite_only: true,
    history_public_to_subscribers: true,
    can_subscribe_group: { direct_members: [other.id], direct_subgroups: [] },
  });
  expect(await refusal(accessChannelForPost(ts.server.deps.knex, await viewerOf(other), await channel(id)))).toBe('allowed');
});

test('reading: content access, with the same answer for hidden and missing channels', async () => {
  const closed = await createChannel(ts, member, 'read-closed', { invite_only: true });
  const db = ts.server.deps.knex;
  expect((await accessChannelForRead(db, await viewerOf(member), closed)).name).toBe('read-closed');
  expect(await refusal(accessChannelForRead(db, await viewerOf(admin), closed))).toBe('Invalid channel ID');
  expect(await refusal(accessChannelForRead(db, await viewerOf(other), 99999))).toBe('Invalid channel ID');
});

test('metadata, content and administration by role', async () => {
  const closed = await createChannel(ts, member, 'roles-closed', { invite_only: true });
  const open = await createChannel(ts, member, 'roles-open');
  const c = await channel(closed);
  const o = await channel(open);
  const [m, x, a, g] = await Promise.all([viewerOf(member), viewerOf(other), viewerOf(admin), viewerOf(guest)]);
  expect([hasMetadataAccess(m, c), hasMetadataAccess(x, c), hasMetadataAccess(a, c), hasMetadataAccess(g, c)]).toEqual([true, false, true, false]);
  expect([hasContentAccess(m, c), hasContentAccess(x, c), hasContentAccess(a, c), hasContentAccess(g, c)]).toEqual([true, false, false, false]);
  expect([hasContentAccess(x, o), hasContentAccess(g, o)]).toEqual([true, false]);
  expect([canAdministerChannel(m, o), canAdministerChannel(x, o), canAdministerChannel(a, c)]).toEqual([true, false, true]);
});

test('adding subscribers without the organization-wide permission needs a channel permission', async () => {
  const id = await createChannel(ts, member, 'adders', { can_add_subscribers_group: { direct_members: [other.id], direct_subgroups: [] } });
  const s = await channel(id);
  const third = await makeUser(ts, 400);
  expect(canAddSubscribers(await viewerOf(other), s, false)).toBe(true);
  expect(canAddSubscribers(await viewerOf(member), s, false)).toBe(true);
  expect(canAddSubscribers(await viewerOf(third), s, false)).toBe(false);
  expect(canAddSubscribers(await viewerOf(third), s, true)).toBe(true);
  expect(canAddSubscribers(await viewerOf(guest), s, true)).toBe(false);
});

test('a channel without messages counts as having only empty-topic messages', async () => {
  const id = await createChannel(ts, member, 'quiet');
  expect(await channelHasOnlyEmptyTopicMessages(ts.server.deps.knex, ts.server.deps.realmId, id)).toBe(true);
});
