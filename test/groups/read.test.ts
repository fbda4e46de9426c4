import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, TestServer } from '../helpers/server';
import { createGroup, GroupsPeople, startGroupsServer } from './fixtures';

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

describe('GET /user_groups', () => {
  test('lists system groups in Zulip’s structure and leaves deactivated groups out by default', async () => {
    const active = await createGroup(ts, people.alice);
    const retired = await createGroup(ts, people.alice);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${retired}/deactivate`));
    const groups = assertSuccess(await client(ts, people.alice).get('/user_groups')).user_groups;
    const byName = (name: string) => groups.find((g: { name: string }) => g.name === name);
    expect(groups.map((g: { id: number }) => g.id)).toEqual([...groups.map((g: { id: number }) => g.id)].sort((a, b) => a - b));
    expect(groups.some((g: { id: number }) => g.id === active)).toBe(true);
    expect(groups.some((g: { id: number }) => g.id === retired)).toBe(false);
    expect(byName('role:owners')).toMatchObject({
      members: [ts.owner.id],
      direct_subgroup_ids: [],
      is_system_group: true,
      creator_id: null,
      date_created: null,
    });
    expect(byName('role:administrators')).toMatchObject({ members: [people.admin.id], direct_subgroup_ids: [sys['role:owners']] });
    expect(byName('role:moderators')).toMatchObject({ members: [people.moderator.id], direct_subgroup_ids: [sys['role:administrators']] });
    expect(byName('role:fullmembers')).toMatchObject({ direct_subgroup_ids: [sys['role:moderators']] });
    expect(byName('role:fullmembers').members).toEqual([people.alice.id, people.bob.id].sort((a, b) => a - b));
    expect(byName('role:members')).toMatchObject({ direct_subgroup_ids: [sys['role:fullmembers']] });
    expect(byName('role:everyone')).toMatchObject({ members: [people.guest.id], direct_subgroup_ids: [sys['role:members']] });
    expect(byName('role:internet')).toMatchObject({ members: [], direct_subgroup_ids: [sys['role:everyone']] });
    // System groups hold "nobody" for every permission.
    for (const setting of ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group']) {
      expect(byName('role:members')[setting]).toBe(sys['role:nobody']);
    }
    const all = assertSuccess(await client(ts, people.alice).get('/user_groups', { include_deactivated_groups: true })).user_groups;
    expect(all.find((g: { id: number }) => g.id === retired)).toMatchObject({ deactivated: true });
    // The parameter's name before feature level 294.
    const legacy = assertSuccess(await client(ts, people.alice).get('/user_groups', { allow_deactivated: true })).user_groups;
    expect(legacy.some((g: { id: number }) => g.id === retired)).toBe(true);
  });

  test('members leave the lists when deactivated', async () => {
    const leaving = await makeUser(ts, 400);
    const id = await createGroup(ts, people.alice, { members: [leaving.id, people.alice.id] });
    assertSuccess(await client(ts, ts.owner).delete(`/users/${leaving.id}`));
    const group = assertSuccess(await client(ts, people.alice).get('/user_groups')).user_groups.find((g: { id: number }) => g.id === id);
    expect(group.members).toEqual([people.alice.id]);
  });

  test.each(['owner', 'admin', 'moderator', 'alice'] as const)('%s may list groups', async (role) => {
    assertSuccess(await client(ts, people[role]).get('/user_groups'));
  });

  test('guests may not read groups', async () => {
    const id = await createGroup(ts, people.alice);
    assertError(await client(ts, people.guest).get('/user_groups'), 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(await client(ts, people.guest).get(`/user_groups/${id}/members`), 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(await client(ts, people.guest).get(`/user_groups/${id}/subgroups`), 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(await client(ts, people.guest).get(`/user_groups/${id}/members/${people.alice.id}`), 'BAD_REQUEST', 'Not allowed for guest users');
  });
});

describe('GET /user_groups/{id}/members and /subgroups', () => {
  test('members are recursive unless direct_member_only', async () => {
    const moderators = sys['role:moderators'];
    const all = assertSuccess(await client(ts, people.alice).get(`/user_groups/${moderators}/members`)).members;
    expect(all).toEqual([ts.owner.id, people.admin.id, people.moderator.id].sort((a, b) => a - b));
    const direct = assertSuccess(await client(ts, people.alice).get(`/user_groups/${moderators}/members`, { direct_member_only: true })).members;
    expect(direct).toEqual([people.moderator.id]);
  });

  test('subgroups are recursive unless direct_subgroup_only', async () => {
    const moderators = sys['role:moderators'];
    const all = assertSuccess(await client(ts, people.alice).get(`/user_groups/${moderators}/subgroups`)).subgroups;
    expect(all).toEqual([sys['role:owners'], sys['role:administrators']].sort((a, b) => a - b));
    const direct = assertSuccess(await client(ts, people.alice).get(`/user_groups/${moderators}/subgroups`, { direct_subgroup_only: true })).subgroups;
    expect(direct).toEqual([sys['role:administrators']]);
  });

  test('a user group through a chain of subgroups', async () => {
    const leaf = await createGroup(ts, people.alice, { members: [people.bob.id] });
    const middle = await createGroup(ts, people.alice, { members: [], subgroups: [leaf] });
    const top = await createGroup(ts, people.alice, { members: [people.alice.id], subgroups: [middle] });
    expect(assertSuccess(await client(ts, people.alice).get(`/user_groups/${top}/members`)).members).toEqual(
      [people.alice.id, people.bob.id].sort((a, b) => a - b),
    );
    expect(assertSuccess(await client(ts, people.alice).get(`/user_groups/${top}/subgroups`)).subgroups).toEqual([leaf, middle].sort((a, b) => a - b));
  });

  test('unknown and deactivated groups', async () => {
    assertError(await client(ts, people.alice).get('/user_groups/123456/members'), 'BAD_REQUEST', 'Invalid user group');
    assertError(await client(ts, people.alice).get('/user_groups/123456/subgroups'), 'BAD_REQUEST', 'Invalid user group');
    const retired = await createGroup(ts, people.alice);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${retired}/deactivate`));
    assertError(await client(ts, people.alice).get(`/user_groups/${retired}/members`), 'BAD_REQUEST', 'User group is deactivated.');
  });
});

describe('GET /user_groups/{id}/members/{user_id}', () => {
  test('answers through subgroups unless direct_member_only', async () => {
    const admins = sys['role:administrators'];
    const check = async (userId: number, params = {}) =>
      assertSuccess(await client(ts, people.alice).get(`/user_groups/${admins}/members/${userId}`, params)).is_user_group_member;
    expect(await check(people.admin.id)).toBe(true);
    expect(await check(ts.owner.id)).toBe(true);
    expect(await check(ts.owner.id, { direct_member_only: true })).toBe(false);
    expect(await check(people.alice.id)).toBe(false);
  });

  test('errors', async () => {
    const admins = sys['role:administrators'];
    assertError(await client(ts, people.alice).get(`/user_groups/${admins}/members/9999`), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, people.alice).get(`/user_groups/123456/members/${people.admin.id}`), 'BAD_REQUEST', 'Invalid user group');
    const gone = await makeUser(ts, 200);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    assertError(await client(ts, people.alice).get(`/user_groups/${admins}/members/${gone.id}`), 'BAD_REQUEST', 'User is deactivated');
  });
});
