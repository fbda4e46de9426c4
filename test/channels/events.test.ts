import { assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { User } from '../../src/core/users/model';
import { subscriptionsSlice } from '../../src/core/channels/state';
import { deliverableWithArchivedChannels, stripDeliveryFlags } from '../../src/core/channels/events';
import { applyChannelEvents, captureEvents, createChannel, expectSameState, fetchChannelState, ids, registerOptions, verifyAction } from './helpers';

let ts: TestServer;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let other: TestUser;
let guest: TestUser;
let groups: Record<string, number>;

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  other = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  groups = await systemGroups(ts);
}, 120_000);
afterAll(async () => {
  await ts.close();
}, 60_000);

const is = (type: string, op: string) => (e: { type: string; op?: unknown }) => e.type === type && e.op === op;

/** Runs an action while checking register state stays in step for each listed user. */
async function act(watchers: TestUser[], action: () => Promise<unknown>, options = registerOptions()) {
  const capture = captureEvents(ts);
  try {
    // verifyAction for the first watcher runs the action; the others are checked on a replay below.
    const [first, ...rest] = watchers;
    const before = await Promise.all(rest.map((w) => fetchChannelState(ts, w, options)));
    await verifyAction(ts, first, action, options);
    for (const [i, w] of rest.entries()) {
      const applied = await applyChannelEvents(ts, w, before[i], capture.for(w.id), options);
      expectSameState(applied, await fetchChannelState(ts, w, options), options);
    }
  } finally {
    capture.stop();
  }
  return capture;
}

describe('subscribing', () => {
  test('a new public channel: everyone but guests learns of it; the creator gets the subscription', async () => {
    const capture = await act([member, other, guest, admin], () =>
      client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'town-square', description: 'All *welcome*' }] }),
    );
    const id = assertSuccess(await client(ts, member).get('/get_stream_id', { stream: 'town-square' })).stream_id;
    expect(capture.recipientsOf(is('stream', 'create'))).toEqual(ids(owner, admin, member, other));
    expect(capture.recipientsOf(is('subscription', 'add'))).toEqual([member.id]);
    expect(capture.recipientsOf(is('subscription', 'peer_add'))).toEqual(ids(owner, admin, other));
    const [create] = capture.for(other.id).filter(is('stream', 'create'));
    expect(create).toMatchObject({
      type: 'stream',
      op: 'create',
      streams: [{ stream_id: id, name: 'town-square', stream_weekly_traffic: null, subscriber_count: 0 }],
    });
    const [add] = capture.for(member.id).filter(is('subscription', 'add'));
    expect(add.subscriptions).toEqual([
      expect.objectContaining({ stream_id: id, subscribers: [member.id], subscriber_count: 1, color: expect.any(String), in_home_view: true }),
    ]);
    expect(capture.for(other.id).find(is('subscription', 'peer_add'))).toEqual({
      type: 'subscription',
      op: 'peer_add',
      stream_ids: [id],
      user_ids: [member.id],
    });
    // The creator hears of the channel before the subscription.
    expect(capture.for(member.id).map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/add']);
  });

  test('a new private channel: only administrators and the creator learn of it', async () => {
    const capture = await act([member, admin, other], () =>
      client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'back-room' }], invite_only: true }),
    );
    expect(capture.recipientsOf(is('stream', 'create'))).toEqual(ids(owner, admin, member));
    expect(capture.recipientsOf(is('subscription', 'peer_add'))).toEqual(ids(owner, admin));
    expect(capture.for(other.id)).toEqual([]);
    expect(capture.for(guest.id)).toEqual([]);
  });

  test('adding someone to a private channel introduces it to them first', async () => {
    const capture = await act([other, member, admin], () =>
      client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'back-room' }], principals: [other.id] }),
    );
    expect(capture.for(other.id).map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/add']);
    expect(capture.recipientsOf(is('subscription', 'peer_add'))).toEqual(ids(owner, admin, member));
  });

  test('a guest added to a public channel gets it created for them', async () => {
    const capture = await act([guest, other], () =>
      client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'town-square' }], principals: [guest.id] }),
    );
    expect(capture.for(guest.id).map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/add']);
    expect(capture.recipientsOf(is('subscription', 'peer_add'))).toEqual(ids(owner, admin, member, other));
  });

  test('nothing is sent when nothing changes', async () => {
    const capture = await act([member], () => client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'town-square' }] }));
    expect(capture.deliveries).toEqual([]);
  });
});

describe('unsubscribing', () => {
  test('leaving a private channel removes it from the leaver’s view', async () => {
    const capture = await act([other, member, admin], () => client(ts, other).delete('/users/me/subscriptions', { subscriptions: ['back-room'] }));
    const id = assertSuccess(await client(ts, member).get('/get_stream_id', { stream: 'back-room' })).stream_id;
    expect(capture.for(other.id)).toEqual([
      { type: 'subscription', op: 'remove', subscriptions: [{ name: 'back-room', stream_id: id }] },
      { type: 'stream', op: 'delete', streams: [{ stream_id: id }], stream_ids: [id] },
    ]);
    expect(capture.recipientsOf(is('subscription', 'peer_remove'))).toEqual(ids(owner, admin, member));
  });

  test('a guest leaving a public channel loses sight of it; peers hear of it', async () => {
    const capture = await act([guest, member], () => client(ts, guest).delete('/users/me/subscriptions', { subscriptions: ['town-square'] }));
    expect(capture.recipientsOf(is('subscription', 'remove'))).toEqual([guest.id]);
    expect(capture.recipientsOf(is('subscription', 'peer_remove'))).toEqual(ids(owner, admin, member, other));
    // A guest cannot see a public channel it left.
    expect(capture.for(guest.id).filter(is('stream', 'delete'))).toHaveLength(1);
  });
});

describe('personal settings', () => {
  test('only the user hears, and muting sends the legacy in_home_view first', async () => {
    const id = assertSuccess(await client(ts, member).get('/get_stream_id', { stream: 'town-square' })).stream_id;
    const capture = await act([member], () =>
      client(ts, member).post('/users/me/subscriptions/properties', {
        subscription_data: [
          { stream_id: id, property: 'is_muted', value: true },
          { stream_id: id, property: 'color', value: '#00ff00' },
          { stream_id: id, property: 'desktop_notifications', value: false },
        ],
      }),
    );
    expect(capture.deliveries.every((d) => d.userIds.length === 1 && d.userIds[0] === member.id)).toBe(true);
    expect(capture.for(member.id)).toEqual([
      { type: 'subscription', op: 'update', property: 'in_home_view', value: false, stream_id: id },
      { type: 'subscription', op: 'update', property: 'is_muted', value: true, stream_id: id },
      { type: 'subscription', op: 'update', property: 'color', value: '#00ff00', stream_id: id },
      { type: 'subscription', op: 'update', property: 'desktop_notifications', value: false, stream_id: id },
    ]);
  });
});

describe('channel changes', () => {
  let secret: number;
  beforeAll(async () => {
    secret = await createChannel(ts, member, 'cabinet', { invite_only: true });
  });

  test('renaming a private channel: subscribers and administrators', async () => {
    const capture = await act([member, admin, other], () => client(ts, member).patch(`/streams/${secret}`, { new_name: 'cabinet-2' }));
    expect(capture.recipientsOf(is('stream', 'update'))).toEqual(ids(owner, admin, member));
    expect(capture.for(member.id)).toEqual([{ type: 'stream', op: 'update', property: 'name', value: 'cabinet-2', stream_id: secret, name: 'cabinet' }]);
  });

  test('a new description carries its rendering', async () => {
    const capture = await act([member], () => client(ts, member).patch(`/streams/${secret}`, { description: 'Decisions & <drafts>' }));
    expect(capture.for(member.id)).toEqual([
      {
        type: 'stream',
        op: 'update',
        property: 'description',
        value: 'Decisions & <drafts>',
        rendered_description: '<p>Decisions &amp; &lt;drafts&gt;</p>',
        stream_id: secret,
        name: 'cabinet-2',
      },
    ]);
  });

  test('making a channel public introduces it to everyone else', async () => {
    const capture = await act([other, member, guest], () => client(ts, member).patch(`/streams/${secret}`, { is_private: false }));
    expect(capture.for(other.id).map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/peer_add']);
    expect(capture.for(other.id)[1]).toMatchObject({ stream_ids: [secret], user_ids: [member.id] });
    expect(capture.recipientsOf(is('stream', 'update'))).toEqual(ids(owner, admin, member));
    expect(capture.for(member.id)).toEqual([
      {
        type: 'stream',
        op: 'update',
        property: 'invite_only',
        value: false,
        history_public_to_subscribers: true,
        is_web_public: false,
        stream_id: secret,
        name: 'cabinet-2',
      },
    ]);
    expect(capture.for(guest.id)).toEqual([]);
  });

  test('making it private again hides it from those outside', async () => {
    const capture = await act([other, member], () => client(ts, member).patch(`/streams/${secret}`, { is_private: true }));
    expect(capture.for(other.id)).toEqual([{ type: 'stream', op: 'delete', streams: [{ stream_id: secret }], stream_ids: [secret] }]);
    expect(capture.recipientsOf(is('stream', 'update'))).toEqual(ids(owner, admin, member));
  });

  test('granting can_subscribe_group reveals the channel; revoking hides it', async () => {
    const grant = await act([other, member], () =>
      client(ts, member).patch(`/streams/${secret}`, { can_subscribe_group: { new: { direct_members: [other.id], direct_subgroups: [] } } }),
    );
    expect(grant.for(other.id).map((e) => `${e.type}/${e.op}`)).toEqual(['stream/create', 'subscription/peer_add']);
    expect(grant.for(member.id)).toEqual([
      {
        type: 'stream',
        op: 'update',
        property: 'can_subscribe_group',
        value: { direct_members: [other.id], direct_subgroups: [] },
        stream_id: secret,
        name: 'cabinet-2',
      },
    ]);
    const revoke = await act([other, member], () => client(ts, member).patch(`/streams/${secret}`, { can_subscribe_group: { new: groups['role:nobody'] } }));
    expect(revoke.for(other.id).map((e) => `${e.type}/${e.op}`)).toEqual(['stream/delete']);
  });

  test('who may post also updates the legacy stream_post_policy', async () => {
    const capture = await act([member], () =>
      client(ts, member).patch(`/streams/${secret}`, { can_send_message_group: { new: groups['role:administrators'] } }),
    );
    expect(capture.for(member.id).map((e) => [e.property, e.value])).toEqual([
      ['can_send_message_group', groups['role:administrators']],
      ['stream_post_policy', 2],
      ['is_announcement_only', true],
    ]);
  });

  test('topics policy and retention updates reach everyone who sees the channel', async () => {
    const capture = await act([member, admin], async () => {
      assertSuccess(await client(ts, member).patch(`/streams/${secret}`, { topics_policy: 'disable_empty_topic' }));
      assertSuccess(await client(ts, owner).patch(`/streams/${secret}`, { message_retention_days: 7 }));
    });
    expect(capture.for(admin.id).map((e) => [e.property, e.value])).toEqual([
      ['topics_policy', 'disable_empty_topic'],
      ['message_retention_days', 7],
    ]);
  });
});

describe('archiving', () => {
  test('clients with archived_channels see is_archived; others see the channel deleted', async () => {
    const id = await createChannel(ts, member, 'old-news', { principals: [member.id, other.id] });
    const modern = registerOptions({}, { archived_channels: true });
    const legacy = registerOptions();
    const beforeModern = await fetchChannelState(ts, other, modern);
    const capture = await act([member, admin], () => client(ts, member).delete(`/streams/${id}`), legacy);
    const applied = await applyChannelEvents(ts, other, beforeModern, capture.for(other.id), modern);
    expect(applied).toEqual(await fetchChannelState(ts, other, modern));
    expect((applied.subscriptions as any[]).find((s) => s.stream_id === id).is_archived).toBe(true);
    expect(capture.recipientsOf(is('stream', 'update'))).toEqual(ids(owner, admin, member, other));
    expect(capture.for(other.id)).toEqual([
      { type: 'stream', op: 'update', property: 'is_archived', value: true, stream_id: id, name: 'old-news' },
      { type: 'stream', op: 'delete', streams: [{ stream_id: id }], stream_ids: [id], for_archiving: true },
    ]);
  });

  test('unarchiving brings it back for both kinds of clients', async () => {
    const id = assertSuccess(await client(ts, member).get('/streams', { exclude_archived: false })).streams.find((s: any) => s.name === 'old-news').stream_id;
    const modern = registerOptions({}, { archived_channels: true });
    const beforeModern = await fetchChannelState(ts, other, modern);
    const capture = await act([member, guest], () => client(ts, member).patch(`/streams/${id}`, { is_archived: false }));
    expect(await applyChannelEvents(ts, other, beforeModern, capture.for(other.id), modern)).toEqual(await fetchChannelState(ts, other, modern));
  });

  test('the delivery flags and their filter', () => {
    const archived = { type: 'stream', op: 'delete', stream_ids: [1], streams: [{ stream_id: 1 }], for_archiving: true };
    const update = { type: 'stream', op: 'update', property: 'is_archived', value: true, stream_id: 1, name: 'x' };
    expect(deliverableWithArchivedChannels(archived, true)).toBe(false);
    expect(deliverableWithArchivedChannels(archived, false)).toBe(true);
    expect(deliverableWithArchivedChannels(update, true)).toBe(true);
    expect(deliverableWithArchivedChannels(update, false)).toBe(false);
    expect(stripDeliveryFlags(archived)).toEqual({ type: 'stream', op: 'delete', stream_ids: [1], streams: [{ stream_id: 1 }] });
  });
});

describe('register state options', () => {
  test('without subscriber lists the state still follows the events', async () => {
    const options = registerOptions({ includeSubscribers: 'false' });
    await act(
      [other, member],
      () => client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'no-lists' }], principals: [member.id, other.id] }),
      options,
    );
    const state = await fetchChannelState(ts, other, options);
    expect((state.subscriptions as any[]).every((s) => !('subscribers' in s))).toBe(true);
  });

  test('partial lists are full lists here', async () => {
    const state = await fetchChannelState(ts, member, registerOptions({ includeSubscribers: 'partial' }));
    expect((state.subscriptions as any[]).find((s) => s.name === 'no-lists').subscribers).toEqual(ids(member, other));
    expect((state.subscriptions as any[]).every((s) => !('partial_subscribers' in s))).toBe(true);
  });

  test('never_subscribed lists visible channels; subscriber lists of invisible ones stay empty', async () => {
    const state = await fetchChannelState(ts, guest, registerOptions());
    expect(state.never_subscribed).toEqual([]);
    const memberState = await fetchChannelState(ts, other, registerOptions());
    expect((memberState.never_subscribed as any[]).map((s) => s.name)).toContain('town-square');
    expect((memberState.streams as any[]).map((s) => s.name)).not.toContain('back-room');
    const adminState = await fetchChannelState(ts, admin, registerOptions());
    expect((adminState.streams as any[]).map((s) => s.name)).toContain('back-room');
    expect((adminState.never_subscribed as any[]).find((s) => s.name === 'back-room').subscribers).toEqual([member.id]);
  });

  test('notification settings are booleans unless the client accepts nulls', async () => {
    const user = await User.query(ts.server.deps.knex).findById(member.id).throwIfNotFound();
    const legacy = registerOptions();
    const state = await fetchChannelState(ts, member, legacy);
    await subscriptionsSlice.finalize!(ts.server.deps, state, user, legacy);
    const sub = (state.subscriptions as any[]).find((s) => s.name === 'no-lists');
    expect(sub).toMatchObject({
      desktop_notifications: false,
      audible_notifications: false,
      push_notifications: false,
      email_notifications: false,
      wildcard_mentions_notify: true,
    });
    const modern = registerOptions({}, { notification_settings_null: true });
    const raw = await fetchChannelState(ts, member, modern);
    await subscriptionsSlice.finalize!(ts.server.deps, raw, user, modern);
    expect((raw.subscriptions as any[]).find((s) => s.name === 'no-lists').desktop_notifications).toBe(null);

    // The defaults are the user's own settings.
    assertSuccess(
      await client(ts, member).patch('/settings', {
        enable_stream_desktop_notifications: true,
        enable_stream_email_notifications: true,
        wildcard_mentions_notify: false,
      }),
    );
    const mine = await fetchChannelState(ts, member, legacy);
    await subscriptionsSlice.finalize!(ts.server.deps, mine, user, legacy);
    expect((mine.subscriptions as any[]).find((s) => s.name === 'no-lists')).toMatchObject({
      desktop_notifications: true,
      audible_notifications: false,
      push_notifications: false,
      email_notifications: true,
      wildcard_mentions_notify: false,
    });
    assertSuccess(
      await client(ts, member).patch('/settings', {
        enable_stream_desktop_notifications: false,
        enable_stream_email_notifications: false,
        wildcard_mentions_notify: true,
      }),
    );
  });

  test('applying an event the snapshot already reflects changes nothing', async () => {
    const options = registerOptions();
    const capture = captureEvents(ts);
    assertSuccess(await client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'twice' }], principals: [member.id, other.id] }));
    capture.stop();
    const fresh = await fetchChannelState(ts, other, options);
    const replayed = await applyChannelEvents(ts, other, structuredClone(fresh), capture.for(other.id).map(stripDeliveryFlags), options);
    expect(replayed).toEqual(fresh);
  });
});
