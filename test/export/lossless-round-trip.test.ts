import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { loadConfig } from '../../src/config';
import { exportOrganization } from '../../src/core/exports/zulip-format/export';
import { importOrganization } from '../../src/core/exports/zulip-format/import';
import { fileStore } from '../../src/core/uploads/stores';
import { Database, openDatabase } from '../../src/db/connect';
import { migrateLatest } from '../../src/db/migrate';
import { organizationDeps } from '../../src/operator/organization';
import { RunningServer, startServer } from '../../src/server';
import { assertSuccess, basicAuth, client } from '../helpers/api';
import { freshPostgresDatabase } from '../helpers/postgres';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TEST_ENV, TestServer, TestUser } from '../helpers/server';
import { postFiles, upload } from '../uploads/files';

/**
 * Export an organization that uses every feature, import it into an empty database, and compare
 * what the API says of both, field by field: each user's whole POST /register state, every
 * message, attachments, and the bytes of every file (uploads, avatars, custom emoji).
 */
jest.setTimeout(240_000);

const quiet = { start() {}, advance() {}, stop() {} };
const png = (color: string, side = 64) =>
  sharp({ create: { width: side, height: side, channels: 3, background: color } })
    .png()
    .toBuffer();

let source: TestServer;
let target: { server: RunningServer; db: Database; drop: () => Promise<void>; dataDir: string; url: string };
let alice: TestUser;
let bob: TestUser;
const dirs: string[] = [];
const tempDir = (label: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-${label}-`));
  dirs.push(dir);
  return dir;
};

async function populate() {
  const o = client(source, source.owner);
  alice = await makeUser(source, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(source, 200, { fullName: 'Bob Builder' });
  const a = client(source, alice);
  const b = client(source, bob);

  // Files: an avatar, a custom emoji, an uploaded file, the organization's icon.
  assertSuccess(await postFiles(source, alice, '/users/me/avatar', [{ name: 'me.png', data: await png('#3366cc', 120), type: 'image/png' }]));
  assertSuccess(await postFiles(source, source.owner, '/realm/emoji/parrot', [{ name: 'parrot.png', data: await png('#22aa44'), type: 'image/png' }]));
  assertSuccess(await postFiles(source, source.owner, '/realm/icon', [{ name: 'icon.png', data: await png('#aa2244'), type: 'image/png' }]));
  const uploaded = assertSuccess(await upload(source, alice, [{ name: 'notes.txt', data: 'private notes', type: 'text/plain' }])).url as string;

  // Groups, with subgroups and permission settings (named and anonymous).
  const crew = assertSuccess(await o.post('/user_groups/create', { name: 'crew', description: 'The crew', members: JSON.stringify([alice.id]) })).group_id;
  const leads = assertSuccess(
    await o.post('/user_groups/create', {
      name: 'leads',
      description: 'Leads',
      members: JSON.stringify([bob.id]),
      subgroups: JSON.stringify([crew]),
      can_mention_group: JSON.stringify({ direct_members: [alice.id], direct_subgroups: [crew] }),
    }),
  ).group_id;
  assertSuccess(await o.patch('/realm', { can_create_groups: JSON.stringify({ new: leads }), description: 'Where we work', waiting_period_threshold: 3 }));
  assertSuccess(await o.patch('/realm/user_settings_defaults', { twenty_four_hour_time: true, emojiset: 'text' }));

  // Channels: a folder, settings, group permissions, subscription properties.
  const folder = assertSuccess(await o.post('/channel_folders/create', { name: 'Work', description: 'Work things' })).channel_folder_id;
  assertSuccess(
    await o.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'general', description: 'Everything' }]),
      principals: JSON.stringify([alice.id, bob.id, source.owner.id]),
      folder_id: folder,
    }),
  );
  assertSuccess(
    await o.post('/users/me/subscriptions', {
      subscriptions: JSON.stringify([{ name: 'secret' }]),
      principals: JSON.stringify([alice.id, source.owner.id]),
      invite_only: true,
      history_public_to_subscribers: false,
      can_send_message_group: JSON.stringify({ direct_members: [alice.id, source.owner.id], direct_subgroups: [] }),
    }),
  );
  const general = assertSuccess(await o.get('/get_stream_id', { stream: 'general' })).stream_id;
  assertSuccess(await o.patch(`/streams/${general}`, { can_remove_subscribers_group: JSON.stringify({ new: crew }) }));
  assertSuccess(
    await a.post('/users/me/subscriptions/properties', {
      subscription_data: JSON.stringify([
        { stream_id: general, property: 'color', value: '#123456' },
        { stream_id: general, property: 'pin_to_top', value: true },
        { stream_id: general, property: 'desktop_notifications', value: false },
      ]),
    }),
  );

  // Personal settings and data.
  assertSuccess(await a.patch('/settings', { twenty_four_hour_time: false, enter_sends: true, allow_private_data_export: true, web_font_size_px: 16 }));
  assertSuccess(await a.post('/users/me/alert_words', { alert_words: JSON.stringify(['octopus']) }));
  assertSuccess(await a.post('/users/me/status', { status_text: 'On a boat', emoji_name: 'boat' }));
  assertSuccess(await a.post(`/users/me/muted_users/${bob.id}`));
  assertSuccess(await a.post('/user_topics', { stream_id: general, topic: 'noise', visibility_policy: 1 }));
  assertSuccess(await a.post('/saved_snippets', { title: 'Greeting', content: 'Hello there' }));
  assertSuccess(await a.put('/bot_storage', { storage: JSON.stringify({ counter: '3', 'last seen': 'Bob' }) }));
  assertSuccess(await b.put('/bot_storage', { storage: JSON.stringify({ counter: '7' }) }));
  const field = assertSuccess(await o.post('/realm/profile_fields', { name: 'Team', field_type: 1, hint: 'Which team' })).id;
  assertSuccess(await a.patch('/users/me/profile_data', { data: JSON.stringify([{ id: field, value: 'Boats' }]) }));
  assertSuccess(await o.post('/realm/filters', { pattern: '#(?P<id>[0-9]+)', url_template: 'https://tracker.example/{id}' }));
  assertSuccess(await o.post('/realm/playgrounds', { name: 'Python', pygments_language: 'python', url_template: 'https://play.example/?c={code}' }));

  // Messages: edited, moved, reacted to, starred, with a file and a custom emoji.
  const first = assertSuccess(
    await a.post('/messages', { type: 'stream', to: 'general', topic: 'hello', content: `Hi **all** [notes](${uploaded}) :parrot: #1` }),
  ).id;
  assertSuccess(await a.patch(`/messages/${first}`, { content: `Hi **everyone** [notes](${uploaded}) :parrot: #12` }));
  const second = assertSuccess(await b.post('/messages', { type: 'stream', to: 'general', topic: 'noise', content: 'Loud' })).id;
  assertSuccess(await o.patch(`/messages/${second}`, { topic: 'quiet', propagate_mode: 'change_one' }));
  assertSuccess(await o.post('/messages', { type: 'stream', to: 'secret', topic: 'plans', content: 'Only for us' }));
  assertSuccess(await o.post('/messages', { type: 'direct', to: JSON.stringify([alice.id]), content: 'Psst' }));
  assertSuccess(await b.post('/messages', { type: 'direct', to: JSON.stringify([alice.id, source.owner.id]), content: 'All three' }));
  assertSuccess(await o.post(`/messages/${first}/reactions`, { emoji_name: 'octopus' }));
  assertSuccess(await b.post(`/messages/${first}/reactions`, { emoji_name: 'parrot' }));
  assertSuccess(await a.post('/messages/flags', { messages: JSON.stringify([second]), op: 'add', flag: 'starred' }));
  assertSuccess(await a.post('/messages/flags', { messages: JSON.stringify([first]), op: 'add', flag: 'read' }));
  // Scheduled messages, to a channel and to people.
  const later = Math.floor(Date.now() / 1000) + 86_400;
  assertSuccess(
    await a.post('/scheduled_messages', { type: 'stream', to: String(general), topic: 'later', content: 'Tomorrow', scheduled_delivery_timestamp: later }),
  );
  assertSuccess(
    await a.post('/scheduled_messages', { type: 'direct', to: JSON.stringify([bob.id]), content: 'Psst tomorrow', scheduled_delivery_timestamp: later }),
  );
  // A poll and a vote: the message's submessages.
  const poll = assertSuccess(await b.post('/messages', { type: 'stream', to: 'general', topic: 'lunch', content: '/poll Lunch?\n- Pizza\n- Salad' })).id;
  assertSuccess(await a.post('/submessage', { message_id: poll, msg_type: 'widget', content: JSON.stringify({ type: 'vote', key: 'canned,0', vote: 1 }) }));
}

async function startTarget(exportDir: string) {
  const dataDir = tempDir('import-data');
  const adminUrl = process.env.TEST_DATABASE_URL;
  const pg = adminUrl ? await freshPostgresDatabase(adminUrl, { migrated: true }) : null;
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', ...TEST_ENV, DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) });
  const db = await openDatabase({ url: pg?.url ?? null, pgliteDir: null });
  await migrateLatest(db.knex);
  await importOrganization(db.knex, exportDir, (realmId) => organizationDeps(db.knex, config, realmId), quiet);
  const server = await startServer(config, { pgliteDir: null, zuliprcDir: null, database: db });
  return { server, db, dataDir, url: server.url, drop: async () => pg?.drop() };
}

beforeAll(async () => {
  source = await startTestServer({ DATA_DIR: tempDir('export-data') });
  await populate();
  const exportDir = path.join(tempDir('export'), 'realm');
  await exportOrganization(source.server.deps.knex, exportDir, quiet, fileStore(source.server.deps.config));
  target = await startTarget(exportDir);
}, SERVER_HOOK_TIMEOUT * 2);

afterAll(async () => {
  await target?.server.close();
  await target?.db.close();
  await target?.drop();
  await source?.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

type Json = any;
const api = (url: string, who: TestUser) => client({ url } as TestServer, who);

/** Names for the ids one server gave: users by name, channels, groups, emoji, fields, folders by theirs, messages by rank. */
interface Names {
  user: Map<number, string>;
  stream: Map<number, string>;
  group: Map<number, string>;
  emoji: Map<number, string>;
  field: Map<number, string>;
  folder: Map<number, string>;
  message: Map<number, string>;
}

async function namesFor(url: string, who: TestUser, state: Json): Promise<Names> {
  const people = [...state.realm_users, ...state.realm_non_active_users, ...state.cross_realm_bots];
  const streams = [...state.subscriptions, ...state.unsubscribed, ...state.never_subscribed];
  const messages = assertSuccess(await api(url, who).get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000 })).messages as Json[];
  return {
    user: new Map(people.map((u: Json) => [u.user_id, `user:${u.full_name}`])),
    stream: new Map(streams.map((s: Json) => [s.stream_id, `stream:${s.name}`])),
    group: new Map(state.realm_user_groups.map((g: Json) => [g.id, `group:${g.name}`])),
    emoji: new Map(Object.values(state.realm_emoji).map((e: Json) => [Number(e.id), `emoji:${e.name}`])),
    field: new Map(state.custom_profile_fields.map((f: Json) => [f.id, `field:${f.name}`])),
    folder: new Map(state.channel_folders.map((f: Json) => [f.id, `folder:${f.name}`])),
    message: new Map(messages.map((m: Json, i: number) => [m.id, `message:${i}`])),
  };
}

type Kind = keyof Names;
const USER_KEYS = new Set([
  'user_id',
  'sender_id',
  'owner_id',
  'creator_id',
  'author_id',
  'bot_owner_id',
  'acting_user_id',
  'members',
  'subscribers',
  'direct_members',
  'user_ids',
  'partial_subscribers',
]);
const MESSAGE_KEYS = new Set(['message_id', 'max_message_id', 'first_message_id', 'message_ids', 'unread_message_ids', 'starred_messages', 'last_message_id']);
/** The `id` of items in these sections is of this kind. */
const SECTION_IDS: Record<string, Kind | null> = {
  realm_user_groups: 'group',
  realm_emoji: 'emoji',
  custom_profile_fields: 'field',
  channel_folders: 'folder',
  muted_users: 'user',
  messages: 'message',
  display_recipient: 'user',
  realm_linkifiers: null,
  realm_playgrounds: null,
  saved_snippets: null,
  scheduled_messages: null,
  navigation_views: null,
};
/** Different on every server or every call, whatever the data. */
const VOLATILE = new Set([
  'cross_realm_bots',
  'queue_id',
  'last_event_id',
  'server_timestamp',
  'presences',
  'presence_last_update_id',
  'server_generation',
  'zulip_version',
  'realm_url',
  'realm_uri',
  'event_queue_longpoll_timeout_seconds',
  'last_update_id',
]);

function kindOf(key: string, value: unknown, section: string | null, parent: Json): Kind | null | undefined {
  // A scheduled message's recipients: its channel, or its people.
  if (key === 'to' && section === 'scheduled_messages') return parent.type === 'stream' ? 'stream' : 'user';
  if (key === 'scheduled_message_id') return null;
  if (key === 'id' && section !== null && section in SECTION_IDS) return SECTION_IDS[section];
  // Recipient ids are internal to each database.
  if (key === 'recipient_id') return null;
  if (USER_KEYS.has(key) || key.endsWith('_user_id')) return 'user';
  if (key === 'stream_id' || key.endsWith('_stream_id') || key === 'stream_ids') return 'stream';
  if (key === 'direct_subgroups' || key === 'subgroups' || key === 'group_id' || (key.endsWith('_group') && typeof value === 'number')) return 'group';
  if (MESSAGE_KEYS.has(key)) return 'message';
  if (key === 'folder_id') return 'folder';
  return undefined;
}

/** The state with every id replaced by a name, so two servers' states compare equal when they say the same. */
function normalize(value: Json, names: Names, kind: Kind | null | undefined = undefined, section: string | null = null): Json {
  const named = (id: number, k: Kind) => names[k].get(id) ?? `${k}:?${id}`;
  if (kind === null) return '(id)';
  if (typeof value === 'number' && kind) return named(value, kind);
  if (Array.isArray(value)) return value.map((v) => normalize(v, names, kind, section)).sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  if (typeof value === 'string')
    return value
      .replace(/user_avatars\/(\d+)\?/g, (_m, id) => `user_avatars/${named(Number(id), 'user')}?`)
      .replace(/(user_uploads\/(?:thumbnail\/)?|user_avatars\/)\d+\//g, '$1R/')
      .replace(/data-stream-id="(\d+)"/g, (_m, id) => `data-stream-id="${named(Number(id), 'stream')}"`)
      .replace(/data-user-id="(\d+)"/g, (_m, id) => `data-user-id="${named(Number(id), 'user')}"`)
      .replace(/data-user-group-id="(\d+)"/g, (_m, id) => `data-user-group-id="${named(Number(id), 'group')}"`)
      .replace(/#narrow\/channel\/(\d+)-/g, (_m, id) => `#narrow/channel/${named(Number(id), 'stream')}-`);
  if (value && typeof value === 'object') {
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      if (VOLATILE.has(key)) continue;
      let outKey = key;
      // Objects keyed by id: realm_emoji, profile_data, unread counts by channel.
      if (/^\d+$/.test(key)) {
        const k: Kind | undefined = section === 'realm_emoji' ? 'emoji' : section === 'profile_data' ? 'field' : section === 'user_status' ? 'user' : undefined;
        if (k) outKey = named(Number(key), k);
      }
      const childKind = kindOf(key, v, section, value);
      if (key === 'user_ids_string' && typeof v === 'string') {
        out[key] = v
          .split(',')
          .map((id) => named(Number(id), 'user'))
          .sort()
          .join(',');
        continue;
      }
      const childSection = key in SECTION_IDS || key === 'profile_data' || key === 'user_status' ? key : section;
      out[outKey] = normalize(v, names, childKind, childSection);
    }
    return out;
  }
  return value;
}

async function stateOf(url: string, who: TestUser) {
  const state = assertSuccess(await api(url, who).post('/register', { apply_markdown: true, client_gravatar: false, include_subscribers: true }));
  const names = await namesFor(url, who, state);
  const messages = assertSuccess(await api(url, who).get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000 })).messages as Json[];
  const histories = [];
  for (const m of messages) histories.push(assertSuccess(await api(url, who).get(`/messages/${m.id}/history`)).message_history);
  const attachments = assertSuccess(await api(url, who).get('/attachments'));
  const botStorage = assertSuccess(await api(url, who).get('/bot_storage')).storage;
  return { names, view: normalize({ state, messages, histories, attachments, botStorage }, names) };
}

async function bytes(url: string, who: TestUser, file: string): Promise<string> {
  const res = await fetch(`${url}${file}`, { headers: { authorization: basicAuth(who) } });
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer()).toString('base64');
}

test.each(['owner', 'alice', 'bob'])('what %s sees is the same after the round trip', async (name) => {
  const who = { owner: source.owner, alice, bob }[name]!;
  const before = await stateOf(source.url, who);
  const after = await stateOf(target.url, who);
  expect(after.view).toEqual(before.view);
  expect(before.view.messages.find((m: Json) => m.subject === 'lunch').submessages).toHaveLength(2);
  // The compared states hold what was set up (ids shown as names).
  const leads = before.view.state.realm_user_groups.find((g: Json) => g.name === 'leads');
  expect(leads.can_mention_group).toEqual({ direct_members: ['user:Alice Liddell'], direct_subgroups: ['group:crew'] });
  expect(before.view.histories.flat().length).toBeGreaterThan(before.view.messages.length);
  if (name === 'alice') expect(before.view.state.scheduled_messages).toHaveLength(2);
  if (name === 'alice') expect(before.view.botStorage).toEqual({ counter: '3', 'last seen': 'Bob' });
});

test('the files come back byte for byte: uploads, avatars, custom emoji, the icon', async () => {
  const before = assertSuccess(await api(source.url, alice).post('/register', { fetch_event_types: JSON.stringify(['realm_user', 'realm_emoji', 'realm']) }));
  const after = assertSuccess(await api(target.url, alice).post('/register', { fetch_event_types: JSON.stringify(['realm_user', 'realm_emoji', 'realm']) }));
  const avatar = (state: Json) => state.realm_users.find((u: Json) => u.full_name === 'Alice Liddell').avatar_url as string;
  expect(avatar(after)).toMatch(/^\/user_avatars\//);
  expect(await bytes(target.url, alice, avatar(after))).toBe(await bytes(source.url, alice, avatar(before)));
  expect(await bytes(target.url, alice, avatar(after).replace('?', '/medium?'))).toBe(await bytes(source.url, alice, avatar(before).replace('?', '/medium?')));
  const emoji = (state: Json) => (Object.values(state.realm_emoji) as Json[]).find((e) => e.name === 'parrot').source_url as string;
  expect(await bytes(target.url, alice, emoji(after))).toBe(await bytes(source.url, alice, emoji(before)));
  expect(after.realm_icon_source).toBe('U');
  expect(await bytes(target.url, alice, after.realm_icon_url)).toBe(await bytes(source.url, alice, before.realm_icon_url));
  const files = async (url: string) => assertSuccess(await api(url, alice).get('/attachments')).attachments as Json[];
  const [was] = await files(source.url);
  const [is] = await files(target.url);
  expect(await bytes(target.url, alice, `/user_uploads/${is.path_id}`)).toBe(await bytes(source.url, alice, `/user_uploads/${was.path_id}`));
});
