import { zulipDefaults } from '../../src/core/settings/catalog';
import { assertSuccess, client } from '../helpers/api';
import { verifyAction, verifyActionFor, withoutIds } from '../helpers/events';
import { makeUser, startTestServer, SERVER_HOOK_TIMEOUT, TestServer, TestUser } from '../helpers/server';

// Clients that declare user_settings_object: the modern user_settings and realm_user events.
let ts: TestServer;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let guest: TestUser;

const options = { capabilities: { user_settings_object: true } };

beforeAll(async () => {
  ts = await startTestServer();
  owner = ts.owner;
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400);
  guest = await makeUser(ts, 600);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

describe('PATCH /settings', () => {
  const CHANGES: [string, Record<string, unknown>][] = [
    ['boolean settings', { enable_sounds: false, send_read_receipts: false, twenty_four_hour_time: true }],
    ['integer choices', { color_scheme: 3, demote_inactive_streams: 2, web_channel_default_view: 3 }],
    ['free integers', { web_font_size_px: 18, web_line_height_percent: 150, email_notifications_batching_period_seconds: 600 }],
    ['string choices', { emojiset: 'text', web_home_view: 'all_messages', web_animate_image_previews: 'never', notification_sound: 'ding' }],
    ['the language', { default_language: 'fr' }],
    [
      'default channel notification settings',
      { enable_stream_desktop_notifications: true, enable_stream_push_notifications: true, wildcard_mentions_notify: false },
    ],
    ['typing settings', { send_stream_typing_notifications: false, receives_typing_notifications: false }],
    ['personal settings', { allow_private_data_export: true, enable_login_emails: false }],
  ];

  test.each(CHANGES)('%s: every client of the user follows; nobody else hears', async (_label, params) => {
    const [mine, again, other] = await verifyActionFor(ts, [member, member, admin], () => client(ts, member).patch('/settings', params), options);
    const byProperty = (a: Record<string, any>, b: Record<string, any>) => (a.property < b.property ? -1 : 1);
    expect(withoutIds(mine).sort(byProperty)).toEqual(
      Object.entries(params)
        .map(([property, value]) =>
          property === 'default_language'
            ? { type: 'user_settings', op: 'update', property, value, language_name: 'Français' }
            : { type: 'user_settings', op: 'update', property, value },
        )
        .sort(byProperty),
    );
    expect(withoutIds(again)).toEqual(withoutIds(mine));
    expect(other).toEqual([]);
  });

  test('presence: the user’s clients hear of the setting, everyone of the new presence', async () => {
    for (const value of [false, true]) {
      const [mine, again, other] = await verifyActionFor(
        ts,
        [member, member, admin],
        () => client(ts, member).patch('/settings', { presence_enabled: value }),
        options,
      );
      expect(withoutIds(mine).filter((e) => e.type === 'user_settings')).toEqual([
        { type: 'user_settings', op: 'update', property: 'presence_enabled', value },
      ]);
      expect(withoutIds(again)).toEqual(withoutIds(mine));
      expect(other.every((e) => e.type === 'presence')).toBe(true);
    }
  });

  test('setting a value back to what it is sends nothing', async () => {
    const [mine] = await verifyActionFor(ts, [member], () => client(ts, member).patch('/settings', { color_scheme: 3 }), options);
    expect(mine).toEqual([]);
  });

  test('default channel notification settings of a subscriber, with only settings and subscriptions fetched', async () => {
    assertSuccess(await client(ts, member).post('/users/me/subscriptions', { subscriptions: [{ name: 'settings-room' }] }));
    // Subscriptions inheriting the defaults show null to clients that take null.
    await verifyAction(
      ts,
      member,
      () => client(ts, member).patch('/settings', { enable_stream_audible_notifications: true, enable_stream_email_notifications: true }),
      {
        capabilities: { user_settings_object: true, notification_settings_null: true },
        fetchEventTypes: ['user_settings', 'subscription'],
      },
    );
  });

  test('a time zone change reaches the user’s settings and everyone’s view of the user', async () => {
    const all = await verifyActionFor(ts, [member, admin, guest], () => client(ts, member).patch('/settings', { timezone: 'Europe/Paris' }), options);
    expect(withoutIds(all[0])).toEqual(
      expect.arrayContaining([
        { type: 'user_settings', op: 'update', property: 'timezone', value: 'Europe/Paris' },
        { type: 'realm_user', op: 'update', person: { user_id: member.id, email: member.email, timezone: 'Europe/Paris' } },
      ]),
    );
    expect(withoutIds(all[1])).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: member.id, email: member.email, timezone: 'Europe/Paris' } }]);
    expect(withoutIds(all[2])).toEqual(withoutIds(all[1]));
    await verifyActionFor(ts, [member, guest], () => client(ts, member).patch('/settings', { timezone: 'America/New_York' }), options);
  });

  test('a time zone change by a user whose address is hidden names them as each viewer knows them', async () => {
    const hidden = await makeUser(ts, 400);
    assertSuccess(await client(ts, hidden).patch('/settings', { email_address_visibility: 3 }));
    await verifyActionFor(ts, [hidden, owner, admin, member, guest], () => client(ts, hidden).patch('/settings', { timezone: 'Asia/Tokyo' }), options);
  });

  test('a new full name reaches everyone, the user included', async () => {
    const all = await verifyActionFor(ts, [member, admin, guest], () => client(ts, member).patch('/settings', { full_name: 'Grace Hopper' }), options);
    for (const events of all)
      expect(withoutIds(events)).toEqual([{ type: 'realm_user', op: 'update', person: { user_id: member.id, full_name: 'Grace Hopper' } }]);
  });

  test('a client that asked only for settings events hears of a rename only through them', async () => {
    const [events] = await verifyActionFor(
      ts,
      [member],
      () => client(ts, member).patch('/settings', { full_name: 'Grace M. Hopper', left_side_userlist: true }),
      {
        ...options,
        eventTypes: ['user_settings'],
      },
    );
    expect(withoutIds(events)).toEqual([{ type: 'user_settings', op: 'update', property: 'left_side_userlist', value: true }]);
  });

  test('a full name and settings at once', async () => {
    await verifyActionFor(ts, [member, admin], () => client(ts, member).patch('/settings', { full_name: 'Grace B. Hopper', enter_sends: true }), options);
  });

  test.each([
    [3, 'administrators only'],
    [4, 'nobody'],
    [2, 'members'],
    [5, 'moderators'],
    [1, 'everyone'],
  ])('address visibility %i (%s), as the user, an owner, an administrator, a member and a guest see it', async (value) => {
    await verifyActionFor(
      ts,
      [member, owner, admin, guest, await makeUser(ts, 300)],
      () => client(ts, member).patch('/settings', { email_address_visibility: value }),
      options,
    );
  });

  test.each([
    ['without client_gravatar', { clientGravatar: false }],
    ['with modern presence', { capabilities: { user_settings_object: true, simplified_presence_events: true } }],
    ['with only the user list fetched', { fetchEventTypes: ['realm_user'] }],
  ])('address visibility changes %s', async (_label, variant) => {
    const target = await makeUser(ts, 400);
    const watchers = [target, owner, member, guest];
    for (const value of [3, 2, 4, 1]) {
      await verifyActionFor(ts, watchers, () => client(ts, target).patch('/settings', { email_address_visibility: value }), { ...options, ...variant });
    }
  });

  test('an administrator’s address hidden from members, then shown again', async () => {
    const other = await makeUser(ts, 400);
    await verifyActionFor(ts, [admin, other, guest], () => client(ts, admin).patch('/settings', { email_address_visibility: 4 }), options);
    await verifyActionFor(ts, [admin, other, guest], () => client(ts, admin).patch('/settings', { email_address_visibility: 1 }), options);
  });
});

describe('PATCH /realm/user_settings_defaults', () => {
  afterAll(async () => {
    await ts.server.deps.knex('realm_user_default_settings').update(zulipDefaults());
  });

  test.each([
    ['a boolean', { enable_digest_emails: false }],
    ['an integer choice', { color_scheme: 2 }],
    ['a free integer', { web_font_size_px: 20 }],
    ['a string', { web_home_view: 'recent', emojiset: 'twitter' }],
  ])('%s: every user hears, guests included', async (_label, params) => {
    const all = await verifyActionFor(ts, [admin, member, guest], () => client(ts, owner).patch('/realm/user_settings_defaults', params), options);
    for (const events of all) {
      expect(withoutIds(events)).toEqual(
        Object.entries(params).map(([property, value]) => ({ type: 'realm_user_settings_defaults', op: 'update', property, value })),
      );
    }
  });
});
