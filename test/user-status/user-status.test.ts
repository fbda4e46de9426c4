import { assertError, assertSuccess, client } from '../helpers/api';
import { verifyActionFor, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const setStatus = (who: TestUser, params: Record<string, unknown>) => client(ts, who).post('/users/me/status', params);
const statusOf = async (viewer: TestUser, target: TestUser) => assertSuccess(await client(ts, viewer).get(`/users/${target.id}/status`)).status;
const registered = async (who: TestUser) => assertSuccess(await client(ts, who).post('/register', { fetch_event_types: ['user_status'] })).user_status;

test("Zulip's errors, which change nothing", async () => {
  const user = await makeUser(ts);
  assertError(await setStatus(user, {}), 'BAD_REQUEST', 'Client did not pass any new values.');
  assertError(await setStatus(user, { status_text: 'x'.repeat(61) }), 'BAD_REQUEST', 'status_text is too long (limit: 60 characters)');
  assertError(
    await setStatus(user, { status_text: 'In a meeting', emoji_code: '1f4bb' }),
    'BAD_REQUEST',
    'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
  );
  assertError(
    await setStatus(user, { status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'invalid' }),
    'BAD_REQUEST',
    "Emoji 'invalid' does not exist",
  );
  assertError(await setStatus(user, { status_text: 'In a meeting', emoji_code: '1f4bb', emoji_name: 'car' }), 'BAD_REQUEST', 'Invalid emoji name.');
  assertError(
    await setStatus(user, { status_text: 'In a meeting', emoji_code: '1f697', emoji_name: 'car', reaction_type: 'realm_emoji' }),
    'BAD_REQUEST',
    'Invalid custom emoji.',
  );
  assertError(await setStatus(user, { emoji_name: 'car', emoji_code: '1f697', reaction_type: 'nonsense' }), 'BAD_REQUEST', 'Invalid emoji type.');
  assertError(await setStatus(user, { away: 'yes' }), 'INVALID_JSON', 'Argument "away" is not valid JSON.');
  expect(await statusOf(alice, user)).toEqual({});
  expect(await registered(alice)).not.toHaveProperty(String(user.id));
});

test('setting text and emoji, then clearing them; whitespace is trimmed; 60 characters are allowed', async () => {
  const user = await makeUser(ts);
  assertSuccess(await setStatus(user, { status_text: '  In a meeting  ', emoji_name: 'car' }));
  const full = { status_text: 'In a meeting', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' };
  expect(await statusOf(alice, user)).toEqual(full);
  expect((await registered(bob))[String(user.id)]).toEqual(full);
  // Only what is given changes.
  assertSuccess(await setStatus(user, { status_text: 'x'.repeat(60) }));
  expect(await statusOf(user, user)).toEqual({ ...full, status_text: 'x'.repeat(60) });
  assertSuccess(await setStatus(user, { emoji_name: '' }));
  expect(await statusOf(user, user)).toEqual({ status_text: 'x'.repeat(60) });
  assertSuccess(await setStatus(user, { status_text: '' }));
  expect(await statusOf(user, user)).toEqual({});
  expect(await registered(bob)).not.toHaveProperty(String(user.id));
});

test('everyone hears of a status change, and applying the events gives a fresh register', async () => {
  const user = await makeUser(ts);
  const watchers = [user, alice, guest];
  const events = await verifySharedAction(ts, watchers, () => setStatus(user, { status_text: 'Out sick', emoji_name: 'car' }));
  expect(events).toEqual([
    { type: 'user_status', user_id: user.id, status_text: 'Out sick', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' },
  ]);
  await verifySharedAction(ts, watchers, () => setStatus(user, { emoji_name: '' }));
  await verifySharedAction(ts, watchers, () => setStatus(user, { status_text: '' }));
  await verifySharedAction(ts, watchers, () =>
    setStatus(user, { status_text: 'Back', emoji_name: 'car', emoji_code: '1f697', reaction_type: 'unicode_emoji' }),
  );
});

test('away (deprecated) is presence_enabled turned around, and shows in the status', async () => {
  const user = await makeUser(ts);
  const options = { capabilities: { user_settings_object: true } };
  const [own, other] = await verifyActionFor(ts, [user, alice], () => setStatus(user, { away: true, status_text: 'on vacation' }), options);
  expect(other.filter((e) => e.type === 'user_status')).toEqual([
    { type: 'user_status', user_id: user.id, away: true, status_text: 'on vacation', id: expect.any(Number) },
  ]);
  expect(own.find((e) => e.type === 'user_settings')).toMatchObject({ property: 'presence_enabled', value: false });
  expect(await statusOf(alice, user)).toEqual({ away: true, status_text: 'on vacation' });
  // Turning presence back on through the settings clears `away` for everyone following statuses.
  await verifyActionFor(ts, [user, alice], () => client(ts, user).patch('/settings', { presence_enabled: true }), options);
  expect(await statusOf(alice, user)).toEqual({ status_text: 'on vacation' });
  await verifyActionFor(ts, [user, alice], () => setStatus(user, { away: true }), options);
  await verifyActionFor(ts, [user, alice], () => setStatus(user, { away: false }), options);
  expect(await statusOf(alice, user)).toEqual({ status_text: 'on vacation' });
});

test('a settings change by someone without a status announces no status', async () => {
  const user = await makeUser(ts);
  const [events] = await verifyActionFor(ts, [alice], () => client(ts, user).patch('/settings', { presence_enabled: false }));
  expect(events.filter((e) => e.type === 'user_status')).toEqual([]);
});

test('custom emoji by name, and a deactivated one refused', async () => {
  const user = await makeUser(ts);
  const knex = ts.server.deps.knex;
  const [row] = await knex('realm_emoji')
    .insert({
      realm_id: ts.server.deps.realmId,
      name: 'parrot',
      file_name: 'parrot.png',
      author_id: user.id,
      image: Buffer.from('x'),
      content_type: 'image/png',
    })
    .returning('id');
  const id = String(row.id);
  assertSuccess(await setStatus(user, { emoji_name: 'parrot' }));
  expect(await statusOf(alice, user)).toEqual({ emoji_name: 'parrot', emoji_code: id, reaction_type: 'realm_emoji' });
  await knex('realm_emoji').where({ id: row.id }).update({ deactivated: true });
  assertError(
    await setStatus(user, { emoji_name: 'parrot', emoji_code: id, reaction_type: 'realm_emoji' }),
    'BAD_REQUEST',
    'This custom emoji has been deactivated.',
  );
});

test('reading one user: bots and unknown ids are "No such user", deactivated accounts say so', async () => {
  const bot = await makeUser(ts);
  await ts.server.deps.knex('users').where({ id: bot.id }).update({ is_bot: true });
  assertError(await client(ts, alice).get(`/users/${bot.id}/status`), 'BAD_REQUEST', 'No such user');
  assertError(await client(ts, alice).get('/users/999999/status'), 'BAD_REQUEST', 'No such user');
  const gone = await makeUser(ts);
  assertSuccess(await setStatus(gone, { status_text: 'leaving' }));
  assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
  assertError(await client(ts, alice).get(`/users/${gone.id}/status`), 'BAD_REQUEST', 'User is deactivated');
  expect(await registered(alice)).not.toHaveProperty(String(gone.id));
  // Guests read statuses too.
  expect(await statusOf(guest, alice)).toEqual({});
});

test('bots cannot set a status', async () => {
  const bot = await makeUser(ts);
  await ts.server.deps.knex('users').where({ id: bot.id }).update({ is_bot: true });
  assertError(await setStatus(bot, {}), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
});
