import { Knex } from 'knex';
import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { capture, Capture } from '../settings/capture';
import { applyEvents, registerOptions, registerState } from '../settings/register-state';

let ts: TestServer;
let events: Capture;
let knex: Knex;

beforeAll(async () => {
  ts = await startTestServer();
  events = capture(ts);
  knex = ts.server.deps.knex;
}, 120_000);
afterAll(async () => {
  events.stop();
  await ts.close();
});

async function newUser(role: 100 | 200 | 300 | 400 | 600 = 400): Promise<TestUser> {
  const user = await makeUser(ts, role);
  events.clear();
  return user;
}

const report = (user: TestUser, params: Record<string, unknown> = {}) => client(ts, user).post('/users/me/presence', { status: 'active', ...params });

const withoutTimestamp = (state: Record<string, unknown>) => {
  const { server_timestamp: _t, ...rest } = state;
  return rest;
};

describe('register state', () => {
  test('presences, presence_last_update_id and server_timestamp, legacy or slim', async () => {
    const member = await newUser();
    const other = await newUser();
    assertSuccess(await report(other, { ping_only: true }));
    const legacy = await registerState(ts, member.id, ['presence'], registerOptions());
    expect(Object.keys(legacy).sort()).toEqual(['presence_last_update_id', 'presences', 'server_timestamp']);
    expect((legacy.presences as Record<string, unknown>)[other.email]).toBeDefined();
    const row = await knex('user_presence').max('last_update_id as id').first();
    expect(legacy.presence_last_update_id).toBe(Number(row!.id));
    const slim = await registerState(ts, member.id, ['presence'], registerOptions({ slimPresence: true }));
    expect((slim.presences as Record<string, unknown>)[String(other.id)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
  });

  test('presence_history_limit_days bounds the data; nothing at all gives -1', async () => {
    const member = await newUser();
    const old = await newUser();
    assertSuccess(await report(old, { ping_only: true }));
    await knex('user_presence')
      .where({ user_id: old.id })
      .update({ last_connected_time: new Date(Date.now() - 5 * 24 * 3600 * 1000) });
    const short = await registerState(ts, member.id, ['presence'], registerOptions({ slimPresence: true, presenceHistoryLimitDays: 2 }));
    expect((short.presences as Record<string, unknown>)[String(old.id)]).toBeUndefined();
    const long = await registerState(ts, member.id, ['presence'], registerOptions({ slimPresence: true, presenceHistoryLimitDays: 7 }));
    expect((long.presences as Record<string, unknown>)[String(old.id)]).toBeDefined();
    const none = await registerState(ts, member.id, ['presence'], registerOptions({ presenceHistoryLimitDays: 0 }));
    expect(none.presences).toEqual({});
    expect(none.presence_last_update_id).toBe(-1);
  });

  test.each([[false], [true]])('presence events keep the snapshot current (slim_presence %s)', async (slimPresence) => {
    const viewer = await newUser();
    const comer = await newUser();
    const options = registerOptions({ slimPresence });
    const state = await registerState(ts, viewer.id, ['presence'], options);
    assertSuccess(await report(comer, { ping_only: true }));
    const received = events.forUser(viewer.id);
    expect(received.map((e) => e.type)).toEqual(['presence']);
    await applyEvents(ts, viewer.id, ['presence'], state, received, options);
    const fresh = await registerState(ts, viewer.id, ['presence'], options);
    // The update id is not in the event: a client's next poll starts from the snapshot's id.
    const { presence_last_update_id: _a, ...applied } = withoutTimestamp(state);
    const { presence_last_update_id: _b, ...expected } = withoutTimestamp(fresh);
    expect(applied).toEqual(expected);
  });
});

describe('GraphQL', () => {
  test('updatePresence reports and returns modern presence', async () => {
    const member = await newUser();
    const res = await graphql(
      ts,
      member,
      'mutation($input: UpdatePresenceInput!) { updatePresence(input: $input) { presenceLastUpdateId serverTimestamp presences { userId activeTimestamp idleTimestamp } } }',
      { input: { status: 'active', lastUpdateId: -1 } },
    );
    const result = res.data!.updatePresence;
    const mine = result.presences.find((p: { userId: number }) => p.userId === member.id);
    expect(mine.activeTimestamp).toBe(mine.idleTimestamp);
    expect(result.presenceLastUpdateId).toBeGreaterThan(0);
    expect(result.serverTimestamp).toBeGreaterThan(0);
    expect(events.of('presence')).toHaveLength(1);

    const again = await graphql(
      ts,
      member,
      'mutation($input: UpdatePresenceInput!) { updatePresence(input: $input) { presenceLastUpdateId presences { userId } } }',
      { input: { status: 'idle', lastUpdateId: result.presenceLastUpdateId } },
    );
    expect(again.data!.updatePresence).toEqual({ presenceLastUpdateId: result.presenceLastUpdateId, presences: [] });

    const ping = await graphql(
      ts,
      member,
      'mutation { updatePresence(input: { status: "active", pingOnly: true }) { presenceLastUpdateId serverTimestamp presences { userId } } }',
    );
    expect(ping.data!.updatePresence).toEqual({ presenceLastUpdateId: -1, serverTimestamp: null, presences: [] });
  });

  test('errors carry the REST codes and messages', async () => {
    const member = await newUser();
    const bad = await graphql(ts, member, 'mutation { updatePresence(input: { status: "away" }) { presenceLastUpdateId } }');
    expect(graphqlError(bad)).toEqual({ message: 'Invalid status: away', code: 'BAD_REQUEST' });
    const fraction = await graphql(ts, member, 'mutation { updatePresence(input: { status: "idle", lastUpdateId: 1.5 }) { presenceLastUpdateId } }');
    expect(graphqlError(fraction)).toEqual({ message: 'last_update_id is not an integer', code: 'BAD_REQUEST' });
    const silent = await newUser();
    const none = await graphql(ts, member, `{ userPresence(userId: ${silent.id}) { userId } }`);
    expect(graphqlError(none)).toEqual({ message: `No presence data for ${silent.id}`, code: 'BAD_REQUEST' });
    const anonymous = await graphql(ts, null, '{ presences { presenceLastUpdateId } }');
    expect(graphqlError(anonymous).code).toBe('UNAUTHORIZED');
  });

  test('presences and userPresence read what REST reads', async () => {
    const member = await newUser(600);
    const other = await newUser();
    assertSuccess(await report(other, { ping_only: true }));
    const rest = assertSuccess(await client(ts, member).get(`/users/${other.id}/presence`, { slim_presence: true }));
    const one = await graphql(ts, member, `{ userPresence(userId: ${other.id}) { userId activeTimestamp idleTimestamp } }`);
    expect(one.data!.userPresence).toEqual({
      userId: other.id,
      activeTimestamp: rest.presence.active_timestamp,
      idleTimestamp: rest.presence.idle_timestamp,
    });
    const all = await graphql(ts, member, '{ presences(historyLimitDays: 1) { presenceLastUpdateId presences { userId } } }');
    expect(all.data!.presences.presences.map((p: { userId: number }) => p.userId)).toContain(other.id);
  });
});
