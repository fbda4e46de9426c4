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

const SETTINGS = ['can_add_members_group', 'can_join_group', 'can_leave_group', 'can_manage_group', 'can_mention_group', 'can_remove_members_group'];

describe('POST /user_groups/create', () => {
  test('a member creates a group with Zulip defaults for every setting', async () => {
    const before = Math.floor(Date.now() / 1000);
    const res = await client(ts, people.alice).post('/user_groups/create', {
      name: 'support',
      description: 'Support team',
      members: [people.alice.id, people.bob.id],
    });
    const id = assertSuccess(res).group_id;
    expect(typeof id).toBe('number');
    const group = await getGroup(ts, id);
    expect(group).toMatchObject({
      id,
      name: 'support',
      description: 'Support team',
      creator_id: people.alice.id,
      members: [people.alice.id, people.bob.id].sort((a, b) => a - b),
      direct_subgroup_ids: [],
      is_system_group: false,
      deactivated: false,
      can_add_members_group: { direct_members: [people.alice.id], direct_subgroups: [] },
      can_join_group: sys['role:nobody'],
      can_leave_group: sys['role:everyone'],
      can_manage_group: { direct_members: [people.alice.id], direct_subgroups: [] },
      can_mention_group: sys['role:everyone'],
      can_remove_members_group: sys['role:nobody'],
    });
    expect(group.date_created).toBeGreaterThanOrEqual(before - 1);
  });

  test.each(['owner', 'admin', 'moderator', 'alice'] as const)('%s may create groups by default', async (role) => {
    await createGroup(ts, people[role]);
  });

  test('guests may not, whatever they send', async () => {
    assertError(await client(ts, people.guest).post('/user_groups/create', {}), 'BAD_REQUEST', 'Not allowed for guest users');
    assertError(
      await client(ts, people.guest).post('/user_groups/create', { name: 'g', description: '', members: [] }),
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
  });

  test('can_create_groups decides who may create', async () => {
    const db = ts.server.deps.knex;
    try {
      await setRealmGroupSetting(db, ts.server.deps.realmId, 'can_create_groups', sys['role:administrators']);
      const params = { name: 'admins only', description: '', members: [] };
      assertError(await client(ts, people.alice).post('/user_groups/create', params), 'BAD_REQUEST', 'Insufficient permission');
      assertError(await client(ts, people.moderator).post('/user_groups/create', params), 'BAD_REQUEST', 'Insufficient permission');
      assertSuccess(await client(ts, people.admin).post('/user_groups/create', params));
      // An anonymous value: one member plus the moderators.
      await setRealmGroupSetting(db, ts.server.deps.realmId, 'can_create_groups', {
        direct_members: [people.bob.id],
        direct_subgroups: [sys['role:moderators']],
      });
      assertError(await client(ts, people.alice).post('/user_groups/create', { ...params, name: 'x1' }), 'BAD_REQUEST', 'Insufficient permission');
      assertSuccess(await client(ts, people.bob).post('/user_groups/create', { ...params, name: 'x2' }));
      assertSuccess(await client(ts, people.moderator).post('/user_groups/create', { ...params, name: 'x3' }));
    } finally {
      await db('realm_group_settings').where({ name: 'can_create_groups' }).delete();
    }
  });

  test('required parameters', async () => {
    assertError(
      await client(ts, people.alice).post('/user_groups/create', { name: 'a', description: '' }),
      'REQUEST_VARIABLE_MISSING',
      "Missing 'members' argument",
    );
    assertError(
      await client(ts, people.alice).post('/user_groups/create', { name: 'a', members: [] }),
      'REQUEST_VARIABLE_MISSING',
      "Missing 'description' argument",
    );
    assertError(
      await client(ts, people.alice).post('/user_groups/create', { description: '', members: [] }),
      'REQUEST_VARIABLE_MISSING',
      "Missing 'name' argument",
    );
    assertError(
      await client(ts, people.alice).post('/user_groups/create', { name: 'a', description: '', members: ['x'] }),
      'BAD_REQUEST',
      'members[0] is not an integer',
    );
  });

  test('members must be active accounts of the organization', async () => {
    const gone = await makeUser(ts, 400);
    await client(ts, ts.owner).delete(`/users/${gone.id}`);
    const post = (members: number[]) => client(ts, people.alice).post('/user_groups/create', { name: 'bad members', description: '', members });
    assertError(await post([people.alice.id, 9999]), 'BAD_REQUEST', 'Invalid user ID: 9999');
    assertError(await post([gone.id]), 'BAD_REQUEST', `Invalid user ID: ${gone.id}`);
  });

  test('names: unique (case-sensitively), non-empty, at most 100 characters, no reserved prefix', async () => {
    const post = (name: string) => client(ts, people.alice).post('/user_groups/create', { name, description: '', members: [] });
    assertSuccess(await post('Backend'));
    assertError(await post('Backend'), 'BAD_REQUEST', "User group 'Backend' already exists.");
    assertSuccess(await post('backend'));
    assertError(await post('   '), 'BAD_REQUEST', "User group name can't be empty!");
    assertError(await post(''), 'BAD_REQUEST', "User group name can't be empty!");
    assertError(await post('a'.repeat(101)), 'BAD_REQUEST', 'User group name cannot exceed 100 characters.');
    assertSuccess(await post('é'.repeat(100)));
    for (const prefix of ['@', 'role:', 'user:', 'stream:', 'channel:']) {
      assertError(await post(`${prefix}x`), 'BAD_REQUEST', `User group name cannot start with '${prefix}'.`);
    }
  });

  describe.each(SETTINGS)('%s', (setting) => {
    const post = (value: unknown, name = `${setting} ${Math.random()}`) =>
      client(ts, people.alice).post('/user_groups/create', { name, description: '', members: [], [setting]: value });

    test('accepts system and user groups, nobody and owners', async () => {
      const leadership = await createGroup(ts, people.alice);
      for (const value of [sys['role:moderators'], leadership, sys['role:nobody'], sys['role:owners']]) {
        const id = assertSuccess(await post(value)).group_id;
        expect((await getGroup(ts, id))[setting]).toBe(value);
      }
    });

    test('accepts anonymous values and stores them in canonical form', async () => {
      const leadership = await createGroup(ts, people.alice);
      const mixed = assertSuccess(await post({ direct_members: [people.bob.id], direct_subgroups: [sys['role:moderators'], leadership] })).group_id;
      expect((await getGroup(ts, mixed))[setting]).toEqual({
        direct_members: [people.bob.id],
        direct_subgroups: [sys['role:moderators'], leadership].sort((a, b) => a - b),
      });
      const single = assertSuccess(await post({ direct_members: [], direct_subgroups: [sys['role:moderators']] })).group_id;
      expect((await getGroup(ts, single))[setting]).toBe(sys['role:moderators']);
      const empty = assertSuccess(await post({ direct_members: [], direct_subgroups: [] })).group_id;
      expect((await getGroup(ts, empty))[setting]).toBe(sys['role:nobody']);
    });

    test('refuses role:internet, unknown groups, users and deactivated groups', async () => {
      assertError(await post(sys['role:internet']), 'BAD_REQUEST', `'${setting}' setting cannot be set to 'role:internet' group.`);
      assertError(await post(123456), 'BAD_REQUEST', 'Invalid user group');
      assertError(await post({ direct_members: [1111], direct_subgroups: [sys['role:moderators']] }), 'BAD_REQUEST', 'Invalid user ID: 1111');
      assertError(
        await post({ direct_members: [people.bob.id], direct_subgroups: [123456, sys['role:moderators']] }),
        'BAD_REQUEST',
        'Invalid user group ID: 123456',
      );
      const retired = await createGroup(ts, people.alice);
      assertSuccess(await client(ts, people.alice).post(`/user_groups/${retired}/deactivate`));
      assertError(await post(retired), 'BAD_REQUEST', 'User group is deactivated.');
      assertError(await post({ direct_members: [people.bob.id], direct_subgroups: [retired] }), 'BAD_REQUEST', 'User group is deactivated.');
      assertError(await post('"moderators"'), 'BAD_REQUEST', `${setting} is not an allowed_type`);
      assertError(await post({ direct_members: [] }), 'BAD_REQUEST', `direct_subgroups key is missing from ${setting}`);
    });

    const everyoneAllowed = setting === 'can_leave_group' || setting === 'can_mention_group';
    test(`role:everyone is ${everyoneAllowed ? 'allowed' : 'refused'}`, async () => {
      const res = await post(sys['role:everyone']);
      if (everyoneAllowed) assertSuccess(res);
      else assertError(res, 'BAD_REQUEST', `'${setting}' setting cannot be set to 'role:everyone' group.`);
    });
  });

  test('subgroups given at creation are added, whatever the other permissions', async () => {
    const sub = await createGroup(ts, people.bob);
    const events = captureEvents(ts);
    const id = await createGroup(ts, people.alice, {
      subgroups: [sub],
      can_add_members_group: sys['role:nobody'],
      can_manage_group: sys['role:nobody'],
    });
    events.stop();
    expect((await getGroup(ts, id)).direct_subgroup_ids).toEqual([sub]);
    expect(events.events('user_group').map((e) => e.op)).toEqual(['add', 'add_subgroups']);
    expect(events.events('user_group', 'add_subgroups')[0]).toEqual({ type: 'user_group', op: 'add_subgroups', group_id: id, direct_subgroup_ids: [sub] });
  });

  test('an invalid subgroup leaves nothing behind', async () => {
    const events = captureEvents(ts);
    const res = await client(ts, people.alice).post('/user_groups/create', { name: 'half made', description: '', members: [], subgroups: [123456] });
    events.stop();
    assertError(res, 'BAD_REQUEST', 'Invalid user group ID: 123456');
    expect(await ts.server.deps.knex('user_groups').where({ name: 'half made' }).first()).toBeUndefined();
    expect(events.deliveries).toHaveLength(0);
  });

  test('user_group/add goes to every active user after the commit', async () => {
    const gone = await makeUser(ts, 400);
    await client(ts, ts.owner).delete(`/users/${gone.id}`);
    const events = captureEvents(ts);
    const id = await createGroup(ts, people.admin, { name: 'announced', description: 'About', members: [people.alice.id] });
    events.stop();
    const [delivery] = events.of('user_group', 'add');
    const active: number[] = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id');
    expect(delivery.userIds.sort((a, b) => a - b)).toEqual(active.sort((a, b) => a - b));
    expect(delivery.userIds).not.toContain(gone.id);
    expect(delivery.event).toEqual({ type: 'user_group', op: 'add', group: await getGroup(ts, id) });
  });
});
