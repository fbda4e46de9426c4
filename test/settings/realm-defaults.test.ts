import { REALM_DEFAULT_SETTINGS, zulipDefaults } from '../../src/core/settings/catalog';
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

// Each test starts from Zulip's defaults.
beforeEach(async () => {
  await ts.server.deps.knex('realm_user_default_settings').where({ realm_id: ts.server.deps.realmId }).update(zulipDefaults());
  events.clear();
});

async function newUser(role: 100 | 200 | 300 | 400 | 600): Promise<TestUser> {
  const user = await makeUser(ts, role);
  events.clear();
  return user;
}

const defaults = () => ts.server.deps.knex('realm_user_default_settings').where({ realm_id: ts.server.deps.realmId }).first();
const settingsOf = (userId: number) => ts.server.deps.knex('user_settings').where({ user_id: userId }).first();
const activeIds = async () =>
  ((await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id')) as number[]).sort((a, b) => a - b);

describe('PATCH /realm/user_settings_defaults', () => {
  test.each([[100], [200]] as const)('role %i may change the defaults; everyone is told', async (role) => {
    const admin = await newUser(role);
    const value = role === 100 ? 2 : 3;
    assertSuccess(await client(ts, admin).patch('/realm/user_settings_defaults', { color_scheme: value, emojiset: 'text' }));
    expect(await defaults()).toMatchObject({ color_scheme: value, emojiset: 'text' });
    const sent = events.of('realm_user_settings_defaults');
    expect(sent.map((d) => d.event)).toEqual(expect.arrayContaining([{ type: 'realm_user_settings_defaults', op: 'update', property: 'color_scheme', value }]));
    for (const d of sent) expect(d.userIds).toEqual(await activeIds());
    // Setting the same values again changes nothing and sends nothing.
    events.clear();
    assertSuccess(await client(ts, admin).patch('/realm/user_settings_defaults', { color_scheme: value, emojiset: 'text' }));
    expect(events.deliveries).toEqual([]);
  });

  test.each([[300], [400], [600]] as const)('role %i is refused, even with a bad value', async (role) => {
    const user = await newUser(role);
    const before = await defaults();
    const res = await client(ts, user).patch('/realm/user_settings_defaults', { enter_sends: true });
    assertError(res, 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
    assertError(
      await client(ts, user).patch('/realm/user_settings_defaults', { color_scheme: 99 }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expect(await defaults()).toEqual(before);
    expect(events.deliveries).toEqual([]);
  });

  test('values are checked as for personal settings', async () => {
    const admin = await newUser(200);
    assertError(await client(ts, admin).patch('/realm/user_settings_defaults', { color_scheme: 0 }), 'BAD_REQUEST', 'Invalid color_scheme');
    assertError(await client(ts, admin).patch('/realm/user_settings_defaults', { web_home_view: 'stream' }), 'BAD_REQUEST', 'Invalid web_home_view');
    assertError(
      await client(ts, admin).patch('/realm/user_settings_defaults', { presence_enabled: 'no' }),
      'INVALID_JSON',
      'Argument "presence_enabled" is not valid JSON.',
    );
    assertError(
      await client(ts, admin).patch('/realm/user_settings_defaults', { notification_sound: 'gong' }),
      'BAD_REQUEST',
      "Invalid notification sound 'gong'",
    );
    assertError(
      await client(ts, admin).patch('/realm/user_settings_defaults', { email_notifications_batching_period_seconds: -1 }),
      'BAD_REQUEST',
      'Invalid email batching period: -1 seconds',
    );
    assertError(
      await client(ts, admin).patch('/realm/user_settings_defaults', { email_address_visibility: 0 }),
      'BAD_REQUEST',
      'Invalid email_address_visibility',
    );
    expect(events.deliveries).toEqual([]);
  });

  test('personal-only settings and dense_mode are ignored and reported', async () => {
    const admin = await newUser(200);
    const res = await client(ts, admin).patch('/realm/user_settings_defaults', {
      dense_mode: true,
      default_language: 'fr',
      enable_login_emails: false,
      enable_marketing_emails: false,
      allow_private_data_export: true,
      timezone: 'Europe/Paris',
      full_name: 'Someone',
      starred_message_counts: false,
    });
    expect(assertSuccess(res).ignored_parameters_unsupported).toEqual([
      'allow_private_data_export',
      'default_language',
      'dense_mode',
      'enable_login_emails',
      'enable_marketing_emails',
      'full_name',
      'timezone',
    ]);
    expect(await defaults()).toMatchObject({ default_language: 'en', enable_login_emails: true, starred_message_counts: false });
  });

  test('every organization default in the table can be changed', async () => {
    const owner = await newUser(100);
    const params: Record<string, unknown> = {};
    for (const spec of REALM_DEFAULT_SETTINGS) {
      if (spec.kind === 'bool') params[spec.name] = !spec.default;
      else if (spec.choices) params[spec.name] = spec.choices.find((c) => c !== spec.default);
      else if (spec.name === 'notification_sound') params[spec.name] = 'ding';
      else params[spec.name] = (spec.default as number) + 10;
    }
    assertSuccess(await client(ts, owner).patch('/realm/user_settings_defaults', params));
    expect(await defaults()).toMatchObject(params);
    expect(events.of('realm_user_settings_defaults')).toHaveLength(REALM_DEFAULT_SETTINGS.length);
  });
});

describe('new accounts start from the defaults', () => {
  test('existing accounts keep their settings; new ones get the current defaults', async () => {
    const admin = await newUser(200);
    const existing = await newUser(400);
    const before = await settingsOf(existing.id);
    assertSuccess(
      await client(ts, admin).patch('/realm/user_settings_defaults', {
        twenty_four_hour_time: true,
        web_font_size_px: 14,
        resolved_topic_notice_auto_read_policy: 'always',
        email_address_visibility: 4,
      }),
    );
    expect(await settingsOf(existing.id)).toEqual(before);
    const existingRow = await ts.server.deps.knex('users').where({ id: existing.id }).first();
    expect(existingRow.email_address_visibility).toBe(1);

    const created = await newUser(400);
    expect(await settingsOf(created.id)).toMatchObject({
      twenty_four_hour_time: true,
      web_font_size_px: 14,
      resolved_topic_notice_auto_read_policy: 'always',
    });
    const createdRow = await ts.server.deps.knex('users').where({ id: created.id }).first();
    expect(createdRow.email_address_visibility).toBe(4);
    // Nobody else sees the new account's address.
    const seen = assertSuccess(await client(ts, existing).get(`/users/${created.id}`));
    expect(seen.user.delivery_email).toBeNull();
  });

  test('the realm_user add event already carries the hidden address', async () => {
    const admin = await newUser(200);
    assertSuccess(await client(ts, admin).patch('/realm/user_settings_defaults', { email_address_visibility: 3 }));
    events.clear();
    const member = await makeUser(ts, 400);
    const adds = events.of('realm_user').filter((d) => d.event.op === 'add');
    const memberView = adds.find((d) => !d.userIds.includes(admin.id));
    expect(memberView!.event.person).toMatchObject({ user_id: member.id, delivery_email: null, email: `user${member.id}@parley.invalid` });
  });
});

test('the defaults row is created on first use for an organization without one', async () => {
  await ts.server.deps.knex('realm_user_default_settings').where({ realm_id: ts.server.deps.realmId }).delete();
  const created = await newUser(400);
  expect((await settingsOf(created.id)).color_scheme).toBe(1);
  expect(await defaults()).toMatchObject({ color_scheme: 1, web_home_view: 'inbox', user_list_style: 3 });
});
