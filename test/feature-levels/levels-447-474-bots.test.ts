import { assertError, assertSuccess, client, graphql } from '../helpers/api';
import { getEvents, registerQueue, verifyAction, verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Zulip's API changelog, feature levels 447, 458, 461, 463 and 474 (bots), each checked through the API.
let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;
let guest: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

let counter = 0;
async function botOf(owner: TestUser, extra: Record<string, unknown> = {}): Promise<{ id: number; email: string; apiKey: string }> {
  counter += 1;
  const body = assertSuccess(await client(ts, owner).post('/bots', { full_name: `Level Bot ${counter}`, short_name: `levelbot${counter}`, ...extra }));
  const email = assertSuccess(await client(ts, owner).get(`/users/${body.user_id}`)).user.email as string;
  return { id: body.user_id, email, apiKey: body.api_key };
}

const domainOf = (email: string) => email.split('@')[1];

test('447: PATCH /bots/{bot_id} short_name changes the bot’s address, announced through realm_user', async () => {
  const bot = await botOf(alice);
  const [mine, bystander] = await verifyActionFor(ts, [alice, bob], () => client(ts, alice).patch(`/bots/${bot.id}`, { short_name: 'renamed447' }), {
    clientGravatar: false,
  });
  const email = `renamed447-bot@${domainOf(bot.email)}`;
  for (const events of [mine, bystander]) {
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, delivery_email: email } }),
        expect.objectContaining({ type: 'realm_user', op: 'update', person: { user_id: bot.id, new_email: email } }),
      ]),
    );
    // 461 announced the new address with a realm_bot update too; 474 dropped it (the address is in realm_user).
    expect(events.filter((e) => e.type === 'realm_bot')).toEqual([]);
  }
  expect(assertSuccess(await client(ts, bob).get(`/users/${bot.id}`)).user).toMatchObject({ email, delivery_email: email });
  // The bot signs in with its new address; the old one no longer names it.
  expect(assertSuccess(await client(ts, { email, apiKey: bot.apiKey }).get('/users/me')).user_id).toBe(bot.id);
  expect((await client(ts, { email: bot.email, apiKey: bot.apiKey }).get('/users/me')).status).toBe(401);

  // The same name again changes nothing.
  assertSuccess(await client(ts, alice).patch(`/bots/${bot.id}`, { short_name: ' renamed447 ' }));
  // GraphQL's counterpart.
  const res = await graphql(ts, alice, `mutation { updateBot(botId: ${bot.id}, input: { shortName: "graph447" }) { bot { email } } }`);
  expect(res.data?.updateBot.bot.email).toBe(`graph447-bot@${domainOf(bot.email)}`);
});

test('447: a taken or invalid short_name is refused and changes nothing', async () => {
  const bot = await botOf(alice);
  const other = await botOf(bob);
  const otherShort = other.email.split('@')[0].replace(/-bot$/, '');
  assertError(await client(ts, alice).patch(`/bots/${bot.id}`, { short_name: otherShort }), 'BAD_REQUEST', 'Username already in use');
  assertError(await client(ts, alice).patch(`/bots/${bot.id}`, { short_name: otherShort.toUpperCase() }), 'BAD_REQUEST', 'Username already in use');
  assertError(await client(ts, alice).patch(`/bots/${bot.id}`, { short_name: '   ' }), 'BAD_REQUEST', 'Bad name or username');
  assertError(await client(ts, alice).patch(`/bots/${bot.id}`, { short_name: 'bad name' }), 'BAD_REQUEST', 'Bad name or username');
  assertError(await client(ts, bob).patch(`/bots/${bot.id}`, { short_name: 'stolen447' }), 'BAD_REQUEST', 'Insufficient permission');
  // With another change that would otherwise apply first.
  assertError(await client(ts, admin).patch(`/bots/${bot.id}`, { role: 300, short_name: otherShort }), 'BAD_REQUEST', 'Username already in use');
  expect(assertSuccess(await client(ts, alice).get(`/users/${bot.id}`)).user).toMatchObject({ email: bot.email, role: 400 });
  const res = await graphql(ts, alice, `mutation { updateBot(botId: ${bot.id}, input: { shortName: "bad name" }) { bot { email } } }`);
  expect(res.errors?.[0].message).toBe('Bad name or username');
});

test('458: subscriptions, channels and group membership of bot users can be queried', async () => {
  const bot = await botOf(alice);
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'level-458' }], principals: [bot.id] }));
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'level-458-other' }] }));
  const streamIds = Object.fromEntries(
    (await ts.server.deps.knex('streams').whereIn('name', ['level-458', 'level-458-other']).select('id', 'name')).map((s: { id: number; name: string }) => [
      s.name,
      s.id,
    ]),
  );
  const subscribed = (stream: number) => client(ts, bob).get(`/users/${bot.id}/subscriptions/${stream}`);
  expect(assertSuccess(await subscribed(streamIds['level-458'])).is_subscribed).toBe(true);
  expect(assertSuccess(await subscribed(streamIds['level-458-other'])).is_subscribed).toBe(false);
  expect(assertSuccess(await client(ts, bob).get(`/users/${bot.id}/channels`)).subscribed_channel_ids).toEqual([streamIds['level-458']]);
  const viaGraphql = await graphql(ts, bob, 'query($u: Int!, $s: Int!) { isSubscribed(userId: $u, streamId: $s) userChannelIds(userId: $u) }', {
    u: bot.id,
    s: streamIds['level-458'],
  });
  expect(viaGraphql.data).toEqual({ isSubscribed: true, userChannelIds: [streamIds['level-458']] });

  const group = assertSuccess(
    await client(ts, alice).post('/user_groups/create', { name: 'level-458 group', description: 'With a bot', members: [alice.id, bot.id] }),
  ).group_id;
  expect(assertSuccess(await client(ts, bob).get(`/user_groups/${group}/members/${bot.id}`)).is_user_group_member).toBe(true);
  const outsider = await botOf(bob);
  expect(assertSuccess(await client(ts, bob).get(`/user_groups/${group}/members/${outsider.id}`)).is_user_group_member).toBe(false);

  // Deactivated bots, and the server's own bots (which belong to no organization), are still refused.
  assertSuccess(await client(ts, bob).delete(`/bots/${outsider.id}`));
  assertError(await client(ts, alice).get(`/users/${outsider.id}/channels`), 'BAD_REQUEST', 'User is deactivated');
  assertError(await client(ts, alice).get(`/user_groups/${group}/members/${outsider.id}`), 'BAD_REQUEST', 'User is deactivated');
  const systemBot: { id: number } = await ts.server.deps.knex('users').where({ is_system_bot: true }).first('id');
  assertError(await client(ts, alice).get(`/users/${systemBot.id}/subscriptions/${streamIds['level-458']}`), 'BAD_REQUEST', 'No such user');
});

test('463: GET /bots/{bot_id}/api_key gives the bot’s key to its owner and administrators only', async () => {
  const bot = await botOf(alice);
  expect(assertSuccess(await client(ts, alice).get(`/bots/${bot.id}/api_key`)).api_key).toBe(bot.apiKey);
  expect(assertSuccess(await client(ts, admin).get(`/bots/${bot.id}/api_key`)).api_key).toBe(bot.apiKey);
  assertError(await client(ts, bob).get(`/bots/${bot.id}/api_key`), 'BAD_REQUEST', 'Insufficient permission');
  assertError(await client(ts, { email: bot.email, apiKey: bot.apiKey }).get(`/bots/${bot.id}/api_key`), 'BAD_REQUEST', 'Insufficient permission');
  assertError(await client(ts, guest).get(`/bots/${bot.id}/api_key`), 'BAD_REQUEST', 'Not allowed for guest users');
  assertError(await client(ts, alice).get(`/bots/${bob.id}/api_key`), 'BAD_REQUEST', 'No such bot');
  assertError(await client(ts, alice).get('/bots/99999999/api_key'), 'BAD_REQUEST', 'No such bot');

  const regenerated = assertSuccess(await client(ts, alice).post(`/bots/${bot.id}/api_key/regenerate`)).api_key;
  expect(assertSuccess(await client(ts, alice).get(`/bots/${bot.id}/api_key`)).api_key).toBe(regenerated);
  const res = await graphql(ts, admin, `{ botApiKey(botId: ${bot.id}) }`);
  expect(res.data?.botApiKey).toBe(regenerated);
  // Only the bot's keys are kept readable; people's keys are stored hashed only.
  const people: { n: number | string }[] = await ts.server.deps
    .knex('api_keys')
    .whereIn('user_id', [alice.id, admin.id])
    .whereNotNull('bot_key')
    .count('id as n');
  expect(Number(people[0].n)).toBe(0);
});

test('463: a bot whose keys predate readable keys gets one more key, and its old key keeps working', async () => {
  const bot = await botOf(alice);
  await ts.server.deps.knex('api_keys').where({ user_id: bot.id }).update({ bot_key: null });
  const fetched = assertSuccess(await client(ts, alice).get(`/bots/${bot.id}/api_key`)).api_key;
  expect(fetched).not.toBe(bot.apiKey);
  expect(assertSuccess(await client(ts, admin).get(`/bots/${bot.id}/api_key`)).api_key).toBe(fetched);
  for (const apiKey of [bot.apiKey, fetched]) expect(assertSuccess(await client(ts, { email: bot.email, apiKey }).get('/users/me')).user_id).toBe(bot.id);
});

test('474: realm_bots and realm_bot events carry the bot’s configuration only', async () => {
  const bot = await botOf(alice, { bot_type: 3, payload_url: JSON.stringify('http://127.0.0.1:9/level474') });
  const { state } = await registerQueue(ts, alice, { fetchEventTypes: ['realm_bot'] });
  const listed = state.realm_bots.find((b: { user_id: number }) => b.user_id === bot.id);
  expect(listed).toEqual({
    user_id: bot.id,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    services: [{ base_url: 'http://127.0.0.1:9/level474', interface: 1, token: expect.any(String) }],
  });
  // Name, avatar, owner and activation are told through realm_user only.
  for (const action of [
    () => client(ts, alice).patch(`/bots/${bot.id}`, { full_name: 'Renamed 474' }),
    () => client(ts, alice).patch(`/bots/${bot.id}`, { bot_owner_id: admin.id }),
    () => client(ts, admin).delete(`/bots/${bot.id}`),
    () => client(ts, admin).post(`/users/${bot.id}/reactivate`),
  ]) {
    const events = await verifyAction(ts, admin, action, { clientGravatar: false });
    expect(events.filter((e) => e.type === 'realm_bot')).toEqual([]);
  }
  // Configuration changes still send realm_bot updates.
  const events = await verifyAction(ts, admin, () => client(ts, admin).patch(`/bots/${bot.id}`, { default_all_public_streams: true }));
  expect(events).toEqual([expect.objectContaining({ type: 'realm_bot', op: 'update', bot: { user_id: bot.id, default_all_public_streams: true } })]);
  // A new key is fetched with GET /bots/{bot_id}/api_key, so regenerating sends no event: the
  // first realm_bot event after it is that of the next configuration change.
  const { queueId, lastEventId } = await registerQueue(ts, admin, { eventTypes: ['realm_bot'] });
  assertSuccess(await client(ts, admin).post(`/bots/${bot.id}/api_key/regenerate`));
  assertSuccess(await client(ts, admin).patch(`/bots/${bot.id}`, { default_all_public_streams: false }));
  const polled = await getEvents(ts, admin, queueId, lastEventId);
  expect(polled.map((e) => e.bot)).toEqual([{ user_id: bot.id, default_all_public_streams: false }]);
});
