import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { verifyActionFor, withoutIds } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Zulip's API changelog, feature levels 444 (PATCH /settings for other users) and 473 (administrators'
// bots may set other users' status), each checked through the API.
let ts: TestServer;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

type Bot = { id: number; email: string; apiKey: string };

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400);
  bob = await makeUser(ts, 400);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
}, SERVER_HOOK_TIMEOUT);

let botCount = 0;
async function makeBot(owner: TestUser, role?: number): Promise<Bot> {
  botCount += 1;
  const body = assertSuccess(await client(ts, owner).post('/bots', { full_name: `Level bot ${botCount}`, short_name: `level444bot${botCount}` }));
  if (role !== undefined) assertSuccess(await client(ts, ts.owner).patch(`/bots/${body.user_id}`, { role }));
  const { email } = assertSuccess(await client(ts, ts.owner).get(`/users/${body.user_id}`)).user;
  return { id: body.user_id, email, apiKey: body.api_key };
}

const settingsOf = async (who: { id: number }) => ts.server.deps.knex('user_settings').where({ user_id: who.id }).first();
const patchFor = (who: TestUser | Bot | null, targets: unknown, settings: Record<string, unknown>) =>
  client(ts, who).patch('/settings', { target_users: targets, ...settings });

describe('444: PATCH /settings with target_users', () => {
  test('an administrator changes listed users’ settings; each hears of their own changes only', async () => {
    const [forAlice, forBob] = await verifyActionFor(ts, [alice, bob], () =>
      patchFor(admin, { user_ids: [alice.id], skip_if_already_edited: false }, { color_scheme: 3, web_home_view: 'all_messages' }),
    );
    expect(withoutIds(forAlice)).toEqual([
      { type: 'user_settings', op: 'update', property: 'color_scheme', value: 3 },
      { type: 'user_settings', op: 'update', property: 'web_home_view', value: 'all_messages' },
    ]);
    expect(forBob).toEqual([]);
    expect(await settingsOf(alice)).toMatchObject({ color_scheme: 3, web_home_view: 'all_messages' });
    // Unchanged values send nothing.
    const [again] = await verifyActionFor(ts, [alice], () => patchFor(admin, { user_ids: [alice.id], skip_if_already_edited: false }, { color_scheme: 3 }));
    expect(again).toEqual([]);
  });

  test('members of groups are targeted recursively; bots are left out, deactivated users listed by id are not', async () => {
    const carol = await makeUser(ts, 400);
    const dave = await makeUser(ts, 400);
    const leaving = await makeUser(ts, 400);
    const bot = await makeBot(carol);
    const inner = assertSuccess(await client(ts, admin).post('/user_groups/create', { name: 'level444 inner', description: 'x', members: [dave.id] })).group_id;
    const outer = assertSuccess(
      await client(ts, admin).post('/user_groups/create', { name: 'level444 outer', description: 'x', members: [carol.id, bot.id], subgroups: [inner] }),
    ).group_id;
    assertSuccess(await client(ts, ts.owner).delete(`/users/${leaving.id}`));
    const botBefore = await settingsOf(bot);

    const [forCarol, forDave] = await verifyActionFor(ts, [carol, dave], () =>
      patchFor(admin, { group_ids: [outer], user_ids: [leaving.id, bot.id], skip_if_already_edited: false }, { enter_sends: true }),
    );
    for (const events of [forCarol, forDave])
      expect(withoutIds(events)).toEqual([{ type: 'user_settings', op: 'update', property: 'enter_sends', value: true }]);
    expect((await settingsOf(leaving)).enter_sends).toBe(true);
    expect(await settingsOf(bot)).toEqual(botBefore);
    expect((await settingsOf(alice)).enter_sends).toBe(false);
  });

  test('skip_if_already_edited leaves alone, setting by setting, users who changed it themselves', async () => {
    const erin = await makeUser(ts, 400);
    const frank = await makeUser(ts, 400);
    // Erin chose her own font size; a value an administrator set for her is not her choice.
    assertSuccess(await client(ts, erin).patch('/settings', { web_font_size_px: 18 }));
    assertSuccess(await patchFor(admin, { user_ids: [erin.id], skip_if_already_edited: false }, { starred_message_counts: false }));

    const both = { user_ids: [erin.id, frank.id], skip_if_already_edited: true };
    const [forErin, forFrank] = await verifyActionFor(ts, [erin, frank], () => patchFor(admin, both, { web_font_size_px: 20, starred_message_counts: true }));
    expect(withoutIds(forErin)).toEqual([{ type: 'user_settings', op: 'update', property: 'starred_message_counts', value: true }]);
    // Frank's counts were already on (the default): only what differs is changed.
    expect(withoutIds(forFrank)).toEqual([{ type: 'user_settings', op: 'update', property: 'web_font_size_px', value: 20 }]);
    expect(await settingsOf(erin)).toMatchObject({ web_font_size_px: 18, starred_message_counts: true });

    // Without skipping, her choice is overridden too.
    assertSuccess(await patchFor(admin, { ...both, skip_if_already_edited: false }, { web_font_size_px: 20 }));
    expect((await settingsOf(erin)).web_font_size_px).toBe(20);
  });

  test('who may, what may be changed, and bad requests change nothing', async () => {
    const bot = await makeBot(admin, 200);
    const one = { user_ids: [alice.id], skip_if_already_edited: false };
    const before = await settingsOf(alice);
    assertError(await patchFor(bob, one, { color_scheme: 2 }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(await patchFor(bot, one, { color_scheme: 2 }), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    assertError(await patchFor(bot, 'not json', { color_scheme: 2 }), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
    // Values are checked before the caller's role, as in Zulip.
    assertError(await patchFor(bob, one, { color_scheme: 9 }), 'BAD_REQUEST', 'Invalid color_scheme');
    assertError(
      await client(ts, admin).patch('/settings', { target_users: '{', color_scheme: 2 }),
      'INVALID_JSON',
      'Argument "target_users" is not valid JSON.',
    );
    assertError(await patchFor(admin, { user_ids: [alice.id] }, { color_scheme: 2 }), 'BAD_REQUEST', 'skip_if_already_edited key is missing from target_users');
    assertError(await patchFor(admin, { user_ids: 'x', skip_if_already_edited: true }, {}), 'BAD_REQUEST', 'target_users["user_ids"] is not a list');
    for (const empty of [{ skip_if_already_edited: true }, { user_ids: [], group_ids: [], skip_if_already_edited: true }]) {
      assertError(await patchFor(admin, empty, { color_scheme: 2 }), 'BAD_REQUEST', 'Either user_ids or group_ids must be provided.');
    }
    for (const personal of [
      { timezone: 'Europe/Paris' },
      { email: 'new@example.com' },
      { new_password: 'a-long-new-password-1' },
      { send_read_receipts: false },
      { presence_enabled: false },
      { email_address_visibility: 5 },
    ]) {
      assertError(await patchFor(admin, one, { color_scheme: 2, ...personal }), 'BAD_REQUEST', 'Cannot change this setting for other users.');
    }
    assertError(
      await patchFor(admin, { user_ids: [alice.id, 999999], skip_if_already_edited: false }, { color_scheme: 2 }),
      'BAD_REQUEST',
      'Invalid user ID: 999999',
    );
    assertError(
      await patchFor(admin, { user_ids: [alice.id], group_ids: [999999], skip_if_already_edited: false }, { color_scheme: 2 }),
      'BAD_REQUEST',
      'Invalid user group ID: 999999',
    );
    assertError(
      await patchFor(admin, { user_ids: [2 ** 40], skip_if_already_edited: false }, { color_scheme: 2 }),
      'BAD_REQUEST',
      `Invalid user ID: ${2 ** 40}`,
    );
    expect(await settingsOf(alice)).toEqual(before);
    // Without target_users, the request is still about the caller's own settings.
    assertSuccess(await client(ts, bob).patch('/settings', { color_scheme: 2 }));
    expect((await settingsOf(bob)).color_scheme).toBe(2);
  });

  test('GraphQL: updateOtherUsersSettings, with the same rules', async () => {
    const mutation = `mutation($t: TargetUsersInput!, $i: UpdateOtherUsersSettingsInput!) { updateOtherUsersSettings(targetUsers: $t, input: $i) }`;
    const [events] = await verifyActionFor(ts, [bob], () =>
      graphql(ts, admin, mutation, { t: { userIds: [bob.id], skipIfAlreadyEdited: false }, i: { webLineHeightPercent: 150 } }).then((res) => {
        expect(res.data?.updateOtherUsersSettings).toBe(true);
      }),
    );
    expect(withoutIds(events)).toEqual([{ type: 'user_settings', op: 'update', property: 'web_line_height_percent', value: 150 }]);
    expect(graphqlError(await graphql(ts, bob, mutation, { t: { userIds: [alice.id], skipIfAlreadyEdited: false }, i: { colorScheme: 2 } }))).toMatchObject({
      code: 'UNAUTHORIZED_PRINCIPAL',
    });
    expect(
      graphqlError(await graphql(ts, admin, mutation, { t: { userIds: [alice.id], skipIfAlreadyEdited: false }, i: { sendReadReceipts: false } })),
    ).toEqual({
      code: 'BAD_REQUEST',
      message: 'Cannot change this setting for other users.',
    });
    expect(graphqlError(await graphql(ts, admin, mutation, { t: { skipIfAlreadyEdited: true }, i: { colorScheme: 2 } })).message).toBe(
      'Either user_ids or group_ids must be provided.',
    );
  });
});

describe('473: POST /users/{user_id}/status, for administrators and their bots', () => {
  const setStatus = (who: TestUser | Bot, userId: number, params: Record<string, unknown>) => client(ts, who).post(`/users/${userId}/status`, params);

  test('an administrator sets another user’s status; everyone hears of it', async () => {
    const [forAlice, forBob] = await verifyActionFor(ts, [alice, bob], () => setStatus(admin, alice.id, { status_text: ' In a meeting ', emoji_name: 'car' }));
    const expected = {
      type: 'user_status',
      user_id: alice.id,
      status_text: 'In a meeting',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    };
    expect(withoutIds(forAlice)).toEqual([expected]);
    expect(withoutIds(forBob)).toEqual([expected]);
    expect(assertSuccess(await client(ts, bob).get(`/users/${alice.id}/status`)).status).toEqual({
      status_text: 'In a meeting',
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
  });

  test('a bot with the administrator role may; other bots and members may not', async () => {
    const adminBot = await makeBot(admin, 200);
    const [events] = await verifyActionFor(ts, [bob], () => setStatus(adminBot, bob.id, { status_text: 'Set by a bot' }));
    expect(withoutIds(events)).toEqual([{ type: 'user_status', user_id: bob.id, status_text: 'Set by a bot' }]);

    const memberBot = await makeBot(alice);
    const adminsOwnBot = await makeBot(admin);
    for (const who of [memberBot, adminsOwnBot, alice]) {
      assertError(await setStatus(who, bob.id, { status_text: 'No' }), 'BAD_REQUEST', 'Insufficient permission');
    }
    expect(assertSuccess(await client(ts, alice).get(`/users/${bob.id}/status`)).status).toEqual({ status_text: 'Set by a bot' });
  });

  test('targets and values are checked as Zulip does; `away` is not for others to set', async () => {
    const bot = await makeBot(alice);
    const leaving = await makeUser(ts, 400);
    assertSuccess(await client(ts, ts.owner).delete(`/users/${leaving.id}`));
    assertError(await setStatus(admin, 999999, { status_text: 'x' }), 'BAD_REQUEST', 'No such user');
    assertError(await setStatus(admin, bot.id, { status_text: 'x' }), 'BAD_REQUEST', 'No such user');
    assertError(await setStatus(admin, leaving.id, { status_text: 'x' }), 'BAD_REQUEST', 'User is deactivated');
    assertError(await setStatus(admin, alice.id, {}), 'BAD_REQUEST', 'Client did not pass any new values.');
    assertError(await setStatus(bob, alice.id, { status_text: 'x'.repeat(61) }), 'BAD_REQUEST', 'status_text is too long (limit: 60 characters)');
    assertError(
      await setStatus(admin, alice.id, { status_text: 'x', emoji_code: '1f697' }),
      'BAD_REQUEST',
      'Client must pass emoji_name if they pass either emoji_code or reaction_type.',
    );
    assertError(await setStatus(admin, alice.id, { emoji_name: 'no_such_emoji' }), 'BAD_REQUEST', "Emoji 'no_such_emoji' does not exist");

    const res = assertSuccess(await setStatus(admin, alice.id, { away: true, status_text: '' }));
    expect(res.ignored_parameters_unsupported).toEqual(['away']);
    expect(assertSuccess(await client(ts, bob).get(`/users/${alice.id}/status`)).status).toEqual({
      emoji_name: 'car',
      emoji_code: '1f697',
      reaction_type: 'unicode_emoji',
    });
  });

  test('GraphQL: updateUserStatusForUser', async () => {
    const adminBot = await makeBot(admin, 200);
    const mutation = `mutation($id: Int!, $s: OtherUserStatusInput!) { updateUserStatusForUser(userId: $id, status: $s) { userId statusText emojiName } }`;
    const res = await graphql(ts, adminBot, mutation, { id: alice.id, s: { statusText: 'Via GraphQL', emojiName: '' } });
    expect(res.data?.updateUserStatusForUser).toEqual({ userId: alice.id, statusText: 'Via GraphQL', emojiName: null });
    expect(graphqlError(await graphql(ts, bob, mutation, { id: alice.id, s: { statusText: 'No' } }))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Insufficient permission',
    });
  });
});
