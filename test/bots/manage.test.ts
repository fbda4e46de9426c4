import { assertError, assertSuccess, client } from '../helpers/api';
import { systemGroups } from '../helpers/groups';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';

// POST/GET/PATCH/DELETE /bots and key regeneration: who may do what, and Zulip's answers.
let ts: TestServer;
let people: Record<'admin' | 'moderator' | 'alice' | 'bob' | 'carol' | 'guest', TestUser>;

beforeAll(async () => {
  ts = await startTestServer();
  people = {
    admin: await makeUser(ts, 200),
    moderator: await makeUser(ts, 300),
    alice: await makeUser(ts, 400, { fullName: 'Alice Liddell' }),
    bob: await makeUser(ts, 400, { fullName: 'Bob Builder' }),
    carol: await makeUser(ts, 400, { fullName: 'Carol Singer' }),
    guest: await makeUser(ts, 600, { fullName: 'Gus Guest' }),
  };
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'general' }, { name: 'secret' }], invite_only: false }));
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

let counter = 0;
const newBot = async (who = people.alice, extra: Record<string, unknown> = {}) => {
  counter += 1;
  const body = assertSuccess(await client(ts, who).post('/bots', { full_name: `Helper ${counter}`, short_name: `helper${counter}`, ...extra }));
  const me = assertSuccess(await client(ts, ts.owner).get(`/users/${body.user_id}`)).user;
  return { id: body.user_id as number, email: me.email as string, apiKey: body.api_key as string, body };
};

describe('creating bots', () => {
  test('a member creates a generic bot that can authenticate and send messages', async () => {
    const res = assertSuccess(
      await client(ts, people.alice).post('/bots', {
        full_name: 'Weather Bot',
        short_name: 'weather',
        default_sending_stream: 'general',
        default_all_public_streams: true,
      }),
    );
    expect(res).toEqual({
      result: 'success',
      msg: '',
      user_id: expect.any(Number),
      api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/),
      avatar_url: expect.stringContaining('gravatar.com'),
      default_sending_stream: 'general',
      default_events_register_stream: null,
      default_all_public_streams: true,
    });
    const user = assertSuccess(await client(ts, people.bob).get(`/users/${res.user_id}`)).user;
    expect(user).toMatchObject({
      is_bot: true,
      bot_type: 1,
      bot_owner_id: people.alice.id,
      full_name: 'Weather Bot',
      email: expect.stringMatching(/^weather-bot@/),
    });
    const bot = { email: user.email, apiKey: res.api_key };
    const me = assertSuccess(await client(ts, bot).get('/users/me'));
    expect(me).toMatchObject({ user_id: res.user_id, is_bot: true });
    const sent = assertSuccess(await client(ts, bot).post('/messages', { type: 'stream', to: 'general', topic: 'forecast', content: 'Sunny' }));
    const message = assertSuccess(await client(ts, people.bob).get(`/messages/${sent.id}`)).message;
    expect(message).toMatchObject({ sender_id: res.user_id, content: '<p>Sunny</p>' });
    // The key is stored hashed, like every key.
    const stored: { key_hash: string }[] = await ts.server.deps.knex('api_keys').where({ user_id: res.user_id }).select('key_hash');
    expect(stored).toHaveLength(1);
    expect(stored[0].key_hash).not.toContain(res.api_key);
    // Bots appear in user lists with their type and owner.
    const all = assertSuccess(await client(ts, people.bob).get('/users')).members;
    expect(all.find((u: { user_id: number }) => u.user_id === res.user_id)).toMatchObject({ is_bot: true, bot_type: 1, bot_owner_id: people.alice.id });
  });

  test('GET /bots lists the caller’s active bots only', async () => {
    const mine = await newBot(people.carol);
    const gone = await newBot(people.carol);
    assertSuccess(await client(ts, people.carol).delete(`/bots/${gone.id}`));
    await newBot(people.bob);
    const { bots } = assertSuccess(await client(ts, people.carol).get('/bots'));
    expect(bots).toEqual([
      {
        username: mine.email,
        user_id: mine.id,
        full_name: expect.stringMatching(/^Helper/),
        avatar_url: expect.any(String),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      },
    ]);
  });

  test('Zulip’s errors, in Zulip’s order', async () => {
    const alice = client(ts, people.alice);
    assertError(await alice.post('/bots', { full_name: 'X Bot', short_name: '  ' }), 'BAD_REQUEST', 'Bad name or username');
    assertError(await alice.post('/bots', { full_name: 'X Bot', short_name: 'bad name' }), 'BAD_REQUEST', 'Bad name or username');
    assertError(await alice.post('/bots', { full_name: '', short_name: 'xbot' }), 'BAD_REQUEST', 'Name too short!');
    assertError(await alice.post('/bots', { full_name: 'Another', short_name: 'weather' }), 'BAD_REQUEST', 'Username already in use');
    assertError(await alice.post('/bots', { full_name: 'Weather Bot', short_name: 'weather2' }), 'BAD_REQUEST', 'Name is already in use!');
    assertError(await alice.post('/bots', { full_name: 'Alice Liddell', short_name: 'alice' }), 'BAD_REQUEST', 'Name is already in use!');
    assertError(await alice.post('/bots', { full_name: 'X Bot', short_name: 'xbot', bot_type: 4 }), 'BAD_REQUEST', 'Invalid bot type');
    assertError(await alice.post('/bots', { full_name: 'X Bot', short_name: 'xbot', bot_type: 3, interface_type: 7 }), 'BAD_REQUEST', 'Invalid interface type');
    assertError(
      await alice.post('/bots', { full_name: 'X Bot', short_name: 'xbot', default_sending_stream: 'nowhere' }),
      'BAD_REQUEST',
      "Invalid channel name 'nowhere'",
    );
    assertError(
      await alice.post('/bots', { full_name: 'X Bot', short_name: 'xbot', bot_type: 3, payload_url: JSON.stringify('ftp://x') }),
      'BAD_REQUEST',
      'payload_url is not a URL',
    );
    assertError(await client(ts, people.guest).post('/bots', { full_name: 'X Bot', short_name: 'xbot' }), 'BAD_REQUEST', 'Not allowed for guest users');
    // Nothing was created.
    const users = assertSuccess(await alice.get('/users')).members;
    expect(users.some((u: { email: string }) => u.email.startsWith('xbot-bot@'))).toBe(false);
  });

  test('the bot-creation permissions: all bots, or incoming webhooks only', async () => {
    const groups = await systemGroups(ts);
    const setPolicy = async (all: string, writeOnly: string) =>
      assertSuccess(
        await client(ts, ts.owner).patch('/realm', {
          can_create_bots_group: { new: groups[all] },
          can_create_write_only_bots_group: { new: groups[writeOnly] },
        }),
      );
    await setPolicy('role:administrators', 'role:moderators');
    try {
      const register = assertSuccess(await client(ts, people.bob).post('/register', { fetch_event_types: ['realm'] }));
      expect(register.realm_can_create_bots_group).toBe(groups['role:administrators']);
      assertError(await client(ts, people.bob).post('/bots', { full_name: 'No Bot', short_name: 'nobot' }), 'BAD_REQUEST', 'Insufficient permission');
      assertError(
        await client(ts, people.bob).post('/bots', { full_name: 'No Bot', short_name: 'nobot', bot_type: 2 }),
        'BAD_REQUEST',
        'Insufficient permission',
      );
      assertError(await client(ts, people.moderator).post('/bots', { full_name: 'Mod Bot', short_name: 'modbot' }), 'BAD_REQUEST', 'Insufficient permission');
      assertSuccess(await client(ts, people.moderator).post('/bots', { full_name: 'Mod Hook', short_name: 'modhook', bot_type: 2 }));
      assertSuccess(
        await client(ts, people.admin).post('/bots', {
          full_name: 'Admin Bot',
          short_name: 'adminbot',
          bot_type: 3,
          payload_url: JSON.stringify('http://127.0.0.1:9/'),
        }),
      );
    } finally {
      await setPolicy('role:members', 'role:members');
    }
  });
});

describe('managing bots', () => {
  test('owners and administrators manage a bot; others get Zulip’s answers', async () => {
    const bot = await newBot(people.alice);
    assertError(await client(ts, people.bob).patch(`/bots/${bot.id}`, { full_name: 'Stolen' }), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, people.bob).delete(`/bots/${bot.id}`), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, people.bob).post(`/bots/${bot.id}/api_key/regenerate`), 'BAD_REQUEST', 'Insufficient permission');
    assertError(await client(ts, people.alice).patch(`/bots/${people.bob.id}`, { full_name: 'Bob Bot' }), 'BAD_REQUEST', 'No such bot');
    assertError(await client(ts, people.alice).patch('/bots/99999999', { full_name: 'Nobody' }), 'BAD_REQUEST', 'No such bot');
    const res = assertSuccess(
      await client(ts, people.alice).patch(`/bots/${bot.id}`, { full_name: 'Renamed Helper', default_events_register_stream: 'general' }),
    );
    expect(res).toMatchObject({
      full_name: 'Renamed Helper',
      default_sending_stream: null,
      default_events_register_stream: 'general',
      default_all_public_streams: false,
      bot_owner: people.alice.email,
    });
    assertSuccess(await client(ts, people.admin).patch(`/bots/${bot.id}`, { default_events_register_stream: '' }));
    const again = assertSuccess(await client(ts, people.alice).get('/bots')).bots.find((b: { user_id: number }) => b.user_id === bot.id);
    expect(again).toMatchObject({ full_name: 'Renamed Helper', default_events_register_stream: null });
  });

  test('changing the owner', async () => {
    const bot = await newBot(people.alice);
    assertError(await client(ts, people.alice).patch(`/bots/${bot.id}`, { bot_owner_id: 99999 }), 'BAD_REQUEST', 'Failed to change owner, no such user');
    assertError(await client(ts, people.alice).patch(`/bots/${bot.id}`, { bot_owner_id: 2 ** 40 }), 'BAD_REQUEST', 'Failed to change owner, no such user');
    assertError(
      await client(ts, people.alice).patch(`/bots/${bot.id}`, { bot_owner_id: bot.id }),
      'BAD_REQUEST',
      "Failed to change owner, bots can't own other bots",
    );
    assertSuccess(await client(ts, people.alice).patch(`/bots/${bot.id}`, { bot_owner_id: people.bob.id }));
    const user = assertSuccess(await client(ts, people.carol).get(`/users/${bot.id}`)).user;
    expect(user.bot_owner_id).toBe(people.bob.id);
    // Alice no longer administers it.
    assertError(await client(ts, people.alice).patch(`/bots/${bot.id}`, { full_name: 'Mine Again' }), 'BAD_REQUEST', 'Insufficient permission');
  });

  test('only administrators change a bot’s role', async () => {
    const bot = await newBot(people.alice);
    assertError(await client(ts, people.alice).patch(`/bots/${bot.id}`, { role: 200 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(await client(ts, people.admin).patch(`/bots/${bot.id}`, { role: 100 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');
    assertSuccess(await client(ts, people.admin).patch(`/bots/${bot.id}`, { role: 300 }));
    expect(assertSuccess(await client(ts, people.bob).get(`/users/${bot.id}`)).user.role).toBe(300);
  });

  test('regenerating a key replaces the old one', async () => {
    const bot = await newBot(people.alice);
    const { api_key: fresh } = assertSuccess(await client(ts, people.alice).post(`/bots/${bot.id}/api_key/regenerate`));
    expect(fresh).toMatch(/^[A-Za-z0-9]{32}$/);
    assertError(await client(ts, { email: bot.email, apiKey: bot.apiKey }).get('/users/me'), 'UNAUTHORIZED', 'Invalid API key', 401);
    assertSuccess(await client(ts, { email: bot.email, apiKey: fresh }).get('/users/me'));
  });

  test('deactivating a bot refuses its key; reactivating restores it', async () => {
    const bot = await newBot(people.alice);
    assertSuccess(await client(ts, people.alice).delete(`/bots/${bot.id}`));
    assertError(await client(ts, people.alice).delete(`/bots/${bot.id}`), 'BAD_REQUEST', 'User is deactivated');
    assertError(await client(ts, { email: bot.email, apiKey: bot.apiKey }).get('/users/me'), 'UNAUTHORIZED', 'Account is deactivated', 401);
    assertSuccess(await client(ts, people.admin).post(`/users/${bot.id}/reactivate`));
    assertSuccess(await client(ts, { email: bot.email, apiKey: bot.apiKey }).get('/users/me'));
  });

  test('deactivating a person deactivates the bots they own', async () => {
    const dave = await makeUser(ts, 400);
    const bot = await newBot(dave);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${dave.id}`));
    expect(assertSuccess(await client(ts, people.bob).get(`/users/${bot.id}`)).user.is_active).toBe(false);
  });

  test('incoming-webhook bots may only send messages', async () => {
    const bot = await newBot(people.alice, { bot_type: 2 });
    const hook = { email: bot.email, apiKey: bot.apiKey };
    assertError(await client(ts, hook).get('/users/me'), 'BAD_REQUEST', 'This API is not available to incoming webhook bots.');
    assertError(await client(ts, hook).post('/register'), 'BAD_REQUEST', 'This API is not available to incoming webhook bots.');
    assertSuccess(await client(ts, hook).post('/messages', { type: 'stream', to: 'general', topic: 'hooks', content: 'Delivered' }));
  });
});
