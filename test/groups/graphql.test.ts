import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { TestServer } from '../helpers/server';
import { getGroup, GroupsPeople, startGroupsServer } from './fixtures';

// Each suite starts a server and hashes several passwords; a loaded machine needs the headroom.
jest.setTimeout(120_000);

let ts: TestServer;
let people: GroupsPeople;
let sys: Record<string, number>;
beforeAll(async () => {
  ({ ts, people, sys } = await startGroupsServer());
});
afterAll(async () => {
  await ts.close();
});

const GROUP =
  'id name description memberIds directSubgroupIds creatorId isSystemGroup deactivated canManageGroup { groupId directMembers directSubgroups } canMentionGroup { groupId }';

test('create, read, update, change members and subgroups, deactivate', async () => {
  const created = await graphql(ts, people.alice, `mutation($input: CreateUserGroupInput!) { createUserGroup(input: $input) { ${GROUP} } }`, {
    input: { name: 'gql', description: 'made in GraphQL', members: [people.alice.id], canMentionGroup: { groupId: sys['role:moderators'] } },
  });
  expect(created.errors).toBeUndefined();
  const group = { ...created.data!.createUserGroup, id: Number(created.data!.createUserGroup.id) };
  expect(group).toMatchObject({
    name: 'gql',
    description: 'made in GraphQL',
    memberIds: [people.alice.id],
    creatorId: people.alice.id,
    isSystemGroup: false,
    deactivated: false,
    canManageGroup: { groupId: null, directMembers: [people.alice.id], directSubgroups: [] },
    canMentionGroup: { groupId: sys['role:moderators'] },
  });
  // The REST view of the same group agrees.
  expect((await getGroup(ts, group.id)).can_mention_group).toBe(sys['role:moderators']);

  const listed = await graphql(ts, people.alice, '{ userGroups { id name } }');
  expect(listed.data!.userGroups.map((g: { id: string }) => Number(g.id))).toContain(group.id);

  const updated = await graphql(
    ts,
    people.alice,
    `mutation($id: Int!, $input: UpdateUserGroupInput!) { updateUserGroup(id: $id, input: $input) { ${GROUP} } }`,
    {
      id: group.id,
      input: {
        name: 'gql renamed',
        canMentionGroup: { newValue: { directMembers: [people.bob.id], directSubgroups: [] }, oldValue: { groupId: sys['role:moderators'] } },
      },
    },
  );
  expect(updated.errors).toBeUndefined();
  expect(updated.data!.updateUserGroup).toMatchObject({ name: 'gql renamed', canMentionGroup: { groupId: null } });

  const members = await graphql(ts, people.alice, 'mutation($id: Int!, $add: [Int!]) { updateUserGroupMembers(id: $id, add: $add) { memberIds } }', {
    id: group.id,
    add: [people.bob.id],
  });
  expect(members.data!.updateUserGroupMembers.memberIds).toEqual([people.alice.id, people.bob.id].sort((a, b) => a - b));

  const subgroups = await graphql(
    ts,
    people.alice,
    'mutation($id: Int!, $add: [Int!]) { updateUserGroupSubgroups(id: $id, add: $add) { directSubgroupIds } }',
    {
      id: group.id,
      add: [sys['role:administrators']],
    },
  );
  expect(subgroups.data!.updateUserGroupSubgroups.directSubgroupIds).toEqual([sys['role:administrators']]);

  const reads = await graphql(
    ts,
    people.alice,
    `query($id: Int!, $owner: Int!) {
      all: userGroupMembers(id: $id) direct: userGroupMembers(id: $id, directMemberOnly: true)
      subgroups: userGroupSubgroups(id: $id)
      owner: isUserGroupMember(groupId: $id, userId: $owner) ownerDirect: isUserGroupMember(groupId: $id, userId: $owner, directMemberOnly: true)
    }`,
    { id: group.id, owner: ts.owner.id },
  );
  expect(reads.data).toEqual({
    all: [ts.owner.id, people.alice.id, people.bob.id, people.admin.id].sort((a, b) => a - b),
    direct: [people.alice.id, people.bob.id].sort((a, b) => a - b),
    subgroups: [sys['role:owners'], sys['role:administrators']].sort((a, b) => a - b),
    owner: true,
    ownerDirect: false,
  });

  const deactivated = await graphql(ts, people.alice, 'mutation($id: Int!) { deactivateUserGroup(id: $id) { deactivated } }', { id: group.id });
  expect(deactivated.data!.deactivateUserGroup.deactivated).toBe(true);
  assertSuccess(await client(ts, people.alice).get('/user_groups'));
});

test('errors carry the Zulip code and message', async () => {
  const guest = await graphql(ts, people.guest, '{ userGroups { id } }');
  expect(graphqlError(guest)).toEqual({ code: 'BAD_REQUEST', message: 'Not allowed for guest users' });
  const system = await graphql(ts, people.admin, 'mutation($id: Int!) { deactivateUserGroup(id: $id) { id } }', { id: sys['role:members'] });
  expect(graphqlError(system)).toEqual({ code: 'BAD_REQUEST', message: 'Insufficient permission' });
  const stale = await graphql(ts, people.alice, 'mutation($input: CreateUserGroupInput!) { createUserGroup(input: $input) { id } }', {
    input: { name: 'role:x', description: '', members: [] },
  });
  expect(graphqlError(stale)).toEqual({ code: 'BAD_REQUEST', message: "User group name cannot start with 'role:'." });
  const anonymous = await graphql(ts, null, '{ userGroups { id } }');
  expect(graphqlError(anonymous).code).toBe('UNAUTHORIZED');
});
