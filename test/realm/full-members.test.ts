import { promoteNewFullMembers } from '../../src/core/groups/full-members';
import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { captureEvents, verifyAction, withoutIds } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';

// The promotion job runs every second here, so it also runs between and during the tests: each
// test leaves memberships where the job would put them, and backdates accounts only when it means
// the job (or a threshold change) to act.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let moderator: TestUser;
let groups: Record<string, number>;

const DAY_MS = 24 * 3600 * 1000;

beforeAll(async () => {
  ts = await startTestServer({ PARLEY_FULL_MEMBER_INTERVAL_SECONDS: '1' });
  moderator = await makeUser(ts, 300);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
  groups = await systemGroups(ts);
  // Alice joined ten days ago, Bob two days ago, Carol just now.
  await backdate(alice, 10);
  await backdate(bob, 2);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

/** Makes the account `days` days (and an hour, so whole days count) old. */
async function backdate(user: TestUser, days: number, extraMs = 3600_000): Promise<void> {
  await ts.server.deps.knex.raw('UPDATE users SET date_joined = ? WHERE id = ?', [new Date(Date.now() - days * DAY_MS - extraMs), user.id]);
}

/**
 * Makes the account cross `days` a few seconds from now (date_joined itself is part of the
 * registered state and changes with no event), and returns the wait for its promotion event.
 */
async function crossingSoon(user: TestUser, days: number): Promise<() => Promise<void>> {
  const capture = captureEvents(ts);
  await backdate(user, days, -4000);
  return async () => {
    await waitUntil(() => capture.events('user_group', 'add_members').some((e) => (e.user_ids as number[]).includes(user.id)));
    capture.stop();
  };
}

const setThreshold = (days: number) => client(ts, ts.owner).patch('/realm', { waiting_period_threshold: days });

/** role:fullmembers' direct members, as a client sees them after POST /register. */
async function fullMembers(): Promise<number[]> {
  const state = assertSuccess(await client(ts, ts.owner).post('/register', { fetch_event_types: ['realm_user_groups'] }));
  const group = state.realm_user_groups.find((g: { id: number }) => g.id === groups['role:fullmembers']);
  return group.members;
}

async function isFullMember(user: TestUser): Promise<boolean> {
  const res = await client(ts, ts.owner).get(`/user_groups/${groups['role:fullmembers']}/members/${user.id}`);
  return assertSuccess(res).is_user_group_member;
}

test('with no waiting period every member is a full member', async () => {
  expect(await fullMembers()).toEqual([alice.id, bob.id, carol.id]);
  // Stronger roles belong through the subgroups, not directly.
  expect(await isFullMember(moderator)).toBe(true);
});

test('raising the waiting period removes the new members, with one event', async () => {
  const events = await verifyAction(ts, alice, () => setThreshold(3));
  expect(withoutIds(events)).toEqual([
    { type: 'realm', op: 'update', property: 'waiting_period_threshold', value: 3 },
    { type: 'user_group', op: 'remove_members', group_id: groups['role:fullmembers'], user_ids: [bob.id, carol.id] },
  ]);
  expect(await fullMembers()).toEqual([alice.id]);
  expect(await isFullMember(bob)).toBe(false);
  expect(await isFullMember(moderator)).toBe(true);
  // role:members still holds everyone.
  const members = assertSuccess(await client(ts, bob).get(`/user_groups/${groups['role:members']}/members/${bob.id}`));
  expect(members.is_user_group_member).toBe(true);
});

test('lowering it adds the members now past it; setting the same value again changes nothing', async () => {
  const events = await verifyAction(ts, carol, () => setThreshold(2));
  expect(withoutIds(events)).toEqual([
    { type: 'realm', op: 'update', property: 'waiting_period_threshold', value: 2 },
    { type: 'user_group', op: 'add_members', group_id: groups['role:fullmembers'], user_ids: [bob.id] },
  ]);
  const capture = captureEvents(ts);
  assertSuccess(await setThreshold(2));
  capture.stop();
  expect(capture.deliveries).toEqual([]);
  assertSuccess(await setThreshold(3));
  expect(await fullMembers()).toEqual([alice.id]);
});

test('only owners change the waiting period; a bad value changes nothing', async () => {
  const admin = await makeUser(ts, 200);
  assertError(await client(ts, admin).patch('/realm', { waiting_period_threshold: 0 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
  const res = await client(ts, ts.owner).patch('/realm', { waiting_period_threshold: -1 });
  expect(res.status).toBe(400);
  expect(res.body.result).toBe('error');
  expect(await fullMembers()).toEqual([alice.id]);
});

test('new accounts, role changes and reactivations follow the waiting period', async () => {
  const dave = await makeUser(ts, 400);
  expect(await isFullMember(dave)).toBe(false);

  // Alice becomes a moderator (role:fullmembers only through its subgroup) and a member again.
  let events = await verifyAction(ts, bob, () => client(ts, ts.owner).patch(`/users/${alice.id}`, { role: 300 }));
  expect(withoutIds(events)).toContainEqual({ type: 'user_group', op: 'remove_members', group_id: groups['role:fullmembers'], user_ids: [alice.id] });
  events = await verifyAction(ts, bob, () => client(ts, ts.owner).patch(`/users/${alice.id}`, { role: 400 }));
  expect(withoutIds(events)).toContainEqual({ type: 'user_group', op: 'add_members', group_id: groups['role:fullmembers'], user_ids: [alice.id] });

  // A new moderator made a member waits like any new member.
  const erin = await makeUser(ts, 300);
  events = await verifyAction(ts, bob, () => client(ts, ts.owner).patch(`/users/${erin.id}`, { role: 400 }));
  expect(withoutIds(events).filter((e) => e.group_id === groups['role:fullmembers'])).toEqual([]);
  expect(await isFullMember(erin)).toBe(false);

  // Dave crosses the waiting period while deactivated; he comes back a full member.
  assertSuccess(await client(ts, ts.owner).delete(`/users/${dave.id}`));
  await backdate(dave, 5);
  events = await verifyAction(ts, bob, () => client(ts, ts.owner).post(`/users/${dave.id}/reactivate`));
  expect(withoutIds(events)).toContainEqual({ type: 'user_group', op: 'add_members', group_id: groups['role:fullmembers'], user_ids: [dave.id] });
  expect(await isFullMember(dave)).toBe(true);

  // Guests never are full members, whatever their age.
  const guest = await makeUser(ts, 600);
  await backdate(guest, 30);
  // A promotion pass run now, as the periodic job runs it, leaves the guest out.
  expect(await promoteNewFullMembers(ts.server.deps)).not.toContain(guest.id);
  expect(await isFullMember(guest)).toBe(false);
});

test('the periodic job promotes members who crossed the waiting period', async () => {
  const frank = await makeUser(ts, 400);
  const promoted = await crossingSoon(frank, 3);
  expect(await isFullMember(frank)).toBe(false);
  const events = await verifyAction(ts, carol, promoted);
  expect(withoutIds(events)).toEqual([{ type: 'user_group', op: 'add_members', group_id: groups['role:fullmembers'], user_ids: [frank.id] }]);
  expect(await isFullMember(frank)).toBe(true);
  expect(await isFullMember(carol)).toBe(false);
});

test('promotions running at once in several places change and announce everything once', async () => {
  const grace = await makeUser(ts, 400);
  const henry = await makeUser(ts, 400);
  const ivy = await makeUser(ts, 400);
  const capture = captureEvents(ts);
  await backdate(grace, 4);
  await backdate(henry, 4);
  const results = await Promise.all([promoteNewFullMembers(ts.server.deps), promoteNewFullMembers(ts.server.deps), promoteNewFullMembers(ts.server.deps)]);
  await waitUntil(() => capture.events('user_group', 'add_members').length > 0);
  // A later account's promotion by the job: its passes run one at a time, so any pass that was
  // under way with these has ended, and the passes after it found Grace and Henry promoted.
  await backdate(ivy, 4);
  const ivyPromoted = (e: ReturnType<typeof capture.events>[number]) => (e.user_ids as number[]).includes(ivy.id);
  await waitUntil(() => capture.events('user_group', 'add_members').some(ivyPromoted));
  capture.stop();
  // Whichever run got there first (these or the job's) did it all; the others found nothing to do.
  expect(results.filter((ids) => ids.length > 0).length).toBeLessThanOrEqual(1);
  expect(capture.events('user_group', 'add_members').filter(ivyPromoted)).toEqual([
    { type: 'user_group', op: 'add_members', group_id: groups['role:fullmembers'], user_ids: [ivy.id] },
  ]);
  expect(capture.events('user_group', 'add_members').filter((e) => !ivyPromoted(e))).toEqual([
    { type: 'user_group', op: 'add_members', group_id: groups['role:fullmembers'], user_ids: [grace.id, henry.id] },
  ]);
  expect(capture.events('user_group', 'remove_members')).toEqual([]);
});

test('a permission limited to full members refuses new members until they are promoted', async () => {
  assertSuccess(await client(ts, ts.owner).patch('/realm', { can_create_public_channel_group: { new: groups['role:fullmembers'] } }));
  const newcomer = await makeUser(ts, 400);
  const create = (who: TestUser, name: string) => client(ts, who).post('/users/me/subscriptions', { subscriptions: [{ name }] });
  const canCreate = async (who: TestUser) =>
    assertSuccess(await client(ts, who).post('/register', { fetch_event_types: ['realm_user'] })).can_create_public_streams as boolean;
  assertError(await create(newcomer, 'newcomer channel'), 'BAD_REQUEST', 'Insufficient permission');
  expect(await canCreate(newcomer)).toBe(false);
  assertSuccess(await create(alice, 'full member channel'));
  assertSuccess(await create(moderator, 'moderator channel'));
  // The newcomer's client learns of the promotion, and with it of the permission.
  const promoted = await crossingSoon(newcomer, 3);
  const events = await verifyAction(ts, newcomer, promoted);
  expect(withoutIds(events)).toEqual([{ type: 'user_group', op: 'add_members', group_id: groups['role:fullmembers'], user_ids: [newcomer.id] }]);
  expect(await canCreate(newcomer)).toBe(true);
  assertSuccess(await create(newcomer, 'newcomer channel'));
  expect(assertSuccess(await client(ts, newcomer).get('/get_stream_id', { stream: 'newcomer channel' })).stream_id).toBeGreaterThan(0);
});
