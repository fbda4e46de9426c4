import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyActionFor } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';

// The GraphQL bots API runs the same actions as REST: same checks, same events.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Graph' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Graph' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const BOT_FIELDS = 'id userId email fullName botType isActive ownerId defaultSendingStream defaultAllPublicStreams services { baseUrl interface token }';

test('create, list, update, regenerate and deactivate through GraphQL, with the REST events', async () => {
  let created: Record<string, any> = {};
  await verifyActionFor(ts, [alice, ts.owner, bob], async () => {
    const res = await graphql(ts, alice, `mutation($input: CreateBotInput!) { createBot(input: $input) { apiKey bot { ${BOT_FIELDS} } } }`, {
      input: { fullName: 'Graph Bot', shortName: 'graph', botType: 3, payloadUrl: 'http://127.0.0.1:9/graph' },
    });
    expect(res.errors).toBeUndefined();
    created = res.data!.createBot;
  });
  expect(created.apiKey).toMatch(/^[A-Za-z0-9]{32}$/);
  expect(created.bot).toMatchObject({
    fullName: 'Graph Bot',
    botType: 3,
    isActive: true,
    ownerId: alice.id,
    services: [{ baseUrl: 'http://127.0.0.1:9/graph', interface: 1 }],
  });
  const botId = created.bot.userId as number;
  expect(created.bot.id).toBe(String(botId));

  const listed = await graphql(ts, alice, `{ bots { userId fullName } }`);
  expect(listed.data!.bots).toEqual([{ userId: botId, fullName: 'Graph Bot' }]);
  expect((await graphql(ts, bob, `{ bots { userId } }`)).data!.bots).toEqual([]);

  await verifyActionFor(ts, [alice, ts.owner, bob], async () => {
    const res = await graphql(
      ts,
      alice,
      `mutation { updateBot(botId: ${botId}, input: { fullName: "Graph Bot 2", defaultAllPublicStreams: true }) { bot { fullName defaultAllPublicStreams } } }`,
    );
    expect(res.data!.updateBot.bot).toEqual({ fullName: 'Graph Bot 2', defaultAllPublicStreams: true });
  });

  const regenerated = await graphql(ts, alice, `mutation { regenerateBotApiKey(botId: ${botId}) { apiKey bot { userId } } }`);
  const apiKey = regenerated.data!.regenerateBotApiKey.apiKey;
  assertSuccess(await client(ts, { email: created.bot.email, apiKey }).get('/users/me'));

  await verifyActionFor(ts, [alice, ts.owner, bob], async () => {
    const res = await graphql(ts, alice, `mutation { deactivateBot(botId: ${botId}) { bot { isActive } } }`);
    expect(res.data!.deactivateBot.bot).toEqual({ isActive: false });
  });
  // Nine registers and their comparisons: slow on a busy machine.
}, 120_000);

test('errors are REST’s', async () => {
  const { user_id } = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Alice Own', short_name: 'aliceown' }));
  expect(graphqlError(await graphql(ts, bob, `mutation { updateBot(botId: ${user_id}, input: { fullName: "Mine" }) { bot { id } } }`))).toEqual({
    code: 'BAD_REQUEST',
    message: 'Insufficient permission',
  });
  expect(graphqlError(await graphql(ts, bob, `mutation { deactivateBot(botId: ${bob.id}) { bot { id } } }`))).toEqual({
    code: 'BAD_REQUEST',
    message: 'No such bot',
  });
  const bad = await graphql(ts, bob, `mutation { createBot(input: { fullName: "X", shortName: "x", botType: 3, payloadUrl: "ftp://x" }) { apiKey } }`);
  expect(graphqlError(bad)).toEqual({ code: 'BAD_REQUEST', message: 'payload_url is not a URL' });
});

test('incoming-webhook bots cannot use GraphQL', async () => {
  const hook = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Hook Graph', short_name: 'hookgraph', bot_type: 2 }));
  const email = assertSuccess(await client(ts, alice).get(`/users/${hook.user_id}`)).user.email;
  const res = await graphql(ts, { email, apiKey: hook.api_key }, `{ bots { id } }`);
  expect(res.errors?.[0]).toMatchObject({ message: 'This API is not available to incoming webhook bots.' });
});
