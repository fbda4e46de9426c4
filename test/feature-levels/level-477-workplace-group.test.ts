import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { getEvents, registerQueue, verifyAction } from '../helpers/events';
import { systemGroups } from '../helpers/groups';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Feature level 477: workplace_users_group must be a group whose membership only administrators
// can change, checked on PATCH /realm and its GraphQL mutation.
let ts: TestServer;
let alice: TestUser;
let groups: Record<string, number>;

const REFUSAL = "'workplace_users_group' must be a group whose membership can only be managed by organization administrators.";

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  groups = await systemGroups(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

const patchRealm = (params: Record<string, unknown>) => client(ts, ts.owner).patch('/realm', params);
const setWorkplace = (value: unknown) => patchRealm({ workplace_users_group: { new: value } });
const currentWorkplace = async () => (await registerQueue(ts, alice, { fetchEventTypes: ['realm'] })).state.realm_workplace_users_group;

/** Settings under which only administrators can change a group's members. */
const adminOnlySettings = () => ({
  can_add_members_group: groups['role:administrators'],
  can_join_group: groups['role:nobody'],
  can_leave_group: groups['role:nobody'],
  can_manage_group: { direct_members: [], direct_subgroups: [groups['role:owners'], groups['role:administrators']] },
  can_remove_members_group: groups['role:owners'],
});

let groupCount = 0;
async function createGroup(settings: Record<string, unknown>, subgroups: number[] = []): Promise<number> {
  groupCount += 1;
  const created = assertSuccess(
    await client(ts, ts.owner).post('/user_groups/create', { name: `workplace-${groupCount}`, description: 'x', members: [alice.id], subgroups, ...settings }),
  );
  return created.group_id as number;
}

/** Expects the request to be refused with Zulip's message, leaving the setting as it was and announcing nothing. */
async function expectRefused(value: unknown): Promise<void> {
  const before = await currentWorkplace();
  const queue = await registerQueue(ts, alice, { eventTypes: ['realm'] });
  assertError(await setWorkplace(value), 'BAD_REQUEST', REFUSAL);
  // A refused request publishes nothing; anything published would already be queued.
  const events = (await getEvents(ts, alice, queue.queueId, queue.lastEventId, { dontBlock: true })).filter((e) => e.type !== 'heartbeat');
  expect(events).toEqual([]);
  expect(await currentWorkplace()).toEqual(before);
}

async function expectAccepted(value: unknown): Promise<void> {
  const events = await verifyAction(ts, alice, () => setWorkplace(value));
  expect(events).toEqual([{ type: 'realm', op: 'update_dict', property: 'default', data: { workplace_users_group: value }, id: expect.any(Number) }]);
  expect(await currentWorkplace()).toEqual(value);
}

test('a system group is accepted: its members change only with roles', async () => {
  await expectAccepted(groups['role:moderators']);
  await expectAccepted(groups['role:everyone']);
});

test('a group members can join or be added to by non-administrators is refused, and nothing changes', async () => {
  await expectAccepted(groups['role:members']);
  await expectRefused(await createGroup({ ...adminOnlySettings(), can_add_members_group: groups['role:members'] }));
  await expectRefused(await createGroup({ ...adminOnlySettings(), can_join_group: groups['role:members'] }));
  // Leaving changes the membership too, as does a group's manager or remover being a moderator.
  await expectRefused(await createGroup({ ...adminOnlySettings(), can_leave_group: groups['role:everyone'] }));
  await expectRefused(await createGroup({ ...adminOnlySettings(), can_manage_group: groups['role:moderators'] }));
  await expectRefused(await createGroup({ ...adminOnlySettings(), can_remove_members_group: groups['role:moderators'] }));
  // A named person holding the permission counts as non-administrators, even the owner.
  await expectRefused(await createGroup({ ...adminOnlySettings(), can_add_members_group: { direct_members: [ts.owner.id], direct_subgroups: [] } }));
  // The defaults (the creator adds members, everyone may leave) do not qualify.
  await expectRefused(await createGroup({}));
});

test('a group only administrators can change is accepted, with system subgroups', async () => {
  await expectAccepted(await createGroup(adminOnlySettings()));
  await expectAccepted(await createGroup(adminOnlySettings(), [groups['role:members']]));
});

test('a nested subgroup with a permissive setting is refused', async () => {
  const inner = await createGroup({ ...adminOnlySettings(), can_join_group: groups['role:fullmembers'] });
  const middle = await createGroup(adminOnlySettings(), [inner]);
  const outer = await createGroup(adminOnlySettings(), [middle]);
  await expectRefused(outer);
  await expectRefused({ direct_members: [alice.id], direct_subgroups: [groups['role:members'], outer] });
  // Once the inner group is locked down, the whole tree qualifies.
  assertSuccess(await client(ts, ts.owner).patch(`/user_groups/${inner}`, { can_join_group: { new: groups['role:nobody'] } }));
  await expectAccepted(outer);
});

test('an anonymous group of system subgroups is accepted, whoever its direct members are', async () => {
  await expectAccepted({ direct_members: [alice.id], direct_subgroups: [groups['role:moderators'], groups['role:members']] });
  await expectAccepted({ direct_members: [alice.id, ts.owner.id].sort((a, b) => a - b), direct_subgroups: [] });
  const locked = await createGroup(adminOnlySettings());
  await expectAccepted({ direct_members: [alice.id], direct_subgroups: [groups['role:moderators'], locked] });
  await expectRefused({ direct_members: [], direct_subgroups: [groups['role:moderators'], await createGroup({})] });
});

test('when non-administrators may manage all groups, no user-made group qualifies', async () => {
  const locked = await createGroup(adminOnlySettings());
  assertSuccess(await patchRealm({ can_manage_all_groups: { new: groups['role:moderators'] } }));
  await expectRefused(locked);
  await expectAccepted(groups['role:administrators']);
  assertSuccess(await patchRealm({ can_manage_all_groups: { new: groups['role:owners'] } }));
  await expectAccepted(locked);
});

test('the GraphQL mutation refuses the same values', async () => {
  await expectAccepted(groups['role:members']);
  const open = await createGroup({ ...adminOnlySettings(), can_add_members_group: groups['role:members'] });
  const mutation = 'mutation($s: JSON!) { updateRealmSettings(settings: $s) { settings { workplaceUsersGroup } } }';
  const queue = await registerQueue(ts, alice, { eventTypes: ['realm'] });
  const res = await graphql(ts, ts.owner, mutation, { s: { workplaceUsersGroup: { new: open } } });
  expect(graphqlError(res)).toEqual({ message: REFUSAL, code: 'BAD_REQUEST' });
  expect((await getEvents(ts, alice, queue.queueId, queue.lastEventId, { dontBlock: true })).filter((e) => e.type !== 'heartbeat')).toEqual([]);
  expect(await currentWorkplace()).toBe(groups['role:members']);

  const locked = await createGroup(adminOnlySettings());
  const ok = await graphql(ts, ts.owner, mutation, { s: { workplaceUsersGroup: { new: locked } } });
  expect(ok.data?.updateRealmSettings.settings.workplaceUsersGroup).toBe(locked);
  expect(await currentWorkplace()).toBe(locked);
});
