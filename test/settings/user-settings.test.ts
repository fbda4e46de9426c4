import { SETTINGS } from '../../src/core/settings/catalog';
import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { capture, Capture } from './capture';

let ts: TestServer;
let events: Capture;

beforeAll(async () => {
  ts = await startTestServer();
  events = capture(ts);
}, 120_000);
afterAll(async () => {
  events.stop();
  await ts.close();
});
beforeEach(() => events.clear());

/** A new account; the realm_user event of its creation is not what these tests look at. */
async function newUser(role: 100 | 200 | 300 | 400 | 600): Promise<TestUser> {
  const user = await makeUser(ts, role);
  events.clear();
  return user;
}

const settingsOf = async (user: TestUser) => ts.server.deps.knex('user_settings').where({ user_id: user.id }).first();

const activeIds = async () =>
  ((await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id')) as number[]).sort((a, b) => a - b);

describe('PATCH /settings', () => {
  test('changes booleans, integers and strings, and tells only the user', async () => {
    const member = await newUser(400);
    const res = await client(ts, member).patch('/settings', {
      enter_sends: true,
      color_scheme: 2,
      emojiset: 'twitter',
      web_home_view: 'recent',
      notification_sound: 'ding',
    });
    expect(assertSuccess(res)).toEqual({ result: 'success', msg: '' });
    expect(await settingsOf(member)).toMatchObject({
      enter_sends: true,
      color_scheme: 2,
      emojiset: 'twitter',
      web_home_view: 'recent',
      notification_sound: 'ding',
    });
    const sent = events.of('user_settings');
    expect(sent.map((d) => d.event.property).sort()).toEqual(['color_scheme', 'emojiset', 'enter_sends', 'notification_sound', 'web_home_view']);
    for (const d of sent) expect(d.userIds).toEqual([member.id]);
    expect(sent.find((d) => d.event.property === 'color_scheme')!.event).toEqual({
      type: 'user_settings',
      op: 'update',
      property: 'color_scheme',
      value: 2,
    });
  });

  test('every role may change its own settings', async () => {
    for (const role of [100, 200, 300, 400, 600] as const) {
      const user = await newUser(role);
      assertSuccess(await client(ts, user).patch('/settings', { twenty_four_hour_time: true }));
      expect((await settingsOf(user)).twenty_four_hour_time).toBe(true);
    }
  });

  test('a value equal to the stored one changes nothing and sends no event', async () => {
    const member = await newUser(400);
    assertSuccess(await client(ts, member).patch('/settings', { starred_message_counts: true, user_list_style: 3 }));
    expect(events.deliveries).toEqual([]);
  });

  test("one user's change leaves everyone else's settings alone", async () => {
    const alice = await newUser(400);
    const bob = await newUser(400);
    const res = await client(ts, alice).patch('/settings', { high_contrast_mode: true, user_id: bob.id });
    expect(assertSuccess(res).ignored_parameters_unsupported).toEqual(['user_id']);
    expect((await settingsOf(alice)).high_contrast_mode).toBe(true);
    expect((await settingsOf(bob)).high_contrast_mode).toBe(false);
    expect(events.forUser(bob.id)).toEqual([]);
  });

  test('dense_mode is gone: ignored and reported', async () => {
    const member = await newUser(400);
    const res = await client(ts, member).patch('/settings', { dense_mode: true, fluid_layout_width: true });
    expect(assertSuccess(res).ignored_parameters_unsupported).toEqual(['dense_mode']);
    expect(await settingsOf(member)).not.toHaveProperty('dense_mode');
    expect((await settingsOf(member)).fluid_layout_width).toBe(true);
  });

  test('a new email address waits for its confirmation link (see test/accounts)', async () => {
    const member = await newUser(400);
    const res = await client(ts, member).patch('/settings', { email: `new-${member.id}@example.com` });
    expect(assertSuccess(res).ignored_parameters_unsupported).toBeUndefined();
    const row = await ts.server.deps.knex('users').where({ id: member.id }).first();
    expect(row.delivery_email).toBe(member.email);
  });

  test.each([
    [{ color_scheme: 4 }, 'Invalid color_scheme'],
    [{ color_scheme: 'dark' }, 'Argument "color_scheme" is not valid JSON.'],
    [{ color_scheme: 1.5 }, 'color_scheme is not an integer'],
    [{ color_scheme: true }, 'color_scheme is not an integer'],
    [{ enter_sends: 1 }, 'enter_sends is not a boolean'],
    [{ enter_sends: '"yes"' }, 'enter_sends is not a boolean'],
    [{ emojiset: 'apple' }, 'Invalid emojiset'],
    [{ emojiset: 'google-blob' }, 'Invalid emojiset'],
    [{ web_home_view: 'home' }, 'Invalid web_home_view'],
    [{ web_animate_image_previews: 'sometimes' }, 'Invalid web_animate_image_previews'],
    [{ web_channel_default_view: 5 }, 'Invalid web_channel_default_view'],
    [{ demote_inactive_streams: 0 }, 'Invalid demote_inactive_streams'],
    [{ user_list_style: 4 }, 'Invalid user_list_style'],
    [{ web_stream_unreads_count_display_policy: 4 }, 'Invalid web_stream_unreads_count_display_policy'],
    [{ desktop_icon_count_display: 5 }, 'Invalid desktop_icon_count_display'],
    [{ realm_name_in_email_notifications_policy: 4 }, 'Invalid realm_name_in_email_notifications_policy'],
    [{ automatically_follow_topics_policy: 5 }, 'Invalid automatically_follow_topics_policy'],
    [{ automatically_unmute_topics_in_muted_streams_policy: 0 }, 'Invalid automatically_unmute_topics_in_muted_streams_policy'],
    [{ resolved_topic_notice_auto_read_policy: 'sometimes' }, 'Invalid resolved_topic_notice_auto_read_policy'],
    [{ email_address_visibility: 6 }, 'Invalid email_address_visibility'],
    [{ web_mark_read_on_scroll_policy: 4 }, 'Invalid web_mark_read_on_scroll_policy'],
    [{ default_language: 'xx' }, 'Invalid default_language'],
    [{ notification_sound: 'klaxon' }, "Invalid notification sound 'klaxon'"],
    [{ email_notifications_batching_period_seconds: 0 }, 'Invalid email batching period: 0 seconds'],
    [{ email_notifications_batching_period_seconds: 604801 }, 'Invalid email batching period: 604801 seconds'],
    [{ web_font_size_px: -1 }, 'web_font_size_px is too small'],
    [{ web_line_height_percent: 40000 }, 'web_line_height_percent is too large'],
    [{ timezone: 'Mars/Olympus_Mons' }, 'Invalid timezone'],
    [{ timezone: '' }, 'Invalid timezone'],
  ])('%j is refused: %s', async (params, msg) => {
    const member = await newUser(400);
    const code = msg.startsWith('Argument') ? 'INVALID_JSON' : 'BAD_REQUEST';
    assertError(await client(ts, member).patch('/settings', params), code, msg, 400);
    expect(events.deliveries).toEqual([]);
  });

  test('one bad value means nothing changes', async () => {
    const member = await newUser(400);
    const before = await settingsOf(member);
    const res = await client(ts, member).patch('/settings', { enter_sends: true, translate_emoticons: true, color_scheme: 9 });
    assertError(res, 'BAD_REQUEST', 'Invalid color_scheme');
    expect(await settingsOf(member)).toEqual(before);
    expect(events.deliveries).toEqual([]);
  });

  test('the edge values of the ranges are accepted, and "none" silences sounds', async () => {
    const member = await newUser(400);
    assertSuccess(
      await client(ts, member).patch('/settings', {
        email_notifications_batching_period_seconds: 604800,
        notification_sound: 'none',
        web_font_size_px: 12,
        web_line_height_percent: 122,
        web_channel_default_view: 4,
        resolved_topic_notice_auto_read_policy: 'never',
      }),
    );
    expect(await settingsOf(member)).toMatchObject({
      email_notifications_batching_period_seconds: 604800,
      notification_sound: 'none',
      web_font_size_px: 12,
      web_line_height_percent: 122,
      web_channel_default_view: 4,
      resolved_topic_notice_auto_read_policy: 'never',
    });
  });

  test('default_language events name the language', async () => {
    const member = await newUser(400);
    assertSuccess(await client(ts, member).patch('/settings', { default_language: 'de' }));
    expect(events.of('user_settings')).toEqual([
      {
        event: { type: 'user_settings', op: 'update', property: 'default_language', value: 'de', language_name: 'Deutsch' },
        userIds: [member.id],
      },
    ]);
  });

  test('multipart bodies work too', async () => {
    const member = await newUser(400);
    assertSuccess(await client(ts, member).patch('/settings', { left_side_userlist: true }, { multipart: true }));
    expect((await settingsOf(member)).left_side_userlist).toBe(true);
  });

  test('every catalog setting can be set to a non-default value', async () => {
    const member = await newUser(400);
    const params: Record<string, unknown> = {};
    for (const spec of SETTINGS) {
      if (spec.kind === 'bool') params[spec.name] = !spec.default;
      else if (spec.choices) params[spec.name] = spec.choices.find((c) => c !== spec.default);
      else if (spec.name === 'notification_sound') params[spec.name] = 'chime';
      else params[spec.name] = (spec.default as number) + 1;
    }
    assertSuccess(await client(ts, member).patch('/settings', params));
    const stored = { ...(await settingsOf(member)), ...(await ts.server.deps.knex('users').where({ id: member.id }).first('email_address_visibility')) };
    for (const spec of SETTINGS) expect([spec.name, stored[spec.name]]).toEqual([spec.name, params[spec.name]]);
    expect(events.of('user_settings')).toHaveLength(SETTINGS.length);
  });
});

describe('full name and time zone', () => {
  test('renaming yourself tells every active user', async () => {
    const member = await newUser(400);
    assertSuccess(await client(ts, member).patch('/settings', { full_name: '  Ada Lovelace ' }));
    const row = await ts.server.deps.knex('users').where({ id: member.id }).first();
    expect(row.full_name).toBe('Ada Lovelace');
    expect(events.of('realm_user')).toEqual([
      {
        event: { type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Ada Lovelace' } },
        userIds: await activeIds(),
      },
    ]);
  });

  test('an invalid name is refused and nothing else changes', async () => {
    const member = await newUser(400);
    assertError(await client(ts, member).patch('/settings', { full_name: 'A', enter_sends: true }), 'BAD_REQUEST', 'Name too short!');
    assertError(await client(ts, member).patch('/settings', { full_name: 'Ada *Bold*' }), 'BAD_REQUEST', 'Invalid characters in name!');
    expect((await settingsOf(member)).enter_sends).toBe(false);
    expect(events.deliveries).toEqual([]);
  });

  test('the same name again sends nothing', async () => {
    const member = await newUser(400);
    assertSuccess(await client(ts, member).patch('/settings', { full_name: member.fullName }));
    expect(events.deliveries).toEqual([]);
  });

  test('the time zone is a setting for the user and a profile field for everyone', async () => {
    const member = await newUser(400);
    assertSuccess(await client(ts, member).patch('/settings', { timezone: 'Asia/Kolkata' }));
    const row = await ts.server.deps.knex('users').where({ id: member.id }).first();
    expect(row.timezone).toBe('Asia/Kolkata');
    expect(events.of('user_settings')).toEqual([
      { event: { type: 'user_settings', op: 'update', property: 'timezone', value: 'Asia/Kolkata' }, userIds: [member.id] },
    ]);
    expect(events.of('realm_user')).toEqual([
      {
        event: { type: 'realm_user', op: 'update', person: { email: member.email, user_id: member.id, timezone: 'Asia/Kolkata' } },
        userIds: await activeIds(),
      },
    ]);
    const me = assertSuccess(await client(ts, member).get('/users/me'));
    expect(me.timezone).toBe('Asia/Kolkata');
  });
});

describe('password', () => {
  test('changing it needs the current one, and a strong new one', async () => {
    const member = await newUser(400);
    assertError(await client(ts, member).patch('/settings', { old_password: 'wrong-one', new_password: 'brand-new-pass' }), 'BAD_REQUEST', 'Wrong password!');
    assertError(await client(ts, member).patch('/settings', { new_password: 'brand-new-pass' }), 'BAD_REQUEST', 'Wrong password!');
    assertError(
      await client(ts, member).patch('/settings', { old_password: member.password, new_password: 'abc' }),
      'BAD_REQUEST',
      'New password is too weak!',
    );
    assertSuccess(await client(ts, member).patch('/settings', { old_password: member.password, new_password: 'brand-new-pass' }));
    assertError(
      await client(ts, null).post('/fetch_api_key', { username: member.email, password: member.password }),
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
      401,
    );
    const login = assertSuccess(await client(ts, null).post('/fetch_api_key', { username: member.email, password: 'brand-new-pass' }));
    expect(login.user_id).toBe(member.id);
    // The keys already issued keep working.
    assertSuccess(await client(ts, member).get('/users/me'));
  });
});

describe('email_address_visibility', () => {
  test('is stored on the account and changes what others see', async () => {
    const target = await newUser(400);
    const member = await newUser(400);
    const admin = await newUser(200);
    const before = assertSuccess(await client(ts, member).get(`/users/${target.id}`));
    expect(before.user.delivery_email).toBe(target.email);

    assertSuccess(await client(ts, target).patch('/settings', { email_address_visibility: 3 }));
    const row = await ts.server.deps.knex('users').where({ id: target.id }).first();
    expect(row.email_address_visibility).toBe(3);
    const hidden = assertSuccess(await client(ts, member).get(`/users/${target.id}`));
    expect(hidden.user.delivery_email).toBeNull();
    expect(hidden.user.email).toBe(`user${target.id}@parley.invalid`);
    const seen = assertSuccess(await client(ts, admin).get(`/users/${target.id}`));
    expect(seen.user.delivery_email).toBe(target.email);
  });

  test('viewers who lose or gain sight of the address are told', async () => {
    const target = await newUser(400);
    const member = await newUser(400);
    const moderator = await newUser(300);
    const admin = await newUser(200);
    assertSuccess(await client(ts, target).patch('/settings', { email_address_visibility: 3 }));

    const realmUser = events.of('realm_user');
    const admins = (
      (await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).where('role', '<=', 200).pluck('id')) as number[]
    ).sort((a, b) => a - b);
    const losing = (await activeIds()).filter((id) => !admins.includes(id) && id !== target.id);
    expect(losing).toContain(member.id);
    expect(losing).toContain(moderator.id);
    expect(losing).not.toContain(admin.id);
    expect(realmUser.map((d) => d.event.person)).toEqual([
      { user_id: target.id, delivery_email: null },
      { user_id: target.id, new_email: `user${target.id}@parley.invalid` },
      expect.objectContaining({ user_id: target.id, avatar_source: 'G', avatar_version: 1 }),
    ]);
    for (const d of realmUser) expect(d.userIds).toEqual(losing);
    const avatar = realmUser[2].event.person as Record<string, string>;
    expect(avatar.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/);
    expect(avatar.avatar_url_medium).toMatch(/\?d=identicon&s=500&version=1$/);
    expect(events.of('user_settings')).toEqual([
      { event: { type: 'user_settings', op: 'update', property: 'email_address_visibility', value: 3 }, userIds: [target.id] },
    ]);

    events.clear();
    // Moderators only: moderators regain sight, members do not.
    assertSuccess(await client(ts, target).patch('/settings', { email_address_visibility: 5 }));
    const regained = events.of('realm_user');
    expect(regained.map((d) => d.event.person)).toEqual([
      { user_id: target.id, delivery_email: target.email },
      { user_id: target.id, new_email: target.email },
      expect.objectContaining({ user_id: target.id }),
    ]);
    expect(regained[0].userIds).toContain(moderator.id);
    expect(regained[0].userIds).not.toContain(member.id);
    expect(regained[0].userIds).not.toContain(admin.id);
  });
});

describe('enable_drafts_synchronization', () => {
  test('turning it off deletes the drafts stored for the user, and only theirs', async () => {
    const alice = await newUser(400);
    const bob = await newUser(400);
    const draft = { type: '', to: [], topic: '', content: 'Later' };
    assertSuccess(await client(ts, alice).post('/drafts', { drafts: [draft, draft] }));
    assertSuccess(await client(ts, bob).post('/drafts', { drafts: [draft] }));
    events.clear();

    assertSuccess(await client(ts, alice).patch('/settings', { enable_drafts_synchronization: false }));
    // No drafts event: clients keep their local copies.
    expect(events.deliveries.map((d) => d.event.type)).toEqual(['user_settings']);
    assertSuccess(await client(ts, alice).patch('/settings', { enable_drafts_synchronization: true }));
    expect(assertSuccess(await client(ts, alice).get('/drafts')).count).toBe(0);
    expect(assertSuccess(await client(ts, bob).get('/drafts')).count).toBe(1);
  });
});

describe('bots', () => {
  test('personal settings are for people', async () => {
    const bot = await newUser(400);
    await ts.server.deps.knex('users').where({ id: bot.id }).update({ is_bot: true, bot_type: 1 });
    assertError(await client(ts, bot).patch('/settings', { enter_sends: true }), 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  });
});

test('without credentials the endpoint answers 401', async () => {
  assertError(
    await client(ts, null).patch('/settings', { enter_sends: true }),
    'UNAUTHORIZED',
    'Not logged in: API authentication or user session required',
    401,
  );
});
