import { stateSlices } from '../../src/core/register/slices';
import type { StateSlice } from '../../src/core/register/slice';
import { createUser, updateUser } from '../../src/core/users/actions';
import { User } from '../../src/core/users/model';
import { apiRequest, assertError, assertSuccess, client } from '../helpers/api';
import { captureEvents, getEvents, registerQueue, verifyAction } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(120_000);

let ts: TestServer;
let member: TestUser;
let guest: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
});
afterAll(async () => {
  await ts.close();
});

const register = (who: TestUser, params: Record<string, unknown> = {}) => client(ts, who).post('/register', params);

describe('POST /register response', () => {
  test('carries the queue, the version and every slice by default', async () => {
    const body = assertSuccess(await register(ts.owner));
    expect(typeof body.queue_id).toBe('string');
    expect(body.last_event_id).toBe(-1);
    expect(body).toMatchObject({
      service_feature_level: expect.any(Number),
      service_version: expect.any(String),
      zulip_feature_level: body.service_feature_level,
      zulip_version: body.service_version,
      zulip_merge_base: body.service_version,
      realm_name: 'Test Org',
      max_topic_length: 60,
      max_stream_name_length: 60,
      max_message_length: 10000,
      max_channel_folder_name_length: 60,
      max_channel_folder_description_length: 1024,
      realm_empty_topic_display_name: 'general chat',
      realm_topics_policy: 'allow_empty_topic',
      user_id: ts.owner.id,
      is_owner: true,
    });
    expect(body.realm_users.map((u: { user_id: number }) => u.user_id)).toEqual(expect.arrayContaining([ts.owner.id, member.id, guest.id]));
    expect(body.ignored_parameters_unsupported).toBeUndefined();
  });

  test('fetch_event_types selects slices, ignoring unknown types', async () => {
    const body = assertSuccess(await register(ts.owner, { fetch_event_types: ['realm', 'no_such_type'] }));
    expect(body.realm_name).toBe('Test Org');
    expect(body.realm_users).toBeUndefined();
    expect(body.user_id).toBeUndefined();
  });

  test('without fetch_event_types, event_types selects the slices', async () => {
    const body = assertSuccess(await register(ts.owner, { event_types: ['realm_user'] }));
    expect(body.realm_users).toBeDefined();
    expect(body.realm_name).toBeUndefined();
  });

  test('an empty type list fetches only the always-present fields', async () => {
    const body = assertSuccess(await register(ts.owner, { fetch_event_types: [] }));
    expect(Object.keys(body).sort()).toEqual(
      [
        'idle_queue_timeout_secs',
        'last_event_id',
        'msg',
        'queue_id',
        'result',
        'service_feature_level',
        'service_version',
        'zulip_feature_level',
        'zulip_merge_base',
        'zulip_version',
      ].sort(),
    );
  });

  test('fetch_event_types picks the state while event_types picks the events', async () => {
    const body = assertSuccess(await register(ts.owner, { fetch_event_types: ['realm'], event_types: ['realm_user'] }));
    expect(body.realm_users).toBeUndefined();
    const created = await makeUser(ts, 400);
    const events = await getEvents(ts, ts.owner, body.queue_id, -1, { dontBlock: true });
    expect(events).toEqual([expect.objectContaining({ type: 'realm_user', op: 'add', person: expect.objectContaining({ user_id: created.id }) })]);
  });

  test('client_gravatar defaults to true: gravatar URLs are left to the client', async () => {
    const withDefault = assertSuccess(await register(ts.owner, { fetch_event_types: ['realm_user'] }));
    const mine = withDefault.realm_users.find((u: { user_id: number }) => u.user_id === member.id);
    expect(mine.avatar_url).toBeNull();
    // The requester's own avatar_url is always a full URL.
    expect(withDefault.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    const explicit = assertSuccess(await register(ts.owner, { fetch_event_types: ['realm_user'], client_gravatar: false }));
    expect(explicit.realm_users.find((u: { user_id: number }) => u.user_id === member.id).avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
  });

  test('accepts every client capability, and queue options, without reporting them as ignored', async () => {
    const capabilities = {
      notification_settings_null: true,
      bulk_message_deletion: true,
      user_avatar_url_field_optional: true,
      stream_typing_notifications: true,
      user_settings_object: true,
      linkifier_url_template: true,
      user_list_incomplete: true,
      include_deactivated_groups: true,
      archived_channels: true,
      empty_topic_name: true,
      simplified_presence_events: true,
    };
    const body = assertSuccess(
      await register(ts.owner, {
        apply_markdown: true,
        client_gravatar: false,
        include_subscribers: 'partial',
        slim_presence: true,
        presence_history_limit_days: 365,
        presence_last_update_id: 5,
        event_types: ['realm_user'],
        fetch_event_types: ['realm'],
        all_public_streams: true,
        narrow: [['is', 'dm']],
        client_capabilities: capabilities,
        queue_lifespan_secs: 120,
      }),
    );
    expect(body.ignored_parameters_unsupported).toBeUndefined();
    const descriptor = await ts.server.deps.realtime!.queues.store.descriptor(body.queue_id);
    expect(descriptor).toMatchObject({
      userId: ts.owner.id,
      eventTypes: ['realm_user'],
      narrow: [['is', 'dm']],
      allPublicStreams: true,
      applyMarkdown: true,
      clientGravatar: false,
      slimPresence: true,
      capabilities,
      timeoutSecs: 120,
    });
  });

  test('undeclared capabilities are false; unknown capability names are ignored', async () => {
    const body = assertSuccess(await register(ts.owner, { client_capabilities: { notification_settings_null: true, some_future_capability: true } }));
    const descriptor = await ts.server.deps.realtime!.queues.store.descriptor(body.queue_id);
    expect(descriptor!.capabilities).toMatchObject({ notification_settings_null: true, bulk_message_deletion: false, empty_topic_name: false });
    expect(descriptor!.capabilities).not.toHaveProperty('some_future_capability');
  });

  test('queue_lifespan_secs: 0 means the server default, large values are capped at a week', async () => {
    const queues = ts.server.deps.realtime!.queues;
    const byDefault = assertSuccess(await register(ts.owner, { fetch_event_types: [] }));
    expect((await queues.store.descriptor(byDefault.queue_id))!.timeoutSecs).toBe(ts.server.deps.config.queueTimeoutSeconds);
    const huge = assertSuccess(await register(ts.owner, { fetch_event_types: [], queue_lifespan_secs: 10 ** 9 }));
    expect((await queues.store.descriptor(huge.queue_id))!.timeoutSecs).toBe(7 * 24 * 3600);
  });

  test('include_subscribers takes true, false and "partial", quoted or not', async () => {
    for (const value of [true, false, 'partial', '"partial"']) {
      assertSuccess(await register(ts.owner, { fetch_event_types: [], include_subscribers: value }));
    }
  });

  test('unknown parameters are reported', async () => {
    const body = assertSuccess(await register(ts.owner, { fetch_event_types: [], whatever: 1 }));
    expect(body.ignored_parameters_unsupported).toEqual(['whatever']);
  });
});

describe('POST /register errors', () => {
  test('needs credentials', async () => {
    assertError(await apiRequest(ts, null, 'POST', '/register'), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });

  test.each([
    [{ client_capabilities: { bulk_message_deletion: true } }, 'notification_settings_null key is missing from client_capabilities'],
    [{ client_capabilities: [1] }, 'client_capabilities is not a dict'],
    [{ client_capabilities: { notification_settings_null: 1 } }, 'client_capabilities["notification_settings_null"] is not a boolean'],
    [{ client_capabilities: { notification_settings_null: true, other: 'yes' } }, 'client_capabilities contains a value that is not a boolean'],
    [{ narrow: [['is']] }, 'narrow[0] should have exactly 2 items'],
    [{ narrow: [['search', 'x']] }, 'Operator search not supported.'],
    [{ narrow: [['is', 'followed']] }, 'Operand followed not supported.'],
    [{ narrow: 'is:dm' }, 'Argument "narrow" is not valid JSON.'],
    [{ narrow: { is: 'dm' } }, 'narrow is not a list'],
    [{ include_subscribers: 'some' }, 'Invalid include_subscribers'],
    [{ event_types: 'message' }, 'Argument "event_types" is not valid JSON.'],
    [{ event_types: [1] }, 'event_types[0] is not a string'],
    [{ fetch_event_types: {} }, 'fetch_event_types is not a list'],
    [{ queue_lifespan_secs: -1 }, 'queue_lifespan_secs is too small'],
    [{ apply_markdown: 'yes' }, 'Argument "apply_markdown" is not valid JSON.'],
    [{ presence_history_limit_days: 'x' }, 'Argument "presence_history_limit_days" is not valid JSON.'],
  ])('%j', async (params, msg) => {
    const code = msg.startsWith('Argument') ? 'INVALID_JSON' : 'BAD_REQUEST';
    assertError(await register(ts.owner, params), code, msg);
  });

  test('guests may not follow all public channels', async () => {
    assertError(await register(guest, { all_public_streams: true }), 'BAD_REQUEST', 'User not authorized for this query');
    assertSuccess(await register(guest, { all_public_streams: false }));
  });
});

describe('events that arrive while register reads the state', () => {
  /** Runs `during` in the middle of register, between the queue's creation and the end of the fetch. */
  async function withSliceAt(position: 'first' | 'last', during: () => Promise<void>, run: () => Promise<void>) {
    const slice: StateSlice = {
      fetchTypes: ['realm_user'],
      async fetch() {
        await during();
        return {};
      },
    };
    if (position === 'first') stateSlices.unshift(slice);
    else stateSlices.push(slice);
    try {
      await run();
    } finally {
      stateSlices.splice(stateSlices.indexOf(slice), 1);
    }
  }

  test('an event the fetched state missed is applied, and last_event_id covers it', async () => {
    let createdId = 0;
    await withSliceAt(
      'last',
      async () => {
        createdId = (await createUser(ts.server.deps, null, { email: 'race-late@example.com', fullName: 'Race Late', password: null })).user.id;
      },
      async () => {
        const published = captureEvents(ts);
        const reg = await registerQueue(ts, ts.owner, { fetchEventTypes: ['realm_user'] });
        published.stop();
        expect(reg.state.realm_users.filter((u: { user_id: number }) => u.user_id === createdId)).toHaveLength(1);
        // Every event published meanwhile (the new user, and their system groups) is covered.
        expect(published.of('realm_user', 'add')).toHaveLength(1);
        expect(reg.lastEventId).toBe(published.deliveries.length - 1);
        // The client's first poll acknowledges it: it does not come back.
        expect(await getEvents(ts, ts.owner, reg.queueId, reg.lastEventId, { dontBlock: true })).toEqual([]);
      },
    );
  });

  test('an event the fetched state already reflects is not applied twice', async () => {
    let createdId = 0;
    let renamedTo = '';
    await withSliceAt(
      'first',
      async () => {
        createdId = (await createUser(ts.server.deps, null, { email: 'race-early@example.com', fullName: 'Race Early', password: null })).user.id;
        const owner = (await User.query(ts.server.deps.knex).findById(ts.owner.id))!;
        renamedTo = 'Race Renamed';
        await updateUser(ts.server.deps, owner, createdId, { fullName: renamedTo });
      },
      async () => {
        const published = captureEvents(ts);
        const reg = await registerQueue(ts, ts.owner, { fetchEventTypes: ['realm_user'] });
        published.stop();
        const copies = reg.state.realm_users.filter((u: { user_id: number }) => u.user_id === createdId);
        expect(copies).toHaveLength(1);
        expect(copies[0].full_name).toBe(renamedTo);
        expect(published.of('realm_user')).toHaveLength(2);
        expect(reg.lastEventId).toBe(published.deliveries.length - 1);
        expect(await getEvents(ts, ts.owner, reg.queueId, reg.lastEventId, { dontBlock: true })).toEqual([]);
      },
    );
  });
});

test('a register that fails while reading the state leaves no queue behind', async () => {
  const failing: StateSlice = {
    fetchTypes: ['failing_slice'],
    async fetch() {
      throw new Error('state unavailable');
    },
  };
  stateSlices.push(failing);
  const errorLog = jest.spyOn(console, 'error').mockImplementation(() => {});
  try {
    const queues = ts.server.deps.realtime!.queues;
    const before = await queues.store.count();
    const res = await register(ts.owner, { fetch_event_types: ['failing_slice'] });
    expect(res.status).toBe(500);
    expect(await queues.store.count()).toBe(before);
  } finally {
    errorLog.mockRestore();
    stateSlices.splice(stateSlices.indexOf(failing), 1);
  }
});

describe('realm_user events reproduce a fresh register', () => {
  test('creating a user, as seen by the owner, a member and a guest', async () => {
    for (const viewer of [ts.owner, member, guest]) {
      const events = await verifyAction(ts, viewer, () =>
        client(ts, ts.owner).post('/users', { email: `new-${viewer.id}@example.com`, password: 'secret-pass-1', full_name: 'New Person' }),
      );
      // The new user also joins their role's system groups.
      expect(events[0]).toMatchObject({ type: 'realm_user', op: 'add' });
      expect(events.slice(1).map((e) => `${e.type}/${e.op}`)).toEqual(events.slice(1).map(() => 'user_group/add_members'));
    }
  });

  test('creating a user, with and without client_gravatar', async () => {
    let n = 0;
    for (const clientGravatar of [true, false]) {
      const events = await verifyAction(
        ts,
        member,
        () =>
          client(ts, ts.owner).post('/users', { email: `grav-${clientGravatar}-${n++}@example.com`, password: 'secret-pass-1', full_name: 'Gravatar User' }),
        { clientGravatar },
      );
      const avatar = events[0].person.avatar_url;
      if (clientGravatar) expect(avatar).toBeNull();
      else expect(avatar).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);
    }
  });

  test('renaming a user, including oneself', async () => {
    const target = await makeUser(ts, 400);
    await verifyAction(ts, member, () => client(ts, ts.owner).patch(`/users/${target.id}`, { full_name: 'Renamed Target' }));
    const events = await verifyAction(ts, target, () => client(ts, ts.owner).patch(`/users/${target.id}`, { full_name: 'Renamed Again' }));
    expect(events).toEqual([expect.objectContaining({ op: 'update', person: { user_id: target.id, full_name: 'Renamed Again' } })]);
  });

  test('changing roles, seen by others and by the user', async () => {
    const target = await makeUser(ts, 400);
    for (const role of [300, 200, 600, 100, 400]) {
      await verifyAction(ts, target, () => client(ts, ts.owner).patch(`/users/${target.id}`, { role }));
      await verifyAction(ts, member, () => client(ts, ts.owner).patch(`/users/${target.id}`, { role: role === 400 ? 300 : 400 }));
      await verifyAction(ts, member, () => client(ts, ts.owner).patch(`/users/${target.id}`, { role }));
    }
  });

  test('deactivating and reactivating a user', async () => {
    const target = await makeUser(ts, 400);
    for (const viewer of [ts.owner, member, guest]) {
      await verifyAction(ts, viewer, () => client(ts, ts.owner).delete(`/users/${target.id}`));
      await verifyAction(ts, viewer, () => client(ts, ts.owner).post(`/users/${target.id}/reactivate`));
    }
  });

  test('only the realm_user slice fetched', async () => {
    const target = await makeUser(ts, 400);
    await verifyAction(ts, member, () => client(ts, ts.owner).patch(`/users/${target.id}`, { role: 300 }), { fetchEventTypes: ['realm_user'] });
  });
});
