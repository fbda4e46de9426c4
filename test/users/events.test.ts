import { inTransaction } from '../../src/db/unit-of-work';
import { assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents, verifyActionFor } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser, SERVER_HOOK_TIMEOUT } from '../helpers/server';

let ts: TestServer;
let creator: TestUser;
let events: ReturnType<typeof captureEvents>;

beforeAll(async () => {
  ts = await startTestServer();
  creator = await makeUser(ts, 200, { canCreateUsers: true });
  events = captureEvents(ts);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  events.stop();
  await ts.close();
}, SERVER_HOOK_TIMEOUT);
beforeEach(() => events.clear());

// Role changes also move users between system groups; those user_group events are tested with groups.
const userEvents = () => events.deliveries.filter((d) => d.event.type === 'realm_user');

const activeIds = async () =>
  ((await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).orderBy('id').pluck('id')) as number[]).map(Number);
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);

test('creating a user sends realm_user/add with the full user to every active user', async () => {
  const res = await client(ts, creator).post('/users', { email: 'evented@example.com', password: 'a-good-password', full_name: 'Evented Person' });
  const userId = assertSuccess(res).user_id;
  const adds = events.of('realm_user', 'add');
  expect(adds).toHaveLength(1);
  expect(sorted(adds[0].userIds)).toEqual(await activeIds());
  expect(adds[0].userIds).toContain(userId);
  const expected = assertSuccess(await client(ts, ts.owner).get(`/users/${userId}`, { client_gravatar: false, include_custom_profile_fields: true })).user;
  expect(adds[0].event).toEqual({ type: 'realm_user', op: 'add', person: expected });
  expect(adds[0].event.person).toMatchObject({ profile_data: {}, avatar_url: expect.stringContaining('gravatar.com') });
  expect(userEvents()).toHaveLength(1);
});

test('a role change sends realm_user/update with the new role', async () => {
  const member = await makeUser(ts);
  events.clear();
  assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 300 }));
  expect(userEvents()).toHaveLength(1);
  expect(userEvents()[0].event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: member.id, role: 300 } });
  expect(sorted(userEvents()[0].userIds)).toEqual(await activeIds());
});

test('a name change sends realm_user/update with the new name', async () => {
  const member = await makeUser(ts);
  events.clear();
  assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { full_name: '  Brand New Name ' }));
  expect(userEvents()).toHaveLength(1);
  expect(userEvents()[0].event).toEqual({
    type: 'realm_user',
    op: 'update',
    person: { user_id: member.id, full_name: 'Brand New Name' },
  });
  expect(sorted(userEvents()[0].userIds)).toEqual(await activeIds());
});

test('changing role and name at once sends one event for each', async () => {
  const member = await makeUser(ts);
  events.clear();
  assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 600, full_name: 'Guest Now' }));
  expect(userEvents().map((d) => d.event.person)).toEqual([
    { user_id: member.id, role: 600 },
    { user_id: member.id, full_name: 'Guest Now' },
  ]);
});

test('deactivation sends is_active false to the users still active; reactivation sends is_active true to all', async () => {
  const member = await makeUser(ts);
  events.clear();
  assertSuccess(await client(ts, ts.owner).delete(`/users/${member.id}`));
  expect(userEvents()).toHaveLength(1);
  expect(userEvents()[0].event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: member.id, is_active: false } });
  expect(sorted(userEvents()[0].userIds)).toEqual(await activeIds());
  expect(userEvents()[0].userIds).not.toContain(member.id);

  events.clear();
  assertSuccess(await client(ts, ts.owner).post(`/users/${member.id}/reactivate`));
  expect(userEvents()).toHaveLength(1);
  expect(userEvents()[0].event).toEqual({ type: 'realm_user', op: 'update', person: { user_id: member.id, is_active: true } });
  expect(sorted(userEvents()[0].userIds)).toEqual(await activeIds());
  expect(userEvents()[0].userIds).toContain(member.id);
});

test('deactivated users receive nothing', async () => {
  const gone = await makeUser(ts);
  assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
  const member = await makeUser(ts);
  events.clear();
  assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { full_name: 'Someone Else' }));
  expect(userEvents()[0].userIds).not.toContain(gone.id);
});

test('events are published after the commit: listeners already see the change', async () => {
  const member = await makeUser(ts);
  let seen: Promise<number> | null = null;
  const stop = ts.server.deps.bus.subscribe(() => {
    seen ??= ts.server.deps
      .knex('users')
      .where({ id: member.id })
      .first('role')
      .then((r) => r.role);
  });
  try {
    assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 200 }));
  } finally {
    stop();
  }
  expect(await seen).toBe(200);
});

describe('nothing is published when an action fails', () => {
  test.each([
    [
      'a member creating a user',
      async (member: TestUser) => client(ts, member).post('/users', { email: 'x1@example.com', password: 'a-good-password', full_name: 'X Y' }),
    ],
    ['a duplicate address', async () => client(ts, creator).post('/users', { email: creator.email, password: 'a-good-password', full_name: 'X Y' })],
    ['demoting the only owner', async () => client(ts, ts.owner).patch(`/users/${ts.owner.id}`, { role: 400 })],
    ['deactivating the only owner', async () => client(ts, ts.owner).delete(`/users/${ts.owner.id}`)],
    ['a member renaming someone', async (member: TestUser) => client(ts, member).patch(`/users/${ts.owner.id}`, { full_name: 'Hijacked Name' })],
    ['a valid role with an invalid name', async (member: TestUser) => client(ts, ts.owner).patch(`/users/${member.id}`, { role: 300, full_name: 'Bad*Name' })],
  ])('%s', async (_label, act) => {
    await ts.server.deps.knex('users').where('role', 100).whereNot('id', ts.owner.id).update({ role: 200 });
    const member = await makeUser(ts);
    events.clear();
    const res = await act(member);
    expect(res.body.result).toBe('error');
    expect(userEvents()).toEqual([]);
  });

  test('the failed role change above was rolled back too', async () => {
    const member = await makeUser(ts);
    assertError(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 300, full_name: 'Bad*Name' }), 'BAD_REQUEST', 'Invalid characters in name!');
    expect((await ts.server.deps.knex('users').where({ id: member.id }).first('role')).role).toBe(400);
  });

  test('an event queued in a transaction that then fails is dropped', async () => {
    const deps = ts.server.deps;
    await expect(
      inTransaction(deps, deps.realmId, async (uow) => {
        await uow.trx('users').where({ id: ts.owner.id }).update({ full_name: 'Never Committed' });
        uow.emit({ type: 'realm_user', op: 'update', person: { user_id: ts.owner.id, full_name: 'Never Committed' } }, [ts.owner.id]);
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(userEvents()).toEqual([]);
    expect((await deps.knex('users').where({ id: ts.owner.id }).first('full_name')).full_name).not.toBe('Never Committed');
  });

  test('changes that change nothing publish nothing', async () => {
    const member = await makeUser(ts);
    events.clear();
    assertSuccess(await client(ts, ts.owner).patch(`/users/${member.id}`, { role: 400, full_name: member.fullName }));
    assertSuccess(await client(ts, ts.owner).post(`/users/${member.id}/reactivate`));
    expect(userEvents()).toEqual([]);
  });
});

describe('events reproduce a fresh register, for every kind of viewer', () => {
  let admin: TestUser;
  let moderator: TestUser;
  let member: TestUser;
  let guest: TestUser;
  /** A member whose address only administrators may see. */
  let hidden: TestUser;
  let channelId: number;
  let groupId: number;
  let fieldId: number;
  beforeAll(async () => {
    admin = await makeUser(ts, 200);
    moderator = await makeUser(ts, 300);
    member = await makeUser(ts, 400);
    guest = await makeUser(ts, 600);
    hidden = await makeUser(ts, 400);
    assertSuccess(await client(ts, hidden).patch('/settings', { email_address_visibility: 3 }));
    assertSuccess(
      await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'people' }], principals: [member.id, guest.id, hidden.id] }),
    );
    channelId = assertSuccess(await client(ts, ts.owner).get('/get_stream_id', { stream: 'people' })).stream_id;
    groupId = assertSuccess(await client(ts, admin).post('/user_groups/create', { name: 'crew', description: '', members: [member.id, hidden.id] })).group_id;
    fieldId = assertSuccess(await client(ts, admin).post('/realm/profile_fields', { name: 'Team', field_type: 1 })).id;
  });

  const viewers = () => [ts.owner, admin, moderator, member, guest];
  const watch = (action: () => Promise<unknown>, extra: Record<string, unknown> = {}) => verifyActionFor(ts, viewers(), action as never, { extra });
  const kinds = (events: Record<string, any>[]) => events.map((e) => `${e.type}/${e.op}`);

  test('creating a user through the API', async () => {
    const all = await watch(() => client(ts, creator).post('/users', { email: 'api-made@example.com', password: 'a-good-password', full_name: 'Api Made' }));
    for (const events of all) expect(kinds(events)[0]).toBe('realm_user/add');
  });

  test('creating a user, with subscriber lists', async () => {
    await watch(() => client(ts, creator).post('/users', { email: 'api-counted@example.com', password: 'a-good-password', full_name: 'Api Counted' }), {
      include_subscribers: true,
    });
  });

  test('an administrator renaming a user, as the user sees it too', async () => {
    const target = await makeUser(ts, 400);
    await verifyActionFor(ts, [target, ...viewers()], () => client(ts, admin).patch(`/users/${target.id}`, { full_name: 'Renamed By Admin' }));
  });

  test('an administrator changing a user’s name and profile data at once', async () => {
    await watch(() => client(ts, admin).patch(`/users/${member.id}`, { full_name: 'Member Renamed', profile_data: [{ id: fieldId, value: 'Platform' }] }));
  });

  test('role changes, seen by the user whose access to others’ addresses changes with the role', async () => {
    const target = await makeUser(ts, 400);
    for (const role of [300, 200, 100, 600, 400]) {
      await verifyActionFor(ts, [target, ts.owner, member, guest], () => client(ts, ts.owner).patch(`/users/${target.id}`, { role }));
    }
  });

  test('role changes of a user whose address is hidden', async () => {
    for (const role of [200, 600, 400]) await watch(() => client(ts, ts.owner).patch(`/users/${hidden.id}`, { role }));
  });

  test.each([false, true])('deactivating and reactivating a channel subscriber and group member (include_subscribers %s)', async (includeSubscribers) => {
    for (const target of [member, hidden, guest]) {
      const others = viewers().filter((v) => v.id !== target.id);
      const deactivated = await verifyActionFor(ts, others, () => client(ts, admin).delete(`/users/${target.id}`), {
        extra: { include_subscribers: includeSubscribers },
      });
      for (const events of deactivated) expect(kinds(events)).toContain('realm_user/update');
      const reactivated = await verifyActionFor(ts, others, () => client(ts, admin).post(`/users/${target.id}/reactivate`), {
        extra: { include_subscribers: includeSubscribers },
      });
      for (const events of reactivated) expect(kinds(events)).toContain('realm_user/update');
    }
    // The reactivated user's own register matches what they are told afterwards.
    await verifyActionFor(ts, [member], () => client(ts, admin).patch(`/users/${member.id}`, { full_name: `Back Again ${includeSubscribers}` }));
    expect(channelId).toEqual(expect.any(Number));
    expect(groupId).toEqual(expect.any(Number));
  });
});
