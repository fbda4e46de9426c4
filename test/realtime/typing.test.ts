import { noChannels, registerChannelTypingAudience, MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS } from '../../src/core/typing/actions';
import { placeholderEmail } from '../../src/core/users/view';
import { assertError, assertSuccess, client } from '../helpers/api';
import { getEvents, registerQueue, verifyAction } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(120_000);

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  carol = await makeUser(ts, 400);
});
afterAll(async () => {
  registerChannelTypingAudience(noChannels);
  await ts.close();
});

const typing = (who: TestUser, params: Record<string, unknown>) => client(ts, who).post('/typing', params);
const queueOf = (who: TestUser, capabilities: Record<string, boolean> = {}) =>
  registerQueue(ts, who, { fetchEventTypes: [], eventTypes: ['typing'], capabilities });
const received = async (who: TestUser, queueId: string) => (await getEvents(ts, who, queueId, -1, { dontBlock: true })).map(({ id: _id, ...rest }) => rest);

/** Personal settings as the settings feature stores them (one row per user, a column per setting). */
async function setSetting(user: TestUser, setting: string, value: boolean): Promise<void> {
  const knex = ts.server.deps.knex;
  await knex('user_settings')
    .insert({ user_id: user.id, realm_id: ts.server.deps.realmId, [setting]: value })
    .onConflict('user_id')
    .merge([setting]);
}

describe('direct-message typing', () => {
  test('reaches every participant, the sender included, and nobody else', async () => {
    const [a, b, c] = [await queueOf(alice), await queueOf(bob), await queueOf(carol)];
    assertSuccess(await typing(alice, { op: 'start', to: [bob.id] }));
    const expected = {
      type: 'typing',
      op: 'start',
      message_type: 'direct',
      sender: { user_id: alice.id, email: alice.email },
      recipients: [
        { user_id: bob.id, email: bob.email },
        { user_id: alice.id, email: alice.email },
      ],
    };
    expect(await received(alice, a.queueId)).toEqual([expected]);
    expect(await received(bob, b.queueId)).toEqual([expected]);
    expect(await received(carol, c.queueId)).toEqual([]);
  });

  test('stop, to a group, with type given explicitly', async () => {
    const c = await queueOf(carol);
    assertSuccess(await typing(alice, { type: 'direct', op: 'stop', to: [bob.id, carol.id, bob.id] }));
    const [event] = await received(carol, c.queueId);
    expect(event).toMatchObject({ op: 'stop', message_type: 'direct', sender: { user_id: alice.id } });
    expect(event.recipients.map((r: { user_id: number }) => r.user_id)).toEqual([bob.id, carol.id, alice.id]);
  });

  test('typing to oneself', async () => {
    const a = await queueOf(alice);
    assertSuccess(await typing(alice, { op: 'start', to: [alice.id] }));
    expect(await received(alice, a.queueId)).toEqual([
      {
        type: 'typing',
        op: 'start',
        message_type: 'direct',
        sender: { user_id: alice.id, email: alice.email },
        recipients: [{ user_id: alice.id, email: alice.email }],
      },
    ]);
  });

  test('does not change any register state', async () => {
    await verifyAction(ts, bob, () => typing(alice, { op: 'start', to: [bob.id] }));
  });

  test('a deactivated participant is listed but not notified', async () => {
    const gone = await makeUser(ts, 400);
    const g = await queueOf(gone);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
    const b = await queueOf(bob);
    assertSuccess(await typing(alice, { op: 'start', to: [bob.id, gone.id] }));
    const [event] = await received(bob, b.queueId);
    expect(event.recipients.map((r: { user_id: number }) => r.user_id)).toEqual([bob.id, gone.id, alice.id]);
    expect(await ts.server.deps.realtime!.queues.store.peek(g.queueId)).toEqual([]);
  });

  test('addresses appear as each participant may see them', async () => {
    const shy = await makeUser(ts, 400);
    const admin = await makeUser(ts, 200);
    await ts.server.deps.knex('users').where({ id: shy.id }).update({ email_address_visibility: 3 });
    const [b, ad] = [await queueOf(bob), await queueOf(admin)];
    assertSuccess(await typing(shy, { op: 'start', to: [bob.id, admin.id] }));
    const hidden = placeholderEmail(ts.server.deps.config, shy.id);
    expect((await received(bob, b.queueId))[0].sender).toEqual({ user_id: shy.id, email: hidden });
    expect((await received(admin, ad.queueId))[0].sender).toEqual({ user_id: shy.id, email: shy.email });
  });

  test.each([
    [{ to: [1] }, 'REQUEST_VARIABLE_MISSING', "Missing 'op' argument"],
    [{ op: 'typing', to: [1] }, 'BAD_REQUEST', 'Invalid op'],
    [{ type: 'group', op: 'start', to: [1] }, 'BAD_REQUEST', 'Invalid type'],
    [{ op: 'start' }, 'BAD_REQUEST', "Missing 'to' argument"],
    [{ op: 'start', to: [] }, 'BAD_REQUEST', "Empty 'to' list"],
    [{ op: 'start', to: 2 }, 'BAD_REQUEST', 'to is not a list'],
    [{ op: 'start', to: [2, 'a', 4] }, 'BAD_REQUEST', 'to[1] is not an integer'],
    [{ op: 'start', to: [9999999] }, 'BAD_REQUEST', 'Invalid user ID 9999999'],
  ])('%j is refused', async (params, code, msg) => {
    assertError(await typing(alice, params), code, msg);
  });
});

describe('channel typing', () => {
  test('is refused while the channel is unknown', async () => {
    for (const type of ['stream', 'channel']) {
      assertError(await typing(alice, { type, op: 'start', stream_id: 5, topic: 'plans' }), 'BAD_REQUEST', 'Invalid channel ID');
    }
  });

  test.each([
    [{ type: 'stream', op: 'start', topic: 'x' }, "Missing 'stream_id' argument"],
    [{ type: 'channel', op: 'start', stream_id: 5 }, 'Missing topic'],
    [{ type: 'channel', op: 'start', stream_id: 'five', topic: 'x' }, 'Argument "stream_id" is not valid JSON.'],
  ])('%j is refused', async (params, msg) => {
    assertError(await typing(alice, params), msg.startsWith('Argument') ? 'INVALID_JSON' : 'BAD_REQUEST', msg);
  });

  test('reaches the audience the channels feature names, if their clients show channel typing', async () => {
    registerChannelTypingAudience(async (_deps, _sender, streamId) => (streamId === 5 ? [alice.id, bob.id] : []));
    try {
      const able = await queueOf(bob, { stream_typing_notifications: true, empty_topic_name: true });
      const unable = await queueOf(bob);
      const outsider = await queueOf(carol, { stream_typing_notifications: true });
      assertSuccess(await typing(alice, { type: 'channel', op: 'start', stream_id: 5, topic: 'general chat' }));
      expect(await received(bob, able.queueId)).toEqual([
        { type: 'typing', op: 'start', message_type: 'stream', sender: { user_id: alice.id, email: alice.email }, stream_id: 5, topic: '' },
      ]);
      expect(await received(bob, unable.queueId)).toEqual([]);
      expect(await received(carol, outsider.queueId)).toEqual([]);
    } finally {
      registerChannelTypingAudience(noChannels);
    }
  });

  test('is not sent in very large channels', async () => {
    const crowd = Array.from({ length: MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS + 1 }, (_, i) => (i === 0 ? bob.id : 100000 + i));
    registerChannelTypingAudience(async () => crowd);
    try {
      const b = await queueOf(bob, { stream_typing_notifications: true });
      assertSuccess(await typing(alice, { type: 'stream', op: 'start', stream_id: 5, topic: 'busy' }));
      expect(await received(bob, b.queueId)).toEqual([]);
    } finally {
      registerChannelTypingAudience(noChannels);
    }
  });
});

describe('typing preferences', () => {
  beforeAll(async () => {
    // The settings feature keeps these in user_settings; create the table if this build has none.
    const knex = ts.server.deps.knex;
    if (!(await knex.schema.hasTable('user_settings'))) {
      await knex.schema.createTable('user_settings', (t) => {
        t.integer('user_id').primary();
        t.integer('realm_id').notNullable();
        t.boolean('receives_typing_notifications').notNullable().defaultTo(true);
        t.boolean('send_private_typing_notifications').notNullable().defaultTo(true);
        t.boolean('send_stream_typing_notifications').notNullable().defaultTo(true);
      });
    }
  });

  test('users who turned off receiving get nothing; users without a stored preference still do', async () => {
    const quiet = await makeUser(ts, 400);
    await setSetting(quiet, 'receives_typing_notifications', false);
    const [q, b] = [await queueOf(quiet), await queueOf(bob)];
    assertSuccess(await typing(alice, { op: 'start', to: [quiet.id, bob.id] }));
    expect(await received(quiet, q.queueId)).toEqual([]);
    expect(await received(bob, b.queueId)).toHaveLength(1);
  });

  test('a sender who turned sending off is told so', async () => {
    const silent = await makeUser(ts, 400);
    await setSetting(silent, 'send_private_typing_notifications', false);
    await setSetting(silent, 'send_stream_typing_notifications', false);
    assertError(await typing(silent, { op: 'start', to: [bob.id] }), 'BAD_REQUEST', 'User has disabled typing notifications for direct messages');
    assertError(
      await typing(silent, { type: 'channel', op: 'start', stream_id: 5, topic: 'x' }),
      'BAD_REQUEST',
      'User has disabled typing notifications for channel messages',
    );
  });
});
