import { Knex } from 'knex';
import { SETTINGS, zulipDefaults } from '../../src/core/settings/catalog';
import { receivesTypingNotifications } from '../../src/core/settings/store';
import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { capture, Capture } from './capture';
import { applyEvents, registerOptions, registerState } from './register-state';

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

async function newUser(role: 100 | 200 | 300 | 400 | 600): Promise<TestUser> {
  const user = await makeUser(ts, role);
  events.clear();
  return user;
}

/**
 * The register state plus the events a user received equals a fresh register state: the check
 * that keeps events and state in step.
 */
async function verifyAction(viewer: TestUser, fetchTypes: string[], action: () => Promise<unknown>, options = registerOptions()) {
  const state = await registerState(ts, viewer.id, fetchTypes, options);
  events.clear();
  await action();
  const received = events.forUser(viewer.id);
  expect(received.length).toBeGreaterThan(0);
  await applyEvents(ts, viewer.id, fetchTypes, state, received, options);
  expect(state).toEqual(await registerState(ts, viewer.id, fetchTypes, options));
  return { state, received };
}

describe('register state', () => {
  test('user_settings holds every setting, the time zone and the choices', async () => {
    const member = await newUser(400);
    const state = await registerState(ts, member.id, ['user_settings'], registerOptions());
    const settings = state.user_settings as Record<string, unknown>;
    expect(settings).toMatchObject({ ...zulipDefaults(), timezone: '' });
    expect(Object.keys(settings).sort()).toEqual([...SETTINGS.map((s) => s.name), 'timezone', 'emojiset_choices', 'available_notification_sounds'].sort());
    expect(settings.emojiset_choices).toEqual([
      { key: 'google', text: 'Google' },
      { key: 'twitter', text: 'Twitter' },
      { key: 'text', text: 'Plain text' },
    ]);
    expect(settings.available_notification_sounds).toContain('zulip');
    expect(settings).not.toHaveProperty('dense_mode');
  });

  test('realm_user_settings_defaults holds every default and the choices', async () => {
    const member = await newUser(400);
    const state = await registerState(ts, member.id, ['realm_user_settings_defaults'], registerOptions());
    expect(state.realm_user_settings_defaults).toMatchObject(zulipDefaults());
    expect(state.realm_user_settings_defaults).toHaveProperty('emojiset_choices');
    expect(state.realm_user_settings_defaults).toHaveProperty('available_notification_sounds');
  });

  test('clients without user_settings_object get the older top-level layout', async () => {
    const member = await newUser(400);
    const legacyTypes = ['update_display_settings', 'update_global_notifications'];
    const legacy = await registerState(ts, member.id, legacyTypes, registerOptions());
    expect(legacy).toMatchObject({ color_scheme: 1, emojiset: 'google', timezone: '', presence_enabled: true, notification_sound: 'zulip' });
    expect(legacy).toHaveProperty('emojiset_choices');
    expect(legacy).toHaveProperty('available_notification_sounds');
    expect(legacy).not.toHaveProperty('send_read_receipts');
    const modern = await registerState(ts, member.id, legacyTypes, registerOptions({}, { user_settings_object: true }));
    expect(modern).toEqual({});
  });

  test('settings events bring user_settings and the legacy layout up to date', async () => {
    const member = await newUser(400);
    await verifyAction(member, ['user_settings', 'update_display_settings', 'update_global_notifications'], () =>
      client(ts, member).patch('/settings', {
        color_scheme: 3,
        enable_sounds: false,
        send_read_receipts: false,
        default_language: 'fr',
        timezone: 'Europe/Paris',
      }),
    );
  });

  test('a time zone change reaches the profile others hold', async () => {
    const member = await newUser(400);
    const other = await newUser(400);
    await verifyAction(other, ['realm_user'], () => client(ts, member).patch('/settings', { timezone: 'America/New_York' }));
  });

  test('a rename reaches everyone, including the renamed user', async () => {
    const member = await newUser(400);
    await verifyAction(member, ['realm_user', 'user_settings'], () => client(ts, member).patch('/settings', { full_name: 'Grace Hopper' }));
  });

  test.each([[400], [200]] as const)('an address visibility change reaches a viewer of role %i', async (role) => {
    const target = await newUser(400);
    const viewer = await newUser(role);
    // Hidden from members: members' state changes, administrators' does not (they get no event).
    const state = await registerState(ts, viewer.id, ['realm_user'], registerOptions());
    await client(ts, target).patch('/settings', { email_address_visibility: 3 });
    await applyEvents(ts, viewer.id, ['realm_user'], state, events.forUser(viewer.id), registerOptions());
    expect(state).toEqual(await registerState(ts, viewer.id, ['realm_user'], registerOptions()));
    const entry = (state.realm_users as { user_id: number; email: string }[]).find((u) => u.user_id === target.id)!;
    expect(entry.email).toBe(role === 200 ? target.email : `user${target.id}@parley.invalid`);
    if (role === 400) {
      await verifyAction(viewer, ['realm_user'], () => client(ts, target).patch('/settings', { email_address_visibility: 1 }));
    }
  });

  test('organization default changes reach every user', async () => {
    const admin = await newUser(200);
    const member = await newUser(400);
    await verifyAction(member, ['realm_user_settings_defaults'], () =>
      client(ts, admin).patch('/realm/user_settings_defaults', { web_home_view: 'all_messages', enable_digest_emails: false }),
    );
    await knex('realm_user_default_settings').update(zulipDefaults());
  });
});

describe('receivesTypingNotifications', () => {
  test('keeps the users who want typing notifications, in the order given', async () => {
    const a = await newUser(400);
    const b = await newUser(400);
    const c = await newUser(600);
    assertSuccess(await client(ts, b).patch('/settings', { receives_typing_notifications: false }));
    expect(await receivesTypingNotifications(knex, [c.id, b.id, a.id])).toEqual([c.id, a.id]);
    expect(await receivesTypingNotifications(knex, [])).toEqual([]);
  });
});

describe('GraphQL', () => {
  test('mySettings and updateSettings use the same rules and events as REST', async () => {
    const member = await newUser(400);
    const read = await graphql(ts, member, '{ mySettings { colorScheme emojiset enterSends timezone webFontSizePx } }');
    expect(read.data).toEqual({ mySettings: { colorScheme: 1, emojiset: 'google', enterSends: false, timezone: '', webFontSizePx: 16 } });

    const changed = await graphql(ts, member, 'mutation($input: UpdateSettingsInput!) { updateSettings(input: $input) { colorScheme enterSends timezone } }', {
      input: { colorScheme: 2, enterSends: true, timezone: 'Europe/Berlin', fullName: 'Renamed Person' },
    });
    expect(changed.data).toEqual({ updateSettings: { colorScheme: 2, enterSends: true, timezone: 'Europe/Berlin' } });
    expect(
      events
        .of('user_settings')
        .map((d) => d.event.property)
        .sort(),
    ).toEqual(['color_scheme', 'enter_sends', 'timezone']);
    expect(events.of('realm_user').map((d) => d.event.person)).toEqual(expect.arrayContaining([{ user_id: member.id, full_name: 'Renamed Person' }]));

    const bad = await graphql(ts, member, 'mutation { updateSettings(input: { colorScheme: 7 }) { colorScheme } }');
    expect(graphqlError(bad)).toEqual({ message: 'Invalid color_scheme', code: 'BAD_REQUEST' });
    const badSound = await graphql(ts, member, 'mutation { updateSettings(input: { notificationSound: "klaxon" }) { colorScheme } }');
    expect(graphqlError(badSound)).toEqual({ message: "Invalid notification sound 'klaxon'", code: 'BAD_REQUEST' });
  });

  test('organization defaults: anyone reads them, administrators change them', async () => {
    const member = await newUser(400);
    const admin = await newUser(200);
    const read = await graphql(ts, member, '{ realmUserSettingsDefaults { webHomeView presenceEnabled } }');
    expect(read.data).toEqual({ realmUserSettingsDefaults: { webHomeView: 'inbox', presenceEnabled: true } });

    const refused = await graphql(ts, member, 'mutation { updateRealmUserSettingsDefaults(input: { webHomeView: "inbox" }) { webHomeView } }');
    expect(graphqlError(refused)).toEqual({ message: 'Must be an organization administrator', code: 'UNAUTHORIZED_PRINCIPAL' });

    const done = await graphql(ts, admin, 'mutation { updateRealmUserSettingsDefaults(input: { webHomeView: "recent" }) { webHomeView } }');
    expect(done.data).toEqual({ updateRealmUserSettingsDefaults: { webHomeView: 'recent' } });
    expect(events.of('realm_user_settings_defaults').map((d) => d.event)).toEqual([
      { type: 'realm_user_settings_defaults', op: 'update', property: 'web_home_view', value: 'recent' },
    ]);
    await knex('realm_user_default_settings').update(zulipDefaults());
  });

  test('the input for defaults has no personal-only fields', async () => {
    const admin = await newUser(200);
    const res = await graphql(ts, admin, 'mutation { updateRealmUserSettingsDefaults(input: { defaultLanguage: "de" }) { webHomeView } }');
    expect(res.errors?.[0].message).toMatch(/defaultLanguage/);
  });

  test('without credentials the settings are out of reach', async () => {
    const res = await graphql(ts, null, '{ mySettings { colorScheme } }');
    expect(graphqlError(res)).toEqual({ message: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
  });
});
