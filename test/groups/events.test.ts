import { setRealmGroupSetting } from '../../src/core/groups/realm-settings';
import { assertSuccess, client } from '../helpers/api';
import { verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, TestServer } from '../helpers/server';
import { createGroup, GroupsPeople, startGroupsServer } from './fixtures';

// Groups are organization-wide: administrators, members and guests all follow them. Clients that
// declare include_deactivated_groups keep deactivated groups; the others see them disappear.
let ts: TestServer;
let people: GroupsPeople;
let sys: Record<string, number>;

beforeAll(async () => {
  ({ ts, people, sys } = await startGroupsServer());
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

describe.each([false, true])('with include_deactivated_groups %s', (includeDeactivated) => {
  const options = { capabilities: { include_deactivated_groups: includeDeactivated } };

  /** Runs the action watched by an administrator, a member and a guest; all of them hear the same. */
  const watch = (action: () => Promise<unknown>, { silent = false } = {}) =>
    verifySharedAction(ts, [people.admin, people.alice, people.guest], action, options, { silent });

  test('creating groups: empty, with members and subgroups, with anonymous settings', async () => {
    const [added] = await watch(() =>
      client(ts, people.alice).post('/user_groups/create', { name: `empty ${includeDeactivated}`, description: '', members: [] }),
    );
    expect(added).toMatchObject({ type: 'user_group', op: 'add', group: { name: `empty ${includeDeactivated}`, members: [], direct_subgroup_ids: [] } });
    const sub = await createGroup(ts, people.admin, { members: [people.bob.id] });
    await watch(() =>
      client(ts, people.admin).post('/user_groups/create', {
        name: `full ${includeDeactivated}`,
        description: 'With **people**',
        members: [people.alice.id, people.guest.id],
        subgroups: [sub, sys['role:moderators']],
        can_mention_group: { direct_members: [people.bob.id], direct_subgroups: [sub] },
        can_manage_group: sys['role:administrators'],
      }),
    );
  });

  test('renaming, describing, and changing each kind of setting', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.alice.id] });
    expect(await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { name: `renamed ${includeDeactivated}` }))).toEqual([
      { type: 'user_group', op: 'update', group_id: id, data: { name: `renamed ${includeDeactivated}` } },
    ]);
    await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { description: 'Now described' }));
    await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { name: `both ${includeDeactivated}`, description: 'And again' }));
    await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { can_mention_group: { new: sys['role:moderators'] } }));
    await watch(() =>
      client(ts, people.alice).patch(`/user_groups/${id}`, {
        can_join_group: { new: { direct_members: [people.bob.id], direct_subgroups: [sys['role:moderators']] } },
        can_leave_group: { new: sys['role:members'] },
      }),
    );
    await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { can_join_group: { new: { direct_members: [], direct_subgroups: [] } } }));
    for (const setting of ['can_add_members_group', 'can_manage_group', 'can_remove_members_group']) {
      await watch(() =>
        client(ts, people.owner).patch(`/user_groups/${id}`, { [setting]: { new: { direct_members: [people.bob.id], direct_subgroups: [] } } }),
      );
    }
  });

  test('adding and removing members, directly and through subgroups', async () => {
    const id = await createGroup(ts, people.admin);
    const sub = await createGroup(ts, people.admin, { members: [people.bob.id] });
    expect(await watch(() => client(ts, people.admin).post(`/user_groups/${id}/members`, { add: [people.alice.id, people.guest.id] }))).toEqual([
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [people.alice.id, people.guest.id] },
    ]);
    await watch(() => client(ts, people.admin).post(`/user_groups/${id}/members`, { delete: [people.guest.id] }));
    await watch(() => client(ts, people.admin).post(`/user_groups/${id}/members`, { add: [people.bob.id], delete: [people.alice.id] }));
    await watch(() => client(ts, people.admin).post(`/user_groups/${id}/members`, { add_subgroups: [sub] }));
    await watch(() => client(ts, people.admin).post(`/user_groups/${id}/members`, { delete_subgroups: [sub] }));
    expect(await watch(() => client(ts, people.admin).post(`/user_groups/${id}/subgroups`, { add: [sub, sys['role:moderators']] }))).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub, sys['role:moderators']] },
    ]);
    await watch(() => client(ts, people.admin).post(`/user_groups/${id}/subgroups`, { delete: [sys['role:moderators']] }));
    await watch(() => client(ts, people.admin).post(`/user_groups/${id}/subgroups`, { add: [sys['role:fullmembers']], delete: [sub] }));
  });

  test('a member joining and leaving a group themselves', async () => {
    const id = await createGroup(ts, people.admin, { can_join_group: sys['role:members'], can_leave_group: sys['role:members'] });
    await watch(() => client(ts, people.alice).post(`/user_groups/${id}/members`, { add: [people.alice.id] }));
    await watch(() => client(ts, people.alice).post(`/user_groups/${id}/members`, { delete: [people.alice.id] }));
  });

  test('deactivating and reactivating a user who is a member and is named in settings', async () => {
    const person = await makeUser(ts, 400);
    const id = await createGroup(ts, people.admin, {
      members: [person.id, people.bob.id],
      can_mention_group: { direct_members: [person.id, people.bob.id], direct_subgroups: [] },
    });
    const parent = await createGroup(ts, people.admin, { subgroups: [id], can_join_group: { direct_members: [person.id], direct_subgroups: [id] } });
    expect(parent).toEqual(expect.any(Number));
    await watch(() => client(ts, people.owner).delete(`/users/${person.id}`));
    await watch(() => client(ts, people.owner).post(`/users/${person.id}/reactivate`));
    // Again, with the group that names the user deactivated meanwhile.
    assertSuccess(await client(ts, people.owner).post(`/user_groups/${parent}/deactivate`));
    await watch(() => client(ts, people.owner).delete(`/users/${person.id}`));
    await watch(() => client(ts, people.owner).post(`/users/${person.id}/reactivate`));
  });

  test('deactivating and reactivating a user named in an organization permission', async () => {
    const person = await makeUser(ts, 400);
    await setRealmGroupSetting(ts.server.deps.knex, ts.server.deps.realmId, 'can_create_groups', {
      direct_members: [person.id],
      direct_subgroups: [sys['role:administrators']],
    });
    try {
      await watch(() => client(ts, people.owner).delete(`/users/${person.id}`));
      await watch(() => client(ts, people.owner).post(`/users/${person.id}/reactivate`));
    } finally {
      await ts.server.deps.knex('realm_group_settings').where({ name: 'can_create_groups' }).delete();
    }
  });

  test('deactivating and reactivating a group, and renaming it while deactivated', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.alice.id] });
    const deactivated = await watch(() => client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
    expect(deactivated).toEqual(
      includeDeactivated
        ? [{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } }]
        : [{ type: 'user_group', op: 'remove', group_id: id }],
    );
    // Clients without the capability do not hear of a deactivated group's changes.
    await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { name: `dormant ${includeDeactivated}` }), { silent: !includeDeactivated });
    await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { description: 'Asleep' }), { silent: !includeDeactivated });
    await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { can_mention_group: { new: sys['role:members'] } }), {
      silent: !includeDeactivated,
    });
    const reactivated = await watch(() => client(ts, people.alice).patch(`/user_groups/${id}`, { deactivated: false }));
    expect(reactivated).toEqual([
      includeDeactivated
        ? { type: 'user_group', op: 'update', group_id: id, data: { deactivated: false } }
        : { type: 'user_group', op: 'add', group: expect.objectContaining({ id, deactivated: false, name: `dormant ${includeDeactivated}` }) },
    ]);
  });
});
