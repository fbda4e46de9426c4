import { setRealmGroupSetting } from '../../src/core/groups/realm-settings';
import { assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents } from '../helpers/events';
import { makeUser, TestServer } from '../helpers/server';
import { createGroup, getGroup, GroupsPeople, startGroupsServer } from './fixtures';

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
afterEach(async () => {
  await ts.server.deps.knex('realm_group_settings').delete();
});

const members = async (id: number) => (await getGroup(ts, id)).members as number[];
const subgroups = async (id: number) => (await getGroup(ts, id)).direct_subgroup_ids as number[];

describe('POST /user_groups/{id}/members', () => {
  test('adds and removes members, announcing each change', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.alice.id] });
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { add: [people.bob.id, people.admin.id] }));
    expect(await members(id)).toEqual([people.alice.id, people.bob.id, people.admin.id].sort((a, b) => a - b));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { delete: [people.bob.id] }));
    events.stop();
    expect(await members(id)).toEqual([people.alice.id, people.admin.id].sort((a, b) => a - b));
    expect(events.events('user_group')).toEqual([
      { type: 'user_group', op: 'add_members', group_id: id, user_ids: [people.bob.id, people.admin.id] },
      { type: 'user_group', op: 'remove_members', group_id: id, user_ids: [people.bob.id] },
    ]);
    const active: number[] = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id');
    expect([...events.deliveries[0].userIds].sort((a, b) => a - b)).toEqual(active.sort((a, b) => a - b));
  });

  test('add and delete in one request succeed or fail together', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.alice.id] });
    const events = captureEvents(ts);
    const res = await client(ts, people.alice).post(`/user_groups/${id}/members`, { add: [people.bob.id], delete: [people.admin.id] });
    events.stop();
    assertError(res, 'BAD_REQUEST', `There is no member '${people.admin.id}' in this user group`);
    expect(await members(id)).toEqual([people.alice.id]);
    expect(events.deliveries).toHaveLength(0);
  });

  test('errors', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.alice.id] });
    const gone = await makeUser(ts, 400);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const post = (params: Record<string, unknown>, groupId = id) => client(ts, people.alice).post(`/user_groups/${groupId}/members`, params);
    assertError(await post({}), 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".');
    assertError(
      await post({ add: [], delete: [] }),
      'BAD_REQUEST',
      'Nothing to do. Specify at least one of "add", "delete", "add_subgroups" or "delete_subgroups".',
    );
    assertError(await post({ add: [people.alice.id] }), 'BAD_REQUEST', `User ${people.alice.id} is already a member of this group`);
    assertError(await post({ add: [9999] }), 'BAD_REQUEST', 'Invalid user ID: 9999');
    assertError(await post({ add: [gone.id] }), 'BAD_REQUEST', `Invalid user ID: ${gone.id}`);
    assertError(await post({ delete: [9999] }), 'BAD_REQUEST', 'Invalid user ID: 9999');
    assertError(await post({ delete: [people.bob.id] }), 'BAD_REQUEST', `There is no member '${people.bob.id}' in this user group`);
    assertError(await post({ add: [people.bob.id] }, 123456), 'BAD_REQUEST', 'Invalid user group');
    assertError(await post({ add: 'x' }), 'INVALID_JSON', 'Argument "add" is not valid JSON.');
  });

  test('system groups follow roles only', async () => {
    for (const who of ['owner', 'admin', 'alice'] as const) {
      assertError(
        await client(ts, people[who]).post(`/user_groups/${sys['role:fullmembers']}/members`, { add: [people.guest.id] }),
        'BAD_REQUEST',
        'Insufficient permission',
      );
    }
  });

  test('who may add others: managers and can_add_members_group', async () => {
    const id = await createGroup(ts, people.alice, { members: [] });
    const add = (who: keyof typeof people, userId: number) => client(ts, people[who]).post(`/user_groups/${id}/members`, { add: [userId] });
    const drop = (userId: number) => client(ts, ts.owner).post(`/user_groups/${id}/members`, { delete: [userId] });
    assertSuccess(await add('alice', people.guest.id));
    assertSuccess(await add('owner', people.admin.id));
    assertError(await add('admin', people.moderator.id), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await add('guest', people.moderator.id), 'BAD_REQUEST', 'Not allowed for guest users');
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { can_add_members_group: { new: sys['role:moderators'] } }));
    assertSuccess(await add('moderator', people.moderator.id));
    assertSuccess(await drop(people.moderator.id));
    assertError(await add('bob', people.moderator.id), 'BAD_REQUEST', 'Insufficient permission');
    // The creator still manages the group, so may add without being in can_add_members_group.
    assertSuccess(await add('alice', people.moderator.id));
  });

  test('joining yourself needs can_join_group (or the right to add anyone)', async () => {
    const id = await createGroup(ts, people.alice, { members: [] });
    const join = (who: keyof typeof people) => client(ts, people[who]).post(`/user_groups/${id}/members`, { add: [people[who].id] });
    assertError(await join('bob'), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { can_join_group: { new: sys['role:members'] } }));
    assertSuccess(await join('bob'));
    assertError(await join('guest'), 'BAD_REQUEST', 'Not allowed for guest users');
    // Joining does not let you add someone else.
    assertError(await client(ts, people.moderator).post(`/user_groups/${id}/members`, { add: [people.admin.id] }), 'BAD_REQUEST', 'Insufficient permission');
  });

  test('leaving yourself needs can_leave_group (everyone by default)', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.bob.id, people.moderator.id] });
    const leave = (who: keyof typeof people) => client(ts, people[who]).post(`/user_groups/${id}/members`, { delete: [people[who].id] });
    assertSuccess(await leave('bob'));
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { can_leave_group: { new: sys['role:nobody'] } }));
    assertError(await leave('moderator'), 'BAD_REQUEST', 'Insufficient permission');
    // Removing others needs can_remove_members_group (nobody by default) or managing the group.
    assertError(await client(ts, people.moderator).post(`/user_groups/${id}/members`, { delete: [people.alice.id] }), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { can_remove_members_group: { new: sys['role:moderators'] } }));
    assertSuccess(await leave('moderator'));
  });

  test('can_manage_all_groups lets its members change any group', async () => {
    const id = await createGroup(ts, people.alice, { members: [] });
    await setRealmGroupSetting(ts.server.deps.knex, ts.server.deps.realmId, 'can_manage_all_groups', sys['role:administrators']);
    assertSuccess(await client(ts, people.admin).post(`/user_groups/${id}/members`, { add: [people.bob.id] }));
    assertError(
      await client(ts, people.moderator).post(`/user_groups/${id}/members`, { add: [people.moderator.id] }),
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });

  test('deactivated groups still accept member changes', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.alice.id] });
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { delete: [people.alice.id] }));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { add: [people.bob.id] }));
    expect(await members(id)).toEqual([people.bob.id]);
  });

  test('subgroups through add_subgroups and delete_subgroups', async () => {
    const id = await createGroup(ts, people.alice);
    const sub = await createGroup(ts, people.bob);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { add_subgroups: [sub, sys['role:administrators']] }));
    expect(await subgroups(id)).toEqual([sub, sys['role:administrators']].sort((a, b) => a - b));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/members`, { delete_subgroups: [sys['role:administrators']] }));
    expect(await subgroups(id)).toEqual([sub]);
  });
});

describe('POST /user_groups/{id}/subgroups', () => {
  test('adds and removes subgroups with events', async () => {
    const id = await createGroup(ts, people.alice);
    const a = await createGroup(ts, people.bob);
    const b = await createGroup(ts, people.bob);
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/subgroups`, { add: [a, b] }));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/subgroups`, { delete: [a] }));
    events.stop();
    expect(await subgroups(id)).toEqual([b]);
    expect(events.events('user_group')).toEqual([
      { type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [a, b] },
      { type: 'user_group', op: 'remove_subgroups', group_id: id, direct_subgroup_ids: [a] },
    ]);
  });

  test('errors', async () => {
    const id = await createGroup(ts, people.alice);
    const sub = await createGroup(ts, people.alice);
    const post = (params: Record<string, unknown>, groupId = id) => client(ts, people.alice).post(`/user_groups/${groupId}/subgroups`, params);
    assertError(await post({}), 'BAD_REQUEST', 'Nothing to do. Specify at least one of "add" or "delete".');
    assertError(await post({ delete: [sub] }), 'BAD_REQUEST', `User group ${sub} is not a subgroup of this group.`);
    assertSuccess(await post({ add: [sub] }));
    assertError(await post({ add: [sub] }), 'BAD_REQUEST', `User group ${sub} is already a subgroup of this group.`);
    assertError(await post({ add: [123456] }), 'BAD_REQUEST', 'Invalid user group ID: 123456');
    assertError(await post({ add: [sub] }, 123456), 'BAD_REQUEST', 'Invalid user group');
    assertError(await post({ add: [id] }), 'BAD_REQUEST', `User group ${id} is already a subgroup of one of the passed subgroups.`);
    assertError(await client(ts, people.guest).post(`/user_groups/${id}/subgroups`, { add: [sub] }), 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(await client(ts, ts.owner).post(`/user_groups/${sys['role:members']}/subgroups`, { add: [sub] }), 'BAD_REQUEST', 'Insufficient permission');
  });

  test('a cycle through several groups is refused', async () => {
    const top = await createGroup(ts, people.alice);
    const middle = await createGroup(ts, people.alice);
    const bottom = await createGroup(ts, people.alice);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${top}/subgroups`, { add: [middle] }));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${middle}/subgroups`, { add: [bottom] }));
    assertError(
      await client(ts, people.alice).post(`/user_groups/${bottom}/subgroups`, { add: [top] }),
      'BAD_REQUEST',
      `User group ${bottom} is already a subgroup of one of the passed subgroups.`,
    );
    expect(await subgroups(bottom)).toEqual([]);
  });

  test('deactivated groups accept subgroup changes but cannot become subgroups (feature level 391)', async () => {
    const retired = await createGroup(ts, people.alice);
    const sub = await createGroup(ts, people.alice);
    const other = await createGroup(ts, people.alice);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${retired}/deactivate`));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${retired}/subgroups`, { add: [sub] }));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${retired}/subgroups`, { delete: [sub] }));
    assertError(await client(ts, people.alice).post(`/user_groups/${other}/subgroups`, { add: [retired] }), 'BAD_REQUEST', 'User group is deactivated.');
  });

  test('adding needs can_add_members_group, removing needs can_manage_group', async () => {
    const id = await createGroup(ts, people.alice, { can_add_members_group: sys['role:moderators'] });
    const sub = await createGroup(ts, people.alice);
    assertError(await client(ts, people.bob).post(`/user_groups/${id}/subgroups`, { add: [sub] }), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await client(ts, people.moderator).post(`/user_groups/${id}/subgroups`, { add: [sub] }));
    assertError(await client(ts, people.moderator).post(`/user_groups/${id}/subgroups`, { delete: [sub] }), 'BAD_REQUEST', 'Insufficient permission');
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/subgroups`, { delete: [sub] }));
  });
});

describe('role changes move users between system groups', () => {
  test('with remove_members then add_members events to every active user', async () => {
    const user = await makeUser(ts, 400);
    const events = captureEvents(ts);
    assertSuccess(await client(ts, ts.owner).patch(`/users/${user.id}`, { role: 300 }));
    assertSuccess(await client(ts, ts.owner).patch(`/users/${user.id}`, { role: 600 }));
    events.stop();
    expect(events.events('user_group')).toEqual([
      { type: 'user_group', op: 'remove_members', group_id: sys['role:fullmembers'], user_ids: [user.id] },
      { type: 'user_group', op: 'remove_members', group_id: sys['role:members'], user_ids: [user.id] },
      { type: 'user_group', op: 'add_members', group_id: sys['role:moderators'], user_ids: [user.id] },
      { type: 'user_group', op: 'remove_members', group_id: sys['role:moderators'], user_ids: [user.id] },
      { type: 'user_group', op: 'add_members', group_id: sys['role:everyone'], user_ids: [user.id] },
    ]);
    // The realm_user update comes first, then the group moves.
    expect(events.deliveries[0].event).toMatchObject({ type: 'realm_user', op: 'update', person: { user_id: user.id, role: 300 } });
    const active: number[] = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id');
    for (const d of events.of('user_group')) expect([...d.userIds].sort((a, b) => a - b)).toEqual(active.sort((a, b) => a - b));
  });

  test('a new account joins its role’s groups with add_members events', async () => {
    const events = captureEvents(ts);
    const user = await makeUser(ts, 400);
    events.stop();
    expect(events.events('user_group').map((e) => [e.op, e.group_id, e.user_ids])).toEqual(
      expect.arrayContaining([
        ['add_members', sys['role:members'], [user.id]],
        ['add_members', sys['role:fullmembers'], [user.id]],
      ]),
    );
    expect(events.events('user_group')).toHaveLength(2);
    expect(events.deliveries[0].event).toMatchObject({ type: 'realm_user', op: 'add' });
  });
});
