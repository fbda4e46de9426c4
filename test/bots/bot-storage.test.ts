import { apiRequest, assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// GET, PUT and DELETE /bot_storage: string values under string keys, one storage per calling
// account (any account, as in Zulip before feature level 494), with Zulip's checks and messages.
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let bot: { email: string; apiKey: string };

const LIMIT = 10_000_000;

beforeAll(async () => {
  ts = await startTestServer();
  alice = await makeUser(ts, 400, { fullName: 'Alice Store' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Store' });
  const created = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Keeper', short_name: 'keeper' }));
  const email = assertSuccess(await client(ts, alice).get(`/users/${created.user_id}`)).user.email as string;
  bot = { email, apiKey: created.api_key as string };
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

type Who = TestUser | { email: string; apiKey: string };
const storageOf = async (who: Who, keys?: string[]) =>
  assertSuccess(await client(ts, who).get('/bot_storage', keys === undefined ? {} : { keys: JSON.stringify(keys) })).storage as Record<string, string>;
const put = (who: Who, storage: unknown) => client(ts, who).put('/bot_storage', { storage: typeof storage === 'string' ? storage : JSON.stringify(storage) });
const remove = (who: Who, keys?: unknown) => client(ts, who).delete('/bot_storage', keys === undefined ? {} : { keys: JSON.stringify(keys) });
const clear = async (who: Who) => assertSuccess(await remove(who));

describe('REST', () => {
  afterEach(async () => {
    await clear(alice);
    await clear(bob);
    await clear(bot);
  });

  test('put, get all and some, update, remove some and all', async () => {
    expect(await storageOf(bot)).toEqual({});
    assertSuccess(await put(bot, { 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' }));
    const some = await storageOf(bot, ['key 3', 'key 1']);
    expect(some).toEqual({ 'key 3': 'value 3', 'key 1': 'value 1' });
    expect(Object.keys(some)).toEqual(['key 3', 'key 1']);
    expect(await storageOf(bot)).toEqual({ 'key 1': 'value 1', 'key 2': 'value 2', 'key 3': 'value 3' });
    // An empty list of keys asks for nothing.
    expect(await storageOf(bot, [])).toEqual({});

    assertSuccess(await put(bot, { 'key 1': 'new value', 'key 4': 'value 4' }));
    expect(await storageOf(bot)).toEqual({ 'key 1': 'new value', 'key 2': 'value 2', 'key 3': 'value 3', 'key 4': 'value 4' });

    assertSuccess(await remove(bot, ['key 1', 'key 2']));
    expect(await storageOf(bot)).toEqual({ 'key 3': 'value 3', 'key 4': 'value 4' });
    assertSuccess(await remove(bot, []));
    expect(await storageOf(bot)).toEqual({ 'key 3': 'value 3', 'key 4': 'value 4' });

    assertSuccess(await remove(bot));
    expect(await storageOf(bot)).toEqual({});
    // Removing everything from an empty storage is no error.
    assertSuccess(await remove(bot));
  });

  test('a human account has a storage too, and unusual keys are kept as sent', async () => {
    assertSuccess(await put(alice, { '': 'empty key', __proto__x: 'a', 'ünïcødé 🐙': '', '42': 'number-like' }));
    assertSuccess(await client(ts, alice).put('/bot_storage', { storage: '{"__proto__": "really proto"}' }));
    const stored = await storageOf(alice);
    expect(Object.entries(stored).sort()).toEqual(
      Object.entries({ '': 'empty key', __proto__x: 'a', 'ünïcødé 🐙': '', '42': 'number-like' })
        .concat([['__proto__', 'really proto']])
        .sort(),
    );
    expect(Object.keys(await storageOf(alice, ['__proto__']))).toEqual(['__proto__']);
  });

  test('errors carry Zulip messages and change nothing', async () => {
    assertSuccess(await put(bot, { a: '1', b: '2' }));
    const before = await storageOf(bot);
    const c = client(ts, bot);

    assertError(await c.get('/bot_storage', { keys: JSON.stringify(['a', 'nonexistent key']) }), 'BAD_REQUEST', 'Key does not exist.');
    assertError(await remove(bot, ['a', 'nonexistent key']), 'BAD_REQUEST', 'Key does not exist.');
    // A key named twice is one more than there are: nothing is removed (as in Zulip).
    assertError(await remove(bot, ['a', 'a']), 'BAD_REQUEST', 'Key does not exist.');
    assertError(await remove(bot, ['nul\u0000key']), 'BAD_REQUEST', 'Key does not exist.');
    assertError(await c.get('/bot_storage', { keys: JSON.stringify(['nul\u0000key']) }), 'BAD_REQUEST', 'Key does not exist.');
    assertError(await c.get('/bot_storage', { keys: 'not json' }), 'INVALID_JSON', 'Argument "keys" is not valid JSON.');
    assertError(await c.get('/bot_storage', { keys: '"a"' }), 'BAD_REQUEST', 'keys is not a list');
    assertError(await c.get('/bot_storage', { keys: '["a", 1]' }), 'BAD_REQUEST', 'keys[1] is not a string');
    assertError(await c.delete('/bot_storage', { keys: '{"a": "1"}' }), 'BAD_REQUEST', 'keys is not a list');

    assertError(await c.put('/bot_storage', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'storage' argument");
    assertError(await put(bot, 'not json'), 'INVALID_JSON', 'Argument "storage" is not valid JSON.');
    assertError(await put(bot, ['a']), 'BAD_REQUEST', 'storage is not a dict');
    assertError(await put(bot, { a: 'changed', foo: [1, 2, 3] }), 'BAD_REQUEST', 'storage["foo"] is not a string');
    assertError(await put(bot, { a: 'changed', n: null }), 'BAD_REQUEST', 'storage["n"] is not a string');
    assertError(await put(bot, { a: 'nul\u0000' }), 'BAD_REQUEST', 'storage["a"] contains NULL (0x00) characters.');
    assertError(await put(bot, { 'nul\u0000': 'x' }), 'BAD_REQUEST', 'storage contains NULL (0x00) characters.');

    expect(await storageOf(bot)).toEqual(before);
  });

  test('the size limit counts every key and value, and a request over it stores nothing', async () => {
    // Filled to exactly the limit: 1 + (LIMIT - 1) characters.
    assertSuccess(await put(bot, { k: 'x'.repeat(LIMIT - 1) }));
    assertError(
      await put(bot, { 'too much data': 'a few bits too long', k: 'y'.repeat(LIMIT - 1) }),
      'BAD_REQUEST',
      'Request exceeds storage limit by 32 characters. The limit is 10000000 characters.',
    );
    assertError(await client(ts, bot).get('/bot_storage', { keys: JSON.stringify(['too much data']) }), 'BAD_REQUEST', 'Key does not exist.');
    expect((await storageOf(bot)).k).toBe('x'.repeat(LIMIT - 1));

    // Replacing an entry counts only the difference: shrinking k makes room for the new entry.
    assertSuccess(await put(bot, { k: 'x'.repeat(LIMIT - 100), other: 'ok' }));
    expect(Object.keys(await storageOf(bot))).toEqual(['k', 'other']);
    // Characters, not bytes or UTF-16 units: 🐙 is one. Stored: 1 + (LIMIT - 100) + 5 + 2; asked: 5 + 100.
    assertError(
      await put(bot, { emoji: '🐙'.repeat(100) }),
      'BAD_REQUEST',
      'Request exceeds storage limit by 13 characters. The limit is 10000000 characters.',
    );
    // Another account's storage is not counted against this one.
    assertSuccess(await put(alice, { big: 'x'.repeat(LIMIT - 40), normal: 'abcd' }));
  }, 60_000);

  test("two accounts' storages are separate", async () => {
    assertSuccess(await put(alice, { 'some key': 'a new value' }));
    assertError(await client(ts, bob).get('/bot_storage', { keys: JSON.stringify(['some key']) }), 'BAD_REQUEST', 'Key does not exist.');
    assertSuccess(await put(bob, { 'some key': 'yet another value' }));
    expect(await storageOf(alice)).toEqual({ 'some key': 'a new value' });
    expect(await storageOf(bob)).toEqual({ 'some key': 'yet another value' });
    assertSuccess(await remove(bob));
    expect(await storageOf(alice)).toEqual({ 'some key': 'a new value' });
  });

  test('unauthenticated requests are refused', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      assertError(
        await apiRequest(ts, null, method, '/bot_storage', method === 'PUT' ? { storage: '{}' } : {}),
        'UNAUTHORIZED',
        'Not logged in: API authentication or user session required',
        401,
      );
    }
    assertError(await apiRequest(ts, { email: alice.email, apiKey: 'x'.repeat(32) }, 'GET', '/bot_storage'), 'UNAUTHORIZED', 'Invalid API key', 401);
  });
});

describe('GraphQL', () => {
  afterEach(async () => {
    await clear(alice);
    await clear(bob);
  });

  test('botStorage, updateBotStorage and removeBotStorage act on the same storage as REST', async () => {
    const updated = await graphql(ts, alice, 'mutation($e: [BotStorageEntryInput!]!) { updateBotStorage(entries: $e) { key value } }', {
      e: [
        { key: 'one', value: '1' },
        { key: 'two', value: '2' },
        { key: 'one', value: 'uno' },
      ],
    });
    expect(updated.errors).toBeUndefined();
    expect(updated.data!.updateBotStorage).toEqual([
      { key: 'one', value: 'uno' },
      { key: 'two', value: '2' },
    ]);
    assertSuccess(await put(alice, { three: '3' }));
    expect(await storageOf(alice)).toEqual({ one: 'uno', two: '2', three: '3' });

    const all = await graphql(ts, alice, '{ botStorage { key value } }');
    expect(all.data!.botStorage).toEqual([
      { key: 'one', value: 'uno' },
      { key: 'two', value: '2' },
      { key: 'three', value: '3' },
    ]);
    const some = await graphql(ts, alice, '{ botStorage(keys: ["three", "one"]) { key value } }');
    expect(some.data!.botStorage).toEqual([
      { key: 'three', value: '3' },
      { key: 'one', value: 'uno' },
    ]);
    // Bob sees his own (empty) storage.
    expect((await graphql(ts, bob, '{ botStorage { key } }')).data!.botStorage).toEqual([]);

    expect(graphqlError(await graphql(ts, alice, '{ botStorage(keys: ["one", "nope"]) { key } }'))).toEqual({
      message: 'Key does not exist.',
      code: 'BAD_REQUEST',
    });
    expect(graphqlError(await graphql(ts, alice, 'mutation { removeBotStorage(keys: ["one", "nope"]) }'))).toEqual({
      message: 'Key does not exist.',
      code: 'BAD_REQUEST',
    });
    expect(await storageOf(alice)).toEqual({ one: 'uno', two: '2', three: '3' });

    const removed = await graphql(ts, alice, 'mutation { removeBotStorage(keys: ["one", "three"]) }');
    expect(removed.data!.removeBotStorage).toEqual(['one', 'three']);
    expect(await storageOf(alice)).toEqual({ two: '2' });
    const rest = await graphql(ts, alice, 'mutation { removeBotStorage }');
    expect(rest.data!.removeBotStorage).toEqual(['two']);
    expect(await storageOf(alice)).toEqual({});
  });

  test('the size limit applies, with the same message, and stores nothing', async () => {
    assertSuccess(await put(alice, { k: 'x'.repeat(LIMIT - 1) }));
    const res = await graphql(ts, alice, 'mutation($e: [BotStorageEntryInput!]!) { updateBotStorage(entries: $e) { key } }', {
      e: [{ key: 'a', value: 'b' }],
    });
    expect(graphqlError(res)).toEqual({ message: 'Request exceeds storage limit by 2 characters. The limit is 10000000 characters.', code: 'BAD_REQUEST' });
    expect(Object.keys(await storageOf(alice))).toEqual(['k']);
  }, 60_000);

  test('unauthenticated operations are refused', async () => {
    expect(graphqlError(await graphql(ts, null, '{ botStorage { key } }')).code).toBe('UNAUTHORIZED');
    expect(graphqlError(await graphql(ts, null, 'mutation { removeBotStorage }')).code).toBe('UNAUTHORIZED');
  });
});
