import { REALM_SETTINGS } from '../../src/core/realm/catalog';
import { setRealmGroupSetting } from '../../src/core/groups/realm-settings';
import { realmSlice } from '../../src/core/realm/state';
import { User } from '../../src/core/users/model';
import { camelName } from '../../src/schema/settings';
import { defaultRegisterOptions } from '../helpers/register-options';
import { assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { shapeErrors, Shape, WalkOptions, ZULIP_REGISTER_KEYS } from './register-shape';

// Servers start slowly on a busy machine (PGlite compiles at start-up).
jest.setTimeout(180_000);

/**
 * POST /register answers with every key Zulip's does, with Zulip's types, so that real clients
 * start: checked against Zulip's API description (fixtures/zulip-register-response.json), the
 * fields the mobile app (zulip-flutter) requires, and the keys zulip-terminal reads.
 */

let ts: TestServer;
let member: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  // Something in the lists the walk looks into: a channel, a deactivated account.
  const gone = await makeUser(ts, 400);
  assertSuccess(await client(ts, ts.owner).post('/users/me/subscriptions', { subscriptions: [{ name: 'walk' }] }));
  assertSuccess(await client(ts, ts.owner).delete(`/users/${gone.id}`));
});
afterAll(async () => {
  await ts.close();
});

/** POST /register exactly as zulip-flutter's registerQueue sends it (lib/api/route/events.dart). */
const FLUTTER_REGISTER = {
  idle_queue_timeout: 'mobile',
  apply_markdown: true,
  client_gravatar: false,
  slim_presence: true,
  client_capabilities: {
    notification_settings_null: true,
    bulk_message_deletion: true,
    user_avatar_url_field_optional: true,
    stream_typing_notifications: true,
    user_settings_object: true,
    include_deactivated_groups: true,
    empty_topic_name: true,
    individual_emoji_changes: true,
  },
};

/** POST /register as zulip-terminal sends it (zulipterminal/model.py, _register_desired_events). */
const TERMINAL_REGISTER = {
  event_types: [
    'message',
    'update_message',
    'reaction',
    'submessage',
    'subscription',
    'typing',
    'update_message_flags',
    'user_settings',
    'realm_emoji',
    'realm_user',
  ],
  fetch_event_types: [
    'realm',
    'presence',
    'subscription',
    'message',
    'starred_messages',
    'update_message_flags',
    'muted_topics',
    'realm_user',
    'realm_user_groups',
    'user_settings',
    'realm_emoji',
    'custom_profile_fields',
    'zulip_version',
  ],
  client_gravatar: true,
  apply_markdown: true,
  include_subscribers: true,
};

/**
 * Keys of Zulip's description that this server deliberately leaves out of a register like the
 * mobile app's, and why. Anything else documented must be present.
 */
const OMITTED: Record<string, string> = {
  // Only for demo organizations, which this server does not create.
  demo_organization_scheduled_deletion_date: 'demo organizations only',
  // Documented at the top level without a condition, but Zulip sends it only inside user_settings
  // (it is newer than the legacy top-level settings layout).
  receives_typing_notifications: 'only in user_settings',
  // Removed from Zulip's register at feature level 426.
  realm_is_zephyr_mirror_realm: 'removed at feature level 426',
};

/**
 * Keys whose description does not say which fetch type selects them; Zulip's register sends them
 * with these (the `realm` bundle unless noted).
 */
const FETCH_TYPE_OF: Record<string, string[]> = {
  drafts: ['drafts'],
  realm_date_created: ['realm'],
  demo_organization_scheduled_deletion_date: ['realm'],
  server_presence_ping_interval_seconds: ['realm'],
  server_presence_offline_threshold_seconds: ['realm'],
  server_typing_started_expiry_period_milliseconds: ['realm'],
  server_typing_stopped_wait_period_milliseconds: ['realm'],
  server_typing_started_wait_period_milliseconds: ['realm'],
  server_thumbnail_formats: ['realm'],
  server_jitsi_server_url: ['realm'],
  receives_typing_notifications: ['user_settings'],
};
const ALWAYS = ['queue_id', 'last_event_id', 'zulip_feature_level', 'zulip_version', 'zulip_merge_base'];
const fetchTypesOf = (key: string, shape: Shape): string[] => shape.fetch ?? FETCH_TYPE_OF[key] ?? (key.startsWith('realm_') ? ['realm'] : []);

/**
 * Objects whose every documented property must be present (the description's own `required`
 * lists apply everywhere else), and documented properties that are conditional.
 */
const WALK: WalkOptions = {
  complete: new Set([
    'user_settings',
    'realm_user_settings_defaults',
    'realm_users[]',
    'realm_non_active_users[]',
    'cross_realm_bots[]',
    'realm_billing',
    'unread_msgs',
    'server_supported_permission_settings',
    'server_supported_permission_settings.realm{}',
    'server_supported_permission_settings.stream{}',
    'server_supported_permission_settings.group{}',
    'realm_authentication_methods{}',
    'realm_default_external_accounts{}',
    'realm_available_video_chat_providers{}',
    'gif_rating_policy_options{}',
  ]),
  optional: {
    // Zulip sends these only for bots; profile data only for people.
    'realm_users[]': ['bot_type', 'bot_owner_id'],
    'realm_non_active_users[]': ['bot_type', 'bot_owner_id'],
    'cross_realm_bots[]': ['profile_data'],
    // Given only for a method that cannot be used.
    'realm_authentication_methods{}': ['unavailable_reason'],
  },
};

const register = async (who: TestUser, params: Record<string, unknown>) => assertSuccess(await client(ts, who).post('/register', params));

describe("Zulip's API description of the register response", () => {
  test('the walk reports wrong types, nulls and missing properties', () => {
    const options: WalkOptions = { complete: new Set(['o']), optional: {} };
    const shape: Shape = { type: 'object', properties: { a: { type: 'integer' }, b: { type: 'string', nullable: true } } };
    expect(shapeErrors({ a: 1, b: null }, shape, 'o', options)).toEqual([]);
    expect(shapeErrors({ a: '1' }, shape, 'o', options)).toEqual(['o.b: missing', 'o.a: "1" is not an integer']);
    expect(shapeErrors({ a: null, b: 'x' }, shape, 'o', options)).toEqual(['o.a: null where integer is documented']);
    expect(shapeErrors(3, ZULIP_REGISTER_KEYS.realm_can_create_groups, 'g', options)).toEqual([]);
    expect(shapeErrors({ direct_members: [1], direct_subgroups: [] }, ZULIP_REGISTER_KEYS.realm_can_create_groups, 'g', options)).toEqual([]);
    expect(shapeErrors('x', ZULIP_REGISTER_KEYS.realm_can_create_groups, 'g', options)).toHaveLength(1);
  });

  test('every documented key is present with its documented type (the mobile app’s register)', async () => {
    for (const who of [ts.owner, member]) {
      const body = await register(who, FLUTTER_REGISTER);
      const problems: string[] = [];
      for (const [key, shape] of Object.entries(ZULIP_REGISTER_KEYS)) {
        if (key in OMITTED) {
          if (key in body) problems.push(`${key}: present though omitted (${OMITTED[key]})`);
          continue;
        }
        if (shape.legacySettings) {
          // This client declared user_settings_object: the legacy top-level settings stay out.
          if (key in body) problems.push(`${key}: legacy setting sent to a user_settings_object client`);
          continue;
        }
        if (!(key in body)) problems.push(`${key}: missing`);
        else problems.push(...shapeErrors(body[key], shape, key, WALK));
      }
      expect(problems).toEqual([]);
    }
  });

  test('a client without user_settings_object gets the legacy top-level settings', async () => {
    const body = await register(ts.owner, { fetch_event_types: ['update_display_settings', 'update_global_notifications'] });
    const legacy = Object.entries(ZULIP_REGISTER_KEYS).filter(([, shape]) => shape.legacySettings);
    expect(legacy.length).toBeGreaterThan(30);
    const problems = legacy.flatMap(([key, shape]) => (key in body ? shapeErrors(body[key], shape, key, WALK) : [`${key}: missing`]));
    expect(problems).toEqual([]);
  });

  test('each fetch type selects its keys, and keys selected by one other type stay out', async () => {
    const byType = new Map<string, string[]>();
    for (const [key, shape] of Object.entries(ZULIP_REGISTER_KEYS)) {
      if (key in OMITTED || shape.legacySettings) continue;
      const types = fetchTypesOf(key, shape);
      // Keys needing several types together (unread_msgs) are covered by the full register above.
      if (types.length === 1) byType.set(types[0], [...(byType.get(types[0]) ?? []), key]);
    }
    expect(byType.get('realm')!.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const [type, keys] of byType) {
      const body = await register(ts.owner, { ...FLUTTER_REGISTER, fetch_event_types: [type] });
      for (const key of keys) if (!(key in body)) problems.push(`${type}: ${key} missing`);
      for (const [other, otherKeys] of byType) {
        if (other === type) continue;
        for (const key of otherKeys) if (key in body && !ALWAYS.includes(key)) problems.push(`${type}: ${key} (selected by ${other}) present`);
      }
    }
    expect(problems).toEqual([]);
  });
});

/**
 * The fields zulip-flutter's InitialSnapshot (lib/api/model/initial_snapshot.dart and the
 * generated initial_snapshot.g.dart) reads, with the JSON type its parser casts to. `null` marks
 * fields it accepts as absent or null.
 */
type JsonType = 'int' | 'string' | 'bool' | 'list' | 'map' | 'group';
const FLUTTER_INITIAL_SNAPSHOT: [string, JsonType, 'required' | 'nullable'][] = [
  ['queue_id', 'string', 'nullable'],
  ['last_event_id', 'int', 'required'],
  ['zulip_feature_level', 'int', 'required'],
  ['zulip_version', 'string', 'required'],
  ['zulip_merge_base', 'string', 'required'],
  ['alert_words', 'list', 'required'],
  ['custom_profile_fields', 'list', 'required'],
  ['max_stream_name_length', 'int', 'required'],
  ['max_topic_length', 'int', 'required'],
  ['server_presence_ping_interval_seconds', 'int', 'required'],
  ['server_presence_offline_threshold_seconds', 'int', 'required'],
  ['server_typing_started_expiry_period_milliseconds', 'int', 'nullable'],
  ['server_typing_stopped_wait_period_milliseconds', 'int', 'nullable'],
  ['server_typing_started_wait_period_milliseconds', 'int', 'nullable'],
  ['muted_users', 'list', 'required'],
  ['presences', 'map', 'required'],
  ['realm_emoji', 'map', 'required'],
  ['realm_user_groups', 'list', 'required'],
  ['recent_private_conversations', 'list', 'required'],
  ['saved_snippets', 'list', 'nullable'],
  ['subscriptions', 'list', 'required'],
  ['channel_folders', 'list', 'nullable'],
  ['unread_msgs', 'map', 'required'],
  ['starred_messages', 'list', 'required'],
  ['streams', 'list', 'required'],
  ['user_status', 'map', 'required'],
  ['user_settings', 'map', 'required'],
  ['user_topics', 'list', 'required'],
  ['devices', 'map', 'nullable'],
  ['realm_can_delete_any_message_group', 'group', 'nullable'],
  ['realm_can_delete_own_message_group', 'group', 'nullable'],
  ['realm_delete_own_message_policy', 'int', 'nullable'],
  ['realm_wildcard_mention_policy', 'int', 'required'],
  ['realm_topics_policy', 'string', 'nullable'],
  ['realm_mandatory_topics', 'bool', 'nullable'],
  ['realm_name', 'string', 'required'],
  ['realm_waiting_period_threshold', 'int', 'required'],
  ['realm_message_content_delete_limit_seconds', 'int', 'nullable'],
  ['realm_allow_message_editing', 'bool', 'required'],
  ['realm_message_content_edit_limit_seconds', 'int', 'nullable'],
  ['realm_enable_read_receipts', 'bool', 'required'],
  ['realm_icon_url', 'string', 'required'],
  ['realm_presence_disabled', 'bool', 'required'],
  ['realm_default_external_accounts', 'map', 'required'],
  ['max_file_upload_size_mib', 'int', 'required'],
  ['server_thumbnail_formats', 'list', 'nullable'],
  ['server_emoji_data_url', 'string', 'required'],
  ['event_queue_longpoll_timeout_seconds', 'int', 'required'],
  ['realm_moderation_request_channel_id', 'int', 'nullable'],
  ['realm_empty_topic_display_name', 'string', 'nullable'],
  ['realm_users', 'list', 'required'],
  ['realm_non_active_users', 'list', 'required'],
  ['cross_realm_bots', 'list', 'required'],
  ['server_report_message_types', 'list', 'nullable'],
];

/** UserSettings (same file): the settings the app reads from user_settings. */
const FLUTTER_USER_SETTINGS: [string, JsonType, 'required' | 'nullable'][] = [
  ['twenty_four_hour_time', 'bool', 'nullable'],
  ['starred_message_counts', 'bool', 'required'],
  ['display_emoji_reaction_users', 'bool', 'required'],
  ['emojiset', 'string', 'required'],
  ['web_inbox_show_channel_folders', 'bool', 'nullable'],
  ['presence_enabled', 'bool', 'required'],
];

/** User (lib/api/model/model.g.dart), for realm_users, realm_non_active_users and cross_realm_bots. */
const FLUTTER_USER: [string, JsonType, 'required' | 'nullable'][] = [
  ['user_id', 'int', 'required'],
  ['delivery_email', 'string', 'nullable'],
  ['email', 'string', 'required'],
  ['full_name', 'string', 'required'],
  ['date_joined', 'string', 'required'],
  ['is_bot', 'bool', 'required'],
  ['bot_type', 'int', 'nullable'],
  ['bot_owner_id', 'int', 'nullable'],
  ['role', 'int', 'required'],
  ['timezone', 'string', 'required'],
  ['avatar_url', 'string', 'nullable'],
  ['avatar_version', 'int', 'required'],
  ['profile_data', 'map', 'nullable'],
];

function jsonTypeOk(value: unknown, type: JsonType): boolean {
  switch (type) {
    case 'int':
      return Number.isInteger(value);
    case 'string':
      return typeof value === 'string';
    case 'bool':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    case 'map':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'group':
      return Number.isInteger(value) || (typeof value === 'object' && value !== null && Array.isArray((value as Record<string, unknown>).direct_members));
  }
}

function fieldProblems(object: Record<string, unknown>, fields: [string, JsonType, 'required' | 'nullable'][], at: string): string[] {
  const out: string[] = [];
  for (const [name, type, presence] of fields) {
    const value = object[name];
    if (value === undefined || value === null) {
      if (presence === 'required') out.push(`${at}${name}: ${value === null ? 'null' : 'missing'}`);
    } else if (!jsonTypeOk(value, type)) {
      out.push(`${at}${name}: ${JSON.stringify(value)} is not ${type}`);
    }
  }
  return out;
}

describe('the mobile app (zulip-flutter) can parse the register response', () => {
  test('every field its InitialSnapshot requires is present with the type it casts to', async () => {
    const body = await register(member, FLUTTER_REGISTER);
    const problems = fieldProblems(body, FLUTTER_INITIAL_SNAPSHOT, '');
    problems.push(...fieldProblems(body.user_settings ?? {}, FLUTTER_USER_SETTINGS, 'user_settings.'));
    for (const list of ['realm_users', 'realm_non_active_users', 'cross_realm_bots']) {
      for (const user of body[list] ?? []) problems.push(...fieldProblems(user, FLUTTER_USER, `${list}[${user.user_id}].`));
    }
    expect(problems).toEqual([]);
    // Enum values the app decodes strictly.
    expect([1, 2, 3, 5, 6, 7]).toContain(body.realm_wildcard_mention_policy);
    expect(['allow_empty_topic', 'disable_empty_topic']).toContain(body.realm_topics_policy);
    for (const account of Object.values(body.realm_default_external_accounts) as Record<string, unknown>[]) {
      expect(account).toEqual({ name: expect.any(String), text: expect.any(String), hint: expect.any(String), url_pattern: expect.any(String) });
    }
    expect(() => new URL(body.server_emoji_data_url)).not.toThrow();
    expect(() => new URL(body.realm_icon_url)).not.toThrow();
    expect(body.non_active_users).toBeUndefined();
    expect(body.realm_non_active_users.length).toBe(1);
  });

  test('max_file_upload_size_mib follows PARLEY_MAX_FILE_UPLOAD_SIZE_MIB, Zulip’s 25 by default', async () => {
    expect((await register(member, { fetch_event_types: ['realm'] })).max_file_upload_size_mib).toBe(25);
    const other = await startTestServer({ PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '100' });
    try {
      expect(assertSuccess(await client(other, other.owner).post('/register', { fetch_event_types: ['realm'] })).max_file_upload_size_mib).toBe(100);
    } finally {
      await other.close();
    }
  });
});

describe('zulip-terminal can start', () => {
  test('its register carries every key model.py reads, with the type it uses', async () => {
    const body = await register(member, TERMINAL_REGISTER);
    const problems = fieldProblems(
      body,
      [
        ['zulip_version', 'string', 'required'],
        ['zulip_feature_level', 'int', 'required'],
        ['max_message_id', 'int', 'required'],
        ['queue_id', 'string', 'required'],
        ['last_event_id', 'int', 'required'],
        ['subscriptions', 'list', 'required'],
        ['muted_topics', 'list', 'required'],
        ['realm_user_groups', 'list', 'required'],
        ['realm_emoji', 'map', 'required'],
        ['user_settings', 'map', 'required'],
        ['realm_message_retention_days', 'int', 'required'],
        ['realm_allow_message_editing', 'bool', 'required'],
        ['max_stream_name_length', 'int', 'required'],
        ['max_topic_length', 'int', 'required'],
        ['max_message_length', 'int', 'required'],
        ['server_typing_started_wait_period_milliseconds', 'int', 'required'],
        ['server_typing_stopped_wait_period_milliseconds', 'int', 'required'],
        ['server_typing_started_expiry_period_milliseconds', 'int', 'required'],
        ['server_presence_offline_threshold_seconds', 'int', 'required'],
        ['server_presence_ping_interval_seconds', 'int', 'required'],
        ['user_id', 'int', 'required'],
        ['email', 'string', 'required'],
        ['full_name', 'string', 'required'],
        ['realm_name', 'string', 'required'],
        ['custom_profile_fields', 'list', 'required'],
        ['presences', 'map', 'required'],
        ['realm_users', 'list', 'required'],
        ['cross_realm_bots', 'list', 'required'],
      ],
      '',
    );
    problems.push(
      ...fieldProblems(
        body.user_settings ?? {},
        [
          ['send_private_typing_notifications', 'bool', 'required'],
          ['twenty_four_hour_time', 'bool', 'required'],
          ['pm_content_in_desktop_notifications', 'bool', 'required'],
        ],
        'user_settings.',
      ),
    );
    expect(problems).toEqual([]);
    // -1: messages are kept forever, which the terminal shows as "Indefinite".
    expect(body.realm_message_retention_days).toBe(-1);
    // The terminal subscribes with include_subscribers and reads each channel's list.
    for (const sub of body.subscriptions) expect(Array.isArray(sub.subscribers)).toBe(true);
  });
});

describe('the emoji data file named by server_emoji_data_url', () => {
  test('is served without authentication in the shape the mobile app parses (ServerEmojiData)', async () => {
    const body = await register(member, { fetch_event_types: ['realm'] });
    const url = new URL(body.server_emoji_data_url);
    expect(url.pathname).toMatch(/^\/static\/generated\/emoji\/emoji_api\.[0-9a-f]+\.json$/);
    // The test server listens on a port of its own choosing; the path is what it serves.
    const res = await fetch(`${ts.url}${url.pathname}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toContain('immutable');
    const data = (await res.json()) as { code_to_names: Record<string, string[]> };
    expect(Object.keys(data)).toEqual(['code_to_names']);
    const entries = Object.entries(data.code_to_names);
    expect(entries.length).toBeGreaterThan(1500);
    for (const [code, names] of entries) {
      // Codes are unqualified: no emoji-presentation selector.
      expect(code).toMatch(/^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$/);
      expect(code.split('-')).not.toContain('fe0f');
      expect(Array.isArray(names) && names.length > 0 && names.every((n) => typeof n === 'string')).toBe(true);
    }
    // Canonical name first, then aliases.
    expect(data.code_to_names['1f44d'][0]).toBe('+1');
    expect(data.code_to_names['1f44d']).toContain('thumbs_up');
    expect(data.code_to_names['1f642'][0]).toBe('smile');
  });

  test('another name under that directory is not found', async () => {
    const res = await fetch(`${ts.url}/static/generated/emoji/emoji_api.0000.json`);
    expect(res.status).toBe(404);
  });
});

describe('organization settings come from where they are stored', () => {
  const systemGroupId = async (name: string) =>
    (await ts.server.deps.knex('user_groups').where({ realm_id: ts.server.deps.realmId, name, is_system_group: true }).first('id')).id as number;

  afterEach(async () => {
    await ts.server.deps.knex('realm_message_settings').delete();
    await ts.server.deps.knex('realm_group_settings').delete();
  });

  test("Zulip's defaults without stored values; stored values and their legacy forms otherwise", async () => {
    const before = await register(member, { fetch_event_types: ['realm'] });
    expect(before).toMatchObject({
      realm_allow_message_editing: true,
      realm_message_content_edit_limit_seconds: 600,
      realm_message_edit_history_visibility_policy: 'all',
      realm_allow_edit_history: true,
      realm_can_mention_many_users_group: await systemGroupId('role:administrators'),
      realm_wildcard_mention_policy: 5,
      realm_can_create_groups: await systemGroupId('role:members'),
      realm_create_public_stream_policy: 1,
      realm_create_web_public_stream_policy: 7,
      realm_waiting_period_threshold: 0,
      realm_message_retention_days: -1,
      realm_mandatory_topics: false,
      jitsi_server_url: 'https://meet.jit.si',
    });

    const moderators = await systemGroupId('role:moderators');
    await ts.server.deps.knex('realm_message_settings').insert({
      realm_id: ts.server.deps.realmId,
      allow_message_editing: false,
      message_content_edit_limit_seconds: null,
      message_edit_history_visibility_policy: 3,
      can_mention_many_users_group: JSON.stringify(moderators),
    });
    const anonymous = { direct_members: [member.id], direct_subgroups: [moderators] };
    await setRealmGroupSetting(ts.server.deps.knex, ts.server.deps.realmId, 'can_create_groups', anonymous);

    const after = await register(member, { fetch_event_types: ['realm'] });
    expect(after).toMatchObject({
      realm_allow_message_editing: false,
      realm_message_content_edit_limit_seconds: null,
      realm_message_edit_history_visibility_policy: 'none',
      realm_allow_edit_history: false,
      realm_can_mention_many_users_group: moderators,
      realm_wildcard_mention_policy: 7,
      realm_can_create_groups: anonymous,
    });

    // GraphQL reads the same values.
    const fields = REALM_SETTINGS.map((spec) => camelName(spec.name)).join(' ');
    const res = await graphql(ts, member, `{ realmSettings { ${fields} } }`);
    expect(res.errors).toBeUndefined();
    for (const spec of REALM_SETTINGS) expect([spec.name, res.data!.realmSettings[camelName(spec.name)]]).toEqual([spec.name, after[`realm_${spec.name}`]]);
  });

  test('realm events change settings and the legacy keys derived from them', async () => {
    const user = await User.query(ts.server.deps.knex).findById(member.id).throwIfNotFound();
    const state = await realmSlice.fetch(ts.server.deps, user, defaultRegisterOptions);
    const moderators = await systemGroupId('role:moderators');
    const apply = (event: Record<string, unknown>) => realmSlice.apply!(state, { type: 'realm', ...event }, user, defaultRegisterOptions);
    apply({
      op: 'update_dict',
      property: 'default',
      data: { can_mention_many_users_group: moderators, message_edit_history_visibility_policy: 'moves', topics_policy: 'disable_empty_topic' },
    });
    apply({ op: 'update', property: 'jitsi_server_url', value: 'https://jitsi.example.com' });
    expect(state).toMatchObject({
      realm_can_mention_many_users_group: moderators,
      realm_wildcard_mention_policy: 7,
      realm_message_edit_history_visibility_policy: 'moves',
      realm_allow_edit_history: true,
      realm_topics_policy: 'disable_empty_topic',
      realm_mandatory_topics: true,
      realm_jitsi_server_url: 'https://jitsi.example.com',
      jitsi_server_url: 'https://jitsi.example.com',
    });
    // An anonymous group has no enum form: the broadest value stands for it.
    apply({ op: 'update_dict', property: 'default', data: { can_mention_many_users_group: { direct_members: [member.id], direct_subgroups: [] } } });
    expect(state.realm_wildcard_mention_policy).toBe(1);
  });

  test('realmSettings needs credentials', async () => {
    expect(graphqlError(await graphql(ts, null, '{ realmSettings { name } }')).code).toBe('UNAUTHORIZED');
  });
});
