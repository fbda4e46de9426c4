import { Knex } from 'knex';
import { presenceEventForQueue } from '../../src/core/presence/connect';
import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { capture, Capture } from '../settings/capture';

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
beforeEach(() => events.clear());

async function newUser(role: 100 | 200 | 300 | 400 | 600 = 400): Promise<TestUser> {
  const user = await makeUser(ts, role);
  events.clear();
  return user;
}

const report = (user: TestUser, params: Record<string, unknown> = {}) => client(ts, user).post('/users/me/presence', { status: 'active', ...params });

const rowOf = (user: TestUser) => knex('user_presence').where({ user_id: user.id }).first();

/** Moves a user's stored presence into the past, as if time had passed. */
const age = (user: TestUser, seconds: number) =>
  knex('user_presence')
    .where({ user_id: user.id })
    .update({
      last_active_time: knex.raw(`last_active_time - interval '${seconds} seconds'`),
      last_connected_time: knex.raw(`last_connected_time - interval '${seconds} seconds'`),
    });

const activeIds = async () =>
  ((await knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id')) as number[]).sort((a, b) => a - b);
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('POST /users/me/presence: parameters', () => {
  test('status is required and must be active or idle', async () => {
    const member = await newUser();
    const missing = await client(ts, member).post('/users/me/presence', {});
    assertError(missing, 'REQUEST_VARIABLE_MISSING', "Missing 'status' argument");
    expect(missing.body.var_name).toBe('status');
    assertError(await report(member, { status: 'away' }), 'BAD_REQUEST', 'Invalid status: away');
    assertError(await report(member, { status: 'Active' }), 'BAD_REQUEST', 'Invalid status: Active');
    expect(await rowOf(member)).toBeUndefined();
  });

  test.each([
    [{ last_update_id: 'x' }, 'INVALID_JSON', 'Argument "last_update_id" is not valid JSON.'],
    [{ last_update_id: 1.5 }, 'BAD_REQUEST', 'last_update_id is not an integer'],
    [{ history_limit_days: '"7"' }, 'BAD_REQUEST', 'history_limit_days is not an integer'],
    [{ ping_only: 'yes' }, 'INVALID_JSON', 'Argument "ping_only" is not valid JSON.'],
    [{ new_user_input: 1 }, 'BAD_REQUEST', 'new_user_input is not a boolean'],
    [{ slim_presence: 'null' }, 'BAD_REQUEST', 'slim_presence is not a boolean'],
  ])('%j is refused', async (params, code, msg) => {
    const member = await newUser();
    assertError(await report(member, params), code, msg);
  });

  test('every role reports presence; unknown parameters are reported as ignored', async () => {
    for (const role of [100, 200, 300, 400, 600] as const) {
      const user = await newUser(role);
      const body = assertSuccess(await report(user, { new_user_input: true, client: 'website' }));
      expect(body.ignored_parameters_unsupported).toEqual(['client']);
      expect(await rowOf(user)).toBeDefined();
    }
  });

  test('bots do not report presence', async () => {
    const bot = await newUser();
    await knex('users').where({ id: bot.id }).update({ is_bot: true, bot_type: 1 });
    assertError(await report(bot), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  });
});

describe('POST /users/me/presence: responses', () => {
  test('without last_update_id: the legacy format, keyed by email', async () => {
    const member = await newUser();
    const before = nowSeconds();
    const body = assertSuccess(await report(member));
    expect(body.zephyr_mirror_active).toBe(false);
    expect(typeof body.server_timestamp).toBe('number');
    expect(body.server_timestamp).toBeGreaterThanOrEqual(before);
    const mine = body.presences[member.email];
    expect(mine).toEqual({
      website: { client: 'website', status: 'active', timestamp: expect.any(Number), pushable: false },
      aggregated: { client: 'website', status: 'active', timestamp: expect.any(Number) },
    });
    expect(mine.website.timestamp).toBeGreaterThanOrEqual(before);
    const row = await rowOf(member);
    expect(body.presence_last_update_id).toBeGreaterThanOrEqual(Number(row.last_update_id));
  });

  test('slim_presence: the modern format, keyed by user id', async () => {
    const member = await newUser();
    const body = assertSuccess(await report(member, { slim_presence: true }));
    const mine = body.presences[String(member.id)];
    expect(mine).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
    expect(mine.active_timestamp).toBe(mine.idle_timestamp);
    expect(Object.keys(body.presences).every((k) => /^[0-9]+$/.test(k))).toBe(true);
  });

  test('an idle first report leaves the active time at the joining date', async () => {
    const member = await newUser();
    const joined = new Date(Date.now() - 24 * 3600 * 1000);
    await knex('users').where({ id: member.id }).update({ date_joined: joined });
    const body = assertSuccess(await report(member, { status: 'idle', slim_presence: true }));
    const row = await rowOf(member);
    expect(row.last_active_time).toBeNull();
    expect(body.presences[String(member.id)]).toEqual({
      active_timestamp: Math.floor(joined.getTime() / 1000),
      idle_timestamp: Math.floor(row.last_connected_time.getTime() / 1000),
    });
    const legacy = assertSuccess(await report(member, { status: 'idle' }));
    expect(legacy.presences[member.email].aggregated).toEqual({
      client: 'website',
      status: 'idle',
      timestamp: Math.floor(row.last_connected_time.getTime() / 1000),
    });
  });

  test('an account that joined moments ago counts as active when it joined', async () => {
    const member = await newUser();
    const body = assertSuccess(await report(member, { status: 'idle' }));
    const joined = await knex('users').where({ id: member.id }).first('date_joined');
    expect(body.presences[member.email].aggregated).toEqual({
      client: 'website',
      status: 'active',
      timestamp: Math.floor(joined.date_joined.getTime() / 1000),
    });
  });

  test('last_update_id: modern format, only what changed, never a lower id', async () => {
    const alice = await newUser();
    const bob = await newUser();
    const first = assertSuccess(await report(alice, { last_update_id: -1 }));
    expect(first.presences[String(alice.id)]).toBeDefined();
    const seen = first.presence_last_update_id as number;
    expect(seen).toBe(Number((await rowOf(alice)).last_update_id));

    // Nothing new: same id back, no entries.
    const again = assertSuccess(await report(alice, { last_update_id: seen }));
    expect(again.presences).toEqual({});
    expect(again.presence_last_update_id).toBe(seen);

    // Bob appears: only Bob's entry comes back, with a higher id.
    assertSuccess(await report(bob, { ping_only: true }));
    const next = assertSuccess(await report(alice, { last_update_id: seen }));
    expect(Object.keys(next.presences)).toEqual([String(bob.id)]);
    expect(next.presence_last_update_id).toBeGreaterThan(seen);

    // An id from the future comes back unchanged.
    const future = assertSuccess(await report(alice, { last_update_id: seen + 1000 }));
    expect(future.presences).toEqual({});
    expect(future.presence_last_update_id).toBe(seen + 1000);
  });

  test('ping_only: no presence data', async () => {
    const member = await newUser();
    const plain = assertSuccess(await report(member, { ping_only: true }));
    expect(plain).toEqual({ result: 'success', msg: '', presence_last_update_id: -1, zephyr_mirror_active: false });
    const withId = assertSuccess(await report(member, { ping_only: true, last_update_id: 42 }));
    expect(withId).toEqual({ result: 'success', msg: '', presence_last_update_id: 42, zephyr_mirror_active: false });
    expect(await rowOf(member)).toBeDefined();
  });

  test('history_limit_days bounds the first fetch; an update id above 0 overrides it', async () => {
    const old = await newUser();
    const member = await newUser();
    assertSuccess(await report(old, { ping_only: true }));
    await age(old, 20 * 24 * 3600);
    const defaultWindow = assertSuccess(await report(member, { slim_presence: true }));
    expect(defaultWindow.presences[String(old.id)]).toBeUndefined();
    const wide = assertSuccess(await report(member, { slim_presence: true, history_limit_days: 30 }));
    expect(wide.presences[String(old.id)]).toBeDefined();
    const narrow = assertSuccess(await report(member, { last_update_id: -1, history_limit_days: 1 }));
    expect(narrow.presences[String(old.id)]).toBeUndefined();
    expect(narrow.presences[String(member.id)]).toBeDefined();
    // With an update id the window no longer applies: the old row was written after id 0.
    const byId = assertSuccess(await report(member, { last_update_id: 0, history_limit_days: 1 }));
    expect(byId.presences[String(old.id)]).toBeUndefined();
    const oldId = Number((await rowOf(old)).last_update_id);
    const sinceBefore = assertSuccess(await report(member, { last_update_id: oldId - 1, history_limit_days: 1 }));
    expect(sinceBefore.presences[String(old.id)]).toBeDefined();
  });

  test('history_limit_days=0 asks for nothing: -1 without an id, the id given otherwise', async () => {
    const member = await newUser();
    const none = assertSuccess(await report(member, { history_limit_days: 0 }));
    expect(none.presences).toEqual({});
    expect(none.presence_last_update_id).toBe(-1);
    const withId = assertSuccess(await report(member, { history_limit_days: 0, last_update_id: 0 }));
    expect(withId.presences).toEqual({});
    expect(withId.presence_last_update_id).toBe(0);
  });

  test('deactivated users are left out', async () => {
    const gone = await newUser();
    const member = await newUser();
    assertSuccess(await report(gone, { ping_only: true }));
    await knex('users').where({ id: gone.id }).update({ is_active: false });
    const body = assertSuccess(await report(member, { slim_presence: true }));
    expect(body.presences[String(gone.id)]).toBeUndefined();
  });

  test('legacy keys follow what the viewer may see of each address', async () => {
    const hidden = await newUser();
    const member = await newUser();
    const admin = await newUser(200);
    assertSuccess(await client(ts, hidden).patch('/settings', { email_address_visibility: 3 }));
    assertSuccess(await report(hidden, { ping_only: true }));
    const asMember = assertSuccess(await report(member));
    expect(asMember.presences[`user${hidden.id}@parley.invalid`]).toBeDefined();
    expect(asMember.presences[hidden.email]).toBeUndefined();
    const asAdmin = assertSuccess(await report(admin));
    expect(asAdmin.presences[hidden.email]).toBeDefined();
  });
});

describe('writes', () => {
  test('reports closer together than 55 seconds do not write', async () => {
    const member = await newUser();
    assertSuccess(await report(member, { ping_only: true }));
    const first = await rowOf(member);
    assertSuccess(await report(member, { ping_only: true }));
    assertSuccess(await report(member, { ping_only: true, status: 'idle' }));
    expect(await rowOf(member)).toEqual(first);
  });

  test('after a minute, an idle report moves only the connection time', async () => {
    const member = await newUser();
    assertSuccess(await report(member, { ping_only: true }));
    await age(member, 60);
    const before = await rowOf(member);
    assertSuccess(await report(member, { ping_only: true, status: 'idle' }));
    const after = await rowOf(member);
    expect(after.last_active_time).toEqual(before.last_active_time);
    expect(after.last_connected_time.getTime()).toBeGreaterThan(before.last_connected_time.getTime());
    expect(Number(after.last_update_id)).toBeGreaterThan(Number(before.last_update_id));
  });

  test('after a minute, an active report moves both', async () => {
    const member = await newUser();
    assertSuccess(await report(member, { ping_only: true, status: 'idle' }));
    await age(member, 60);
    assertSuccess(await report(member, { ping_only: true }));
    const row = await rowOf(member);
    expect(row.last_active_time.getTime()).toBe(row.last_connected_time.getTime());
    expect(Math.abs(row.last_active_time.getTime() - Date.now())).toBeLessThan(10_000);
  });

  test('update ids increase with every write across the organization', async () => {
    const a = await newUser();
    const b = await newUser();
    assertSuccess(await report(a, { ping_only: true }));
    assertSuccess(await report(b, { ping_only: true }));
    const idA = Number((await rowOf(a)).last_update_id);
    const idB = Number((await rowOf(b)).last_update_id);
    expect(idB).toBe(idA + 1);
    const seq = await knex('presence_sequences').where({ realm_id: ts.server.deps.realmId }).first();
    expect(Number(seq.last_update_id)).toBe(idB);
  });
});

describe('presence events', () => {
  test('a first report tells every active user, in both formats', async () => {
    const member = await newUser();
    assertSuccess(await report(member, { ping_only: true }));
    const sent = events.of('presence');
    expect(sent).toHaveLength(1);
    expect(sent[0].userIds).toEqual(await activeIds());
    const row = await rowOf(member);
    const seconds = Math.floor(row.last_active_time.getTime() / 1000);
    expect(sent[0].event).toEqual({
      type: 'presence',
      user_id: member.id,
      email: member.email,
      server_timestamp: expect.any(Number),
      presence: { website: { client: 'website', status: 'active', timestamp: seconds, pushable: false } },
      presences: { [String(member.id)]: { active_timestamp: seconds, idle_timestamp: seconds } },
    });
  });

  test('regular pings tell nobody; coming back online does', async () => {
    const member = await newUser();
    assertSuccess(await report(member, { ping_only: true }));
    events.clear();
    await age(member, 60);
    assertSuccess(await report(member, { ping_only: true }));
    expect(events.of('presence')).toEqual([]);
    // Idle reports after a long absence write but tell nobody.
    await age(member, 600);
    assertSuccess(await report(member, { ping_only: true, status: 'idle' }));
    expect(events.of('presence')).toEqual([]);
    // Active again after more than 130 seconds without activity: everyone hears at once.
    await age(member, 10);
    assertSuccess(await report(member, { ping_only: true }));
    const sent = events.of('presence');
    expect(sent).toHaveLength(1);
    expect((sent[0].event.presence as { website: { status: string } }).website.status).toBe('active');
  });

  test('recipients who may not see the address get the placeholder', async () => {
    const hidden = await newUser();
    const admin = await newUser(200);
    assertSuccess(await client(ts, hidden).patch('/settings', { email_address_visibility: 3 }));
    events.clear();
    assertSuccess(await report(hidden, { ping_only: true }));
    const sent = events.of('presence');
    expect(sent).toHaveLength(2);
    const toAdmin = sent.find((d) => d.userIds.includes(admin.id))!;
    const toOthers = sent.find((d) => !d.userIds.includes(admin.id))!;
    expect(toAdmin.event.email).toBe(hidden.email);
    expect(toOthers.event.email).toBe(`user${hidden.id}@parley.invalid`);
    // The user sees their own address.
    expect(toAdmin.userIds).toContain(hidden.id);
    expect([...toAdmin.userIds, ...toOthers.userIds].sort((a, b) => a - b)).toEqual(await activeIds());
  });

  test('clients get the shape their capability asks for', () => {
    const event = {
      type: 'presence',
      user_id: 7,
      email: 'a@example.com',
      server_timestamp: 1700000000.5,
      presence: { website: { client: 'website', status: 'active', timestamp: 1700000000, pushable: false } },
      presences: { '7': { active_timestamp: 1700000000, idle_timestamp: 1700000000 } },
    };
    const queue = (simplified: boolean, slimPresence: boolean) => ({ capabilities: { simplified_presence_events: simplified } as never, slimPresence });
    expect(presenceEventForQueue(event, queue(true, false))).toEqual([{ type: 'presence', presences: event.presences }]);
    expect(presenceEventForQueue(event, queue(true, true))).toEqual([{ type: 'presence', presences: event.presences }]);
    const legacy = { type: 'presence', user_id: 7, email: 'a@example.com', server_timestamp: 1700000000.5, presence: event.presence };
    expect(presenceEventForQueue(event, queue(false, false))).toEqual([legacy]);
    // slim_presence clients key presence by user id: no address.
    const { email: _email, ...slim } = legacy;
    expect(presenceEventForQueue(event, queue(false, true))).toEqual([slim]);
  });
});

describe('invisible mode (presence_enabled)', () => {
  test('turning it off shows the user offline to everyone and freezes their presence', async () => {
    const shy = await newUser();
    const member = await newUser();
    await knex('users')
      .where({ id: shy.id })
      .update({ date_joined: new Date(Date.now() - 30 * 24 * 3600 * 1000) });
    assertSuccess(await report(shy, { ping_only: true }));
    events.clear();

    assertSuccess(await client(ts, shy).patch('/settings', { presence_enabled: false }));
    const sent = events.of('presence');
    expect(sent).toHaveLength(1);
    expect(sent[0].userIds).toEqual(await activeIds());
    const website = (sent[0].event.presence as { website: { status: string; timestamp: number } }).website;
    expect(website.status).toBe('idle');
    expect(nowSeconds() - website.timestamp).toBeGreaterThanOrEqual(300);
    const frozen = await rowOf(shy);
    expect(frozen.last_active_time).toBeNull();

    events.clear();
    await age(shy, 600);
    const stale = await rowOf(shy);
    assertSuccess(await report(shy, { ping_only: true }));
    expect(await rowOf(shy)).toEqual(stale);
    expect(events.of('presence')).toEqual([]);

    const seen = assertSuccess(await client(ts, member).get(`/users/${shy.id}/presence`));
    expect(seen.presence.aggregated.status).toBe('offline');

    // Turning it back on reports the user active at once.
    assertSuccess(await client(ts, shy).patch('/settings', { presence_enabled: true }));
    const back = events.of('presence');
    expect(back).toHaveLength(1);
    expect((back[0].event.presence as { website: { status: string } }).website.status).toBe('active');
    const active = assertSuccess(await client(ts, member).get(`/users/${shy.id}/presence`));
    expect(active.presence.aggregated.status).toBe('active');
  });

  test('a brand-new account going invisible does not look present', async () => {
    const shy = await newUser();
    const member = await newUser();
    assertSuccess(await report(shy, { ping_only: true }));
    assertSuccess(await client(ts, shy).patch('/settings', { presence_enabled: false }));
    const modern = assertSuccess(await report(member, { slim_presence: true })).presences[String(shy.id)];
    expect(nowSeconds() - modern.active_timestamp).toBeGreaterThanOrEqual(300);
    expect(nowSeconds() - modern.idle_timestamp).toBeGreaterThanOrEqual(300);
    const seen = assertSuccess(await client(ts, member).get(`/users/${shy.id}/presence`));
    expect(seen.presence.aggregated.status).toBe('offline');
  });

  test('incremental pollers see the change', async () => {
    const shy = await newUser();
    const member = await newUser();
    assertSuccess(await report(shy, { ping_only: true }));
    const seen = assertSuccess(await report(member, { last_update_id: -1 })).presence_last_update_id as number;
    assertSuccess(await client(ts, shy).patch('/settings', { presence_enabled: false }));
    const next = assertSuccess(await report(member, { last_update_id: seen }));
    expect(next.presences[String(shy.id)]).toEqual({
      active_timestamp: expect.any(Number),
      idle_timestamp: expect.any(Number),
    });
    expect(nowSeconds() - next.presences[String(shy.id)].idle_timestamp).toBeGreaterThanOrEqual(300);
  });
});

describe('GET /realm/presence', () => {
  test('everyone recently connected, legacy format, no update id', async () => {
    const member = await newUser();
    const other = await newUser(600);
    assertSuccess(await report(other, { ping_only: true }));
    const body = assertSuccess(await client(ts, member).get('/realm/presence'));
    expect(Object.keys(body).sort()).toEqual(['msg', 'presences', 'result', 'server_timestamp']);
    expect(body.presences[other.email]).toEqual({
      website: { client: 'website', status: 'active', timestamp: expect.any(Number), pushable: false },
      aggregated: { client: 'website', status: 'active', timestamp: expect.any(Number) },
    });
  });
});

describe('GET /users/{user_id_or_email}/presence', () => {
  test('by id or by address, legacy or modern', async () => {
    const target = await newUser();
    const viewer = await newUser(600);
    assertSuccess(await report(target, { ping_only: true }));
    const byId = assertSuccess(await client(ts, viewer).get(`/users/${target.id}/presence`));
    expect(byId.presence).toEqual({
      website: { status: 'active', timestamp: expect.any(Number) },
      aggregated: { status: 'active', timestamp: expect.any(Number) },
    });
    const byEmail = assertSuccess(await client(ts, viewer).get(`/users/${encodeURIComponent(target.email)}/presence`));
    expect(byEmail.presence).toEqual(byId.presence);
    const slim = assertSuccess(await client(ts, viewer).get(`/users/${target.id}/presence`, { slim_presence: true }));
    expect(slim.presence).toEqual({ active_timestamp: expect.any(Number), idle_timestamp: expect.any(Number) });
  });

  test('an old report reads as offline in the aggregate', async () => {
    const target = await newUser();
    const viewer = await newUser();
    assertSuccess(await report(target, { ping_only: true }));
    await age(target, 300);
    const body = assertSuccess(await client(ts, viewer).get(`/users/${target.id}/presence`));
    expect(body.presence.aggregated.status).toBe('offline');
    expect(body.presence.website.status).toBe('active');
  });

  test('errors', async () => {
    const viewer = await newUser();
    const silent = await newUser();
    assertError(await client(ts, viewer).get('/users/999999/presence'), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, viewer).get('/users/99999999999999999999/presence'), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, viewer).get('/users/nobody@example.com/presence'), 'BAD_REQUEST', 'No such user');
    assertError(await client(ts, viewer).get(`/users/${silent.id}/presence`), 'BAD_REQUEST', `No presence data for ${silent.id}`);
    assertError(await client(ts, viewer).get(`/users/${encodeURIComponent(silent.email)}/presence`), 'BAD_REQUEST', `No presence data for ${silent.email}`);
    const bot = await newUser();
    await knex('users').where({ id: bot.id }).update({ is_bot: true, bot_type: 1 });
    assertError(await client(ts, viewer).get(`/users/${bot.id}/presence`), 'BAD_REQUEST', 'Presence is not supported for bot users.');
    const gone = await newUser();
    assertSuccess(await report(gone, { ping_only: true }));
    await knex('users').where({ id: gone.id }).update({ is_active: false });
    assertError(await client(ts, viewer).get(`/users/${gone.id}/presence`), 'BAD_REQUEST', 'No such user');
  });

  test('a hidden address does not find the user; the placeholder does', async () => {
    const hidden = await newUser();
    const viewer = await newUser();
    assertSuccess(await client(ts, hidden).patch('/settings', { email_address_visibility: 4 }));
    assertSuccess(await report(hidden, { ping_only: true }));
    assertError(await client(ts, viewer).get(`/users/${encodeURIComponent(hidden.email)}/presence`), 'BAD_REQUEST', 'No such user');
    const byPlaceholder = assertSuccess(await client(ts, viewer).get(`/users/user${hidden.id}@parley.invalid/presence`));
    expect(byPlaceholder.presence.aggregated.status).toBe('active');
  });
});
