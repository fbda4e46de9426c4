import { setRealmGroupSetting } from '../../src/core/groups/realm-settings';
import { userGroupEventForClient } from '../../src/core/groups/events';
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

const manageAll = (value: number | { direct_members: number[]; direct_subgroups: number[] }) =>
  setRealmGroupSetting(ts.server.deps.knex, ts.server.deps.realmId, 'can_manage_all_groups', value);

describe('PATCH /user_groups/{id}', () => {
  test('renames and redescribes, one event per change', async () => {
    const id = await createGroup(ts, people.alice, { name: 'support', description: 'Support team' });
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { name: 'help', description: 'Troubleshooting team' }));
    events.stop();
    expect(await getGroup(ts, id)).toMatchObject({ name: 'help', description: 'Troubleshooting team' });
    expect(events.events('user_group')).toEqual([
      { type: 'user_group', op: 'update', group_id: id, data: { name: 'help' }, deactivated: false },
      { type: 'user_group', op: 'update', group_id: id, data: { description: 'Troubleshooting team' } },
    ]);
  });

  test('unchanged values change nothing and say nothing', async () => {
    const id = await createGroup(ts, people.alice, { name: 'steady', description: 'same' });
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { name: 'steady', description: 'same' }));
    events.stop();
    expect(events.deliveries).toHaveLength(0);
  });

  test('errors', async () => {
    const id = await createGroup(ts, people.alice, { name: 'editable' });
    await createGroup(ts, people.alice, { name: 'taken' });
    const patch = (params: Record<string, unknown>, groupId = id) => client(ts, people.alice).patch(`/user_groups/${groupId}`, params);
    assertError(await patch({}), 'BAD_REQUEST', 'No new data supplied');
    assertError(await patch({ name: 'x' }, 123456), 'BAD_REQUEST', 'Invalid user group');
    assertError(await patch({ name: 'taken' }), 'BAD_REQUEST', "User group 'taken' already exists.");
    assertError(await patch({ name: '' }), 'BAD_REQUEST', "User group name can't be empty!");
    assertError(await patch({ name: 'a'.repeat(101) }), 'BAD_REQUEST', 'User group name cannot exceed 100 characters.');
    assertError(await patch({ name: 'role:x' }), 'BAD_REQUEST', "User group name cannot start with 'role:'.");
    assertError(await patch({ name: 'x' }, sys['role:members']), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, people.guest).patch(`/user_groups/${id}`, { name: 'x' }), 'BAD_REQUEST', 'Not allowed for guest users');
  });

  test('who may edit: the group’s managers and can_manage_all_groups (owners by default)', async () => {
    const id = await createGroup(ts, people.alice);
    const rename = (who: keyof typeof people, name: string) => client(ts, people[who]).patch(`/user_groups/${id}`, { name });
    assertSuccess(await rename('alice', 'by creator'));
    assertSuccess(await rename('owner', 'by owner'));
    assertError(await rename('admin', 'by admin'), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await rename('moderator', 'by moderator'), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await rename('bob', 'by other'), 'BAD_REQUEST', 'Insufficient permission');
    await manageAll(sys['role:moderators']);
    assertSuccess(await rename('admin', 'by admin'));
    assertSuccess(await rename('moderator', 'by moderator'));
    assertError(await rename('bob', 'by other'), 'BAD_REQUEST', 'Insufficient permission');
    await manageAll(sys['role:members']);
    assertSuccess(await rename('bob', 'by other'));
    assertError(await rename('guest', 'by guest'), 'BAD_REQUEST', 'Not allowed for guest users');
  });

  test('members of a subgroup of can_manage_group may edit', async () => {
    const leaders = await createGroup(ts, people.bob, { members: [people.bob.id] });
    const id = await createGroup(ts, people.alice, { can_manage_group: { direct_members: [], direct_subgroups: [leaders] } });
    assertSuccess(await client(ts, people.bob).patch(`/user_groups/${id}`, { description: 'edited by a leader' }));
    assertError(await client(ts, people.alice).patch(`/user_groups/${id}`, { description: 'creator lost it' }), 'BAD_REQUEST', 'Insufficient permission');
  });

  describe('permission settings', () => {
    test('take {new, old}, in canonical form, with one event each', async () => {
      const id = await createGroup(ts, people.alice);
      const events = captureEvents(ts);
      assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { can_mention_group: { new: sys['role:moderators'] } }));
      expect((await getGroup(ts, id)).can_mention_group).toBe(sys['role:moderators']);
      assertSuccess(
        await client(ts, people.alice).patch(`/user_groups/${id}`, {
          can_mention_group: { new: { direct_members: [people.bob.id], direct_subgroups: [sys['role:moderators']] }, old: sys['role:moderators'] },
        }),
      );
      assertSuccess(
        await client(ts, people.alice).patch(`/user_groups/${id}`, {
          can_mention_group: { new: { direct_members: [], direct_subgroups: [] } },
        }),
      );
      events.stop();
      expect(events.events('user_group').map((e) => e.data)).toEqual([
        { can_mention_group: sys['role:moderators'] },
        { can_mention_group: { direct_members: [people.bob.id], direct_subgroups: [sys['role:moderators']] } },
        { can_mention_group: sys['role:nobody'] },
      ]);
    });

    test('a stale old value is refused', async () => {
      const id = await createGroup(ts, people.alice);
      const res = await client(ts, people.alice).patch(`/user_groups/${id}`, {
        can_mention_group: { new: sys['role:moderators'], old: sys['role:administrators'] },
      });
      assertError(res, 'EXPECTATION_MISMATCH', "'old' value does not match the expected value.");
      // The old value may be given in either form.
      assertSuccess(
        await client(ts, people.alice).patch(`/user_groups/${id}`, {
          can_mention_group: { new: sys['role:moderators'], old: { direct_members: [], direct_subgroups: [sys['role:everyone']] } },
        }),
      );
    });

    test('setting the current value is a no-op without an event', async () => {
      const id = await createGroup(ts, people.alice);
      const events = captureEvents(ts);
      assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { can_join_group: { new: sys['role:nobody'] } }));
      events.stop();
      expect(events.deliveries).toHaveLength(0);
    });

    test('malformed and invalid values', async () => {
      const id = await createGroup(ts, people.alice);
      const patch = (params: Record<string, unknown>) => client(ts, people.alice).patch(`/user_groups/${id}`, params);
      assertError(await patch({ can_manage_group: sys['role:moderators'] }), 'BAD_REQUEST', 'can_manage_group does not have the expected format');
      assertError(await patch({ can_manage_group: { old: 1 } }), 'BAD_REQUEST', 'can_manage_group does not have the expected format');
      assertError(await patch({ can_manage_group: { new: 123456 } }), 'BAD_REQUEST', 'Invalid user group');
      assertError(
        await patch({ can_manage_group: { new: sys['role:everyone'] } }),
        'BAD_REQUEST',
        "'can_manage_group' setting cannot be set to 'role:everyone' group.",
      );
      assertError(
        await patch({ can_leave_group: { new: sys['role:internet'] } }),
        'BAD_REQUEST',
        "'can_leave_group' setting cannot be set to 'role:internet' group.",
      );
      assertError(await patch({ can_join_group: { new: { direct_members: [1111], direct_subgroups: [] } } }), 'BAD_REQUEST', 'Invalid user ID: 1111');
    });

    test('a deactivated group’s settings can still be edited', async () => {
      const id = await createGroup(ts, people.alice);
      assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
      assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { can_mention_group: { new: sys['role:members'] } }));
      expect((await getGroup(ts, id)).can_mention_group).toBe(sys['role:members']);
    });
  });
});

describe('deactivation and reactivation', () => {
  test('the creator deactivates; the event is the modern update', async () => {
    const id = await createGroup(ts, people.alice);
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
    events.stop();
    expect((await getGroup(ts, id)).deactivated).toBe(true);
    expect(events.events('user_group')).toEqual([{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: true } }]);
    assertError(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`), 'BAD_REQUEST', 'User group is deactivated.');
  });

  test('who may deactivate', async () => {
    const id = await createGroup(ts, people.alice);
    for (const who of ['admin', 'moderator', 'bob', 'guest'] as const) {
      assertError(await client(ts, people[who]).post(`/user_groups/${id}/deactivate`), 'BAD_REQUEST', 'Insufficient permission');
    }
    assertError(await client(ts, ts.owner).post(`/user_groups/${sys['role:members']}/deactivate`), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, ts.owner).post('/user_groups/123456/deactivate'), 'BAD_REQUEST', 'Invalid user group');
    assertSuccess(await client(ts, ts.owner).post(`/user_groups/${id}/deactivate`));
  });

  test('a group in use cannot be deactivated, and the objections say where', async () => {
    const used = await createGroup(ts, people.alice);
    const parent = await createGroup(ts, people.alice, { subgroups: [used] });
    const viaSetting = await createGroup(ts, people.alice, {
      can_mention_group: used,
      can_leave_group: { direct_members: [people.bob.id], direct_subgroups: [used] },
    });
    await setRealmGroupSetting(ts.server.deps.knex, ts.server.deps.realmId, 'can_create_groups', { direct_members: [people.bob.id], direct_subgroups: [used] });
    const res = await client(ts, people.alice).post(`/user_groups/${used}/deactivate`);
    const body = assertError(res, 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.');
    expect(body.objections).toEqual([
      { type: 'subgroup', supergroup_ids: [parent] },
      { type: 'user_group', group_id: viaSetting, settings: ['can_leave_group', 'can_mention_group'] },
      { type: 'realm', settings: ['can_create_groups'] },
    ]);
    // Deactivated groups and settings that no longer use it do not object.
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${parent}/deactivate`));
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${viaSetting}/deactivate`));
    await ts.server.deps.knex('realm_group_settings').delete();
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${used}/deactivate`));
  });

  test('reactivation through PATCH carries the whole group for older clients', async () => {
    const id = await createGroup(ts, people.alice, { members: [people.bob.id] });
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { deactivated: false }));
    events.stop();
    const group = await getGroup(ts, id);
    expect(group.deactivated).toBe(false);
    expect(events.events('user_group')).toEqual([{ type: 'user_group', op: 'update', group_id: id, data: { deactivated: false }, group }]);
    // Reactivating an active group, or "deactivated: true", changes nothing.
    const quiet = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { deactivated: false }));
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { deactivated: true }));
    quiet.stop();
    expect(quiet.deliveries).toHaveLength(0);
    expect((await getGroup(ts, id)).deactivated).toBe(false);
  });

  test('renaming a deactivated group is allowed and its event is marked', async () => {
    const id = await createGroup(ts, people.alice);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).patch(`/user_groups/${id}`, { name: 'renamed while retired' }));
    events.stop();
    expect(events.events('user_group')).toEqual([
      { type: 'user_group', op: 'update', group_id: id, data: { name: 'renamed while retired' }, deactivated: true },
    ]);
  });

  test('events reach every active user', async () => {
    const id = await createGroup(ts, people.alice);
    const gone = await makeUser(ts, 400);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const events = captureEvents(ts);
    assertSuccess(await client(ts, people.alice).post(`/user_groups/${id}/deactivate`));
    events.stop();
    const active: number[] = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id');
    expect([...events.deliveries[0].userIds].sort((a, b) => a - b)).toEqual(active.sort((a, b) => a - b));
  });
});

describe('userGroupEventForClient (the contract for event queues)', () => {
  const group = { id: 5, name: 'g' };
  test('deactivation: update with the capability, remove without', () => {
    const event = { type: 'user_group', op: 'update', group_id: 5, data: { deactivated: true } };
    expect(userGroupEventForClient(event, true)).toEqual(event);
    expect(userGroupEventForClient(event, false)).toEqual({ type: 'user_group', op: 'remove', group_id: 5 });
  });
  test('reactivation: update without the group, or add', () => {
    const event = { type: 'user_group', op: 'update', group_id: 5, data: { deactivated: false }, group };
    expect(userGroupEventForClient(event, true)).toEqual({ type: 'user_group', op: 'update', group_id: 5, data: { deactivated: false } });
    expect(userGroupEventForClient(event, false)).toEqual({ type: 'user_group', op: 'add', group });
  });
  test('renames of deactivated groups are hidden from clients that did not declare them', () => {
    const retired = { type: 'user_group', op: 'update', group_id: 5, data: { name: 'n' }, deactivated: true };
    const active = { ...retired, deactivated: false };
    const plain = { type: 'user_group', op: 'update', group_id: 5, data: { name: 'n' } };
    expect(userGroupEventForClient(retired, true)).toEqual(plain);
    expect(userGroupEventForClient(retired, false)).toBeNull();
    expect(userGroupEventForClient(active, false)).toEqual(plain);
  });
  test('other events pass unchanged', () => {
    const event = { type: 'user_group', op: 'add_members', group_id: 5, user_ids: [1] };
    expect(userGroupEventForClient(event, false)).toBe(event);
    const realm = { type: 'realm_user', op: 'update', person: { user_id: 1 } };
    expect(userGroupEventForClient(realm, false)).toBe(realm);
  });
});
