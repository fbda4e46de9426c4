import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { applyChannelEvents, captureEvents, createChannel, expectSameState, fetchChannelState, ids, registerOptions, verifyAction } from './helpers';

/** How channels answer other features: groups and folders in use, accounts leaving and returning. */

let ts: TestServer;
let admin: TestUser;
let member: TestUser;
let other: TestUser;
let guest: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  other = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
}, 120_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

const is = (type: string, op: string) => (e: { type: string; op?: unknown }) => e.type === type && e.op === op;

async function createGroup(name: string): Promise<number> {
  return assertSuccess(await client(ts, admin).post('/user_groups/create', { name, description: '', members: [member.id] })).group_id;
}

describe('user groups named in channel permissions', () => {
  test('cannot be deactivated while an active channel uses them, directly or as a subgroup', async () => {
    const group = await createGroup('channel-keepers');
    const first = await createChannel(ts, admin, 'kept-by-group');
    const second = await createChannel(ts, admin, 'kept-by-subgroup');
    assertSuccess(await client(ts, admin).patch(`/streams/${first}`, { can_remove_subscribers_group: { new: group }, can_send_message_group: { new: group } }));
    assertSuccess(
      await client(ts, admin).patch(`/streams/${second}`, { can_administer_channel_group: { new: { direct_members: [admin.id], direct_subgroups: [group] } } }),
    );
    const deactivate = () => client(ts, admin).post(`/user_groups/${group}/deactivate`);
    const refused = assertError(await deactivate(), 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.');
    expect(refused.objections).toEqual([
      { type: 'channel', channel_id: first, settings: ['can_remove_subscribers_group', 'can_send_message_group'] },
      { type: 'channel', channel_id: second, settings: ['can_administer_channel_group'] },
    ]);

    // Archived channels do not hold a group.
    assertSuccess(await client(ts, admin).delete(`/streams/${first}`));
    expect(assertError(await deactivate(), 'CANNOT_DEACTIVATE_GROUP_IN_USE', 'Cannot deactivate user group in use.').objections).toEqual([
      { type: 'channel', channel_id: second, settings: ['can_administer_channel_group'] },
    ]);
    assertSuccess(
      await client(ts, admin).patch(`/streams/${second}`, { can_administer_channel_group: { new: { direct_members: [admin.id], direct_subgroups: [] } } }),
    );
    assertSuccess(await deactivate());
  });
});

describe('accounts leaving and returning', () => {
  test('deactivation: peers get peer_remove for each subscription, and permission values naming the account are re-announced', async () => {
    const leaving = await makeUser(ts, 400);
    const square = await createChannel(ts, admin, 'departures');
    const inner = await createChannel(ts, leaving, 'leavers-room', { invite_only: true });
    const attic = await createChannel(ts, admin, 'departures-attic');
    for (const [by, name, who] of [
      [admin, 'departures', [leaving, other, guest]],
      [leaving, 'leavers-room', [other]],
      [admin, 'departures-attic', [leaving]],
    ] as const) {
      assertSuccess(await client(ts, by).post('/users/me/subscriptions', { subscriptions: [{ name }], principals: who.map((u) => u.id) }));
    }
    assertSuccess(await client(ts, admin).delete(`/streams/${attic}`));

    const options = registerOptions();
    const archivedAware = registerOptions({}, { archived_channels: true });
    const watchers = [other, member, guest, admin];
    const before = await Promise.all(watchers.map((w) => fetchChannelState(ts, w, options)));
    const beforeArchived = await fetchChannelState(ts, admin, archivedAware);
    const capture = captureEvents(ts);
    try {
      await verifyAction(ts, ts.owner, () => client(ts, ts.owner).delete(`/users/${leaving.id}`));
    } finally {
      capture.stop();
    }
    for (const [i, w] of watchers.entries()) {
      expectSameState(await applyChannelEvents(ts, w, before[i], capture.for(w.id), options), await fetchChannelState(ts, w, options), options);
    }
    const replayed = await applyChannelEvents(ts, admin, beforeArchived, capture.for(admin.id), archivedAware);
    expectSameState(replayed, await fetchChannelState(ts, admin, archivedAware), archivedAware);

    const removals = capture.deliveries.filter((d) => is('subscription', 'peer_remove')(d.event));
    const removalFor = (id: number) => removals.find((d) => (d.event.stream_ids as number[]).includes(id))!;
    expect(removalFor(square).event).toEqual({ type: 'subscription', op: 'peer_remove', stream_ids: [square], user_ids: [leaving.id] });
    expect([...removalFor(square).userIds].sort((a, b) => a - b)).toEqual(ids(ts.owner, admin, member, other, guest));
    expect([...removalFor(inner).userIds].sort((a, b) => a - b)).toEqual(ids(ts.owner, admin, other));
    expect(removalFor(attic)).toBeDefined();
    // The creator was the private channel's administrator; the value now lists nobody.
    const update = capture.deliveries.find((d) => is('stream', 'update')(d.event))!;
    expect(update.event).toMatchObject({ stream_id: inner, property: 'can_administer_channel_group', value: { direct_members: [], direct_subgroups: [] } });
    expect([...update.userIds].sort((a, b) => a - b)).toEqual(ids(ts.owner, admin, other));
    expect(capture.recipientsOf(() => true)).not.toContain(leaving.id);
    // Peers hear of the subscriptions before the deactivation itself, as in Zulip.
    const order = capture.for(other.id).map((e) => `${e.type}/${e.op}`);
    expect(order.indexOf('subscription/peer_remove')).toBeLessThan(order.indexOf('realm_user/update'));
    expect(assertSuccess(await client(ts, other).get(`/streams/${square}/members`)).subscribers).not.toContain(leaving.id);

    // Reactivation: the subscriptions come back, announced with peer_add.
    const again = await Promise.all(watchers.map((w) => fetchChannelState(ts, w, options)));
    const back = captureEvents(ts);
    try {
      await verifyAction(ts, ts.owner, () => client(ts, ts.owner).post(`/users/${leaving.id}/reactivate`));
    } finally {
      back.stop();
    }
    for (const [i, w] of watchers.entries()) {
      expectSameState(await applyChannelEvents(ts, w, again[i], back.for(w.id), options), await fetchChannelState(ts, w, options), options);
    }
    const additions = back.deliveries.filter((d) => is('subscription', 'peer_add')(d.event));
    expect(additions.map((d) => d.event.stream_ids)).toEqual([[square], [inner], [attic]].sort((a, b) => a[0] - b[0]));
    expect(back.deliveries.find((d) => is('stream', 'update')(d.event))!.event).toMatchObject({
      stream_id: inner,
      value: { direct_members: [leaving.id], direct_subgroups: [] },
    });
    expect(assertSuccess(await client(ts, other).get(`/streams/${square}/members`)).subscribers).toContain(leaving.id);
  });

  test('a role change shows or hides channels for the account, with their subscribers', async () => {
    const changing = await makeUser(ts, 400);
    const open = await createChannel(ts, admin, 'roles-public');
    const mine = await createChannel(ts, admin, 'roles-mine');
    const secret = await createChannel(ts, admin, 'roles-private', { invite_only: true });
    assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'roles-mine' }], principals: [changing.id] }));
    assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'roles-private' }], principals: [other.id] }));
    const setRole = (role: number) => () => client(ts, ts.owner).patch(`/users/${changing.id}`, { role });

    // Administrators see every private channel, and who is in it.
    const promoted = await verifyAction(ts, changing, setRole(200));
    expect(promoted.filter(is('stream', 'create')).flatMap((e) => (e.streams as { stream_id: number }[]).map((s) => s.stream_id))).toContain(secret);
    expect(promoted.find((e) => is('subscription', 'peer_add')(e) && (e.stream_ids as number[])[0] === secret)).toEqual({
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [secret],
      user_ids: ids(admin, other),
    });

    // Guests see only the channels they are subscribed to.
    const demoted = await verifyAction(ts, changing, setRole(600));
    const deleted = demoted.filter(is('stream', 'delete')).flatMap((e) => e.stream_ids as number[]);
    expect(deleted).toEqual(expect.arrayContaining([open, secret]));
    expect(deleted).not.toContain(mine);

    const restored = await verifyAction(ts, changing, setRole(400));
    const created = restored.filter(is('stream', 'create')).flatMap((e) => (e.streams as { stream_id: number }[]).map((s) => s.stream_id));
    expect(created).toContain(open);
    expect(created).not.toContain(secret);
    // Nobody else hears of it.
    const capture = captureEvents(ts);
    try {
      assertSuccess(await setRole(300)());
    } finally {
      capture.stop();
    }
    expect(capture.recipientsOf((e) => e.type === 'stream' || e.type === 'subscription')).toEqual([]);
  });
});
