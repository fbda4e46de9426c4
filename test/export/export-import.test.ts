import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config';
import { runCli } from '../../src/operator/run';
import { RunningServer, startServer } from '../../src/server';
import { assertSuccess, basicAuth, client } from '../helpers/api';
import { freshPostgresDatabase } from '../helpers/postgres';
import { TestServer } from '../helpers/server';

// Every command opens the database itself; on PGlite that means files in DATA_DIR, which is slow.
jest.setTimeout(300_000);

const FIXTURE = path.join(__dirname, 'fixtures', 'zulip-small');
const OWNER_PASSWORD = 'owner-password-123';

/** A data directory plus (with TEST_DATABASE_URL) a fresh PostgreSQL database, as the CLI sees them. */
async function workspace() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-export-'));
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PARLEY_OWNER_PASSWORD: OWNER_PASSWORD,
    PARLEY_RATE_LIMITING: 'false',
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  };
  return {
    dataDir,
    async cli(args: string[]) {
      let stdout = '';
      let stderr = '';
      const code = await runCli(args, { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) }, env });
      return { code, stdout, stderr };
    },
    start: (): Promise<RunningServer> =>
      startServer(loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1' }), { pgliteDir: pg ? null : path.join(dataDir, 'pgdata'), zuliprcDir: null }),
    cleanup: async () => {
      await pg?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Who = { email: string; apiKey: string };

/** Logs in with a password (POST /fetch_api_key): the key, or null when refused. */
async function fetchApiKey(server: RunningServer, username: string, password: string): Promise<string | null> {
  const res = await fetch(`${server.url}/api/v1/fetch_api_key`, { method: 'POST', body: new URLSearchParams({ username, password }) });
  const body = (await res.json()) as { result: string; api_key?: string };
  return body.result === 'success' ? body.api_key! : null;
}
const as = (server: RunningServer) => ({ url: server.url }) as TestServer;
const api = (server: RunningServer, who: Who) => client(as(server), { ...who, id: 0, password: '', fullName: '', role: 400 });

/** What a user sees of the organization, with users named by email (ids may differ after an import). */
async function view(server: RunningServer, who: Who) {
  const c = api(server, who);
  const users = assertSuccess(await c.get('/users')).members as {
    user_id: number;
    email: string;
    delivery_email?: string;
    full_name: string;
    role: number;
    is_active: boolean;
  }[];
  const emailOf = new Map(users.map((u) => [u.user_id, u.delivery_email ?? u.email]));
  const subs = assertSuccess(await c.get('/users/me/subscriptions', { include_subscribers: true })).subscriptions as Record<string, any>[];
  const messages = assertSuccess(await c.get('/messages', { anchor: 'newest', num_before: 1000, num_after: 0 })).messages as Record<string, any>[];
  return {
    users: users
      .map((u) => ({ email: emailOf.get(u.user_id), full_name: u.full_name, role: u.role, is_active: u.is_active }))
      .sort((a, b) => a.email!.localeCompare(b.email!)),
    subscriptions: subs
      .map((s) => ({
        name: s.name,
        invite_only: s.invite_only,
        color: s.color,
        is_muted: s.is_muted,
        pin_to_top: s.pin_to_top,
        description: s.description,
        subscribers: s.subscribers.map((id: number) => emailOf.get(id)).sort(),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    messages: messages.map((m) => ({
      sender: emailOf.get(m.sender_id),
      type: m.type,
      to: m.type === 'stream' ? m.display_recipient : m.display_recipient.map((r: { id: number }) => emailOf.get(r.id)).sort(),
      topic: m.subject,
      content: m.content,
      timestamp: m.timestamp,
      flags: [...m.flags].sort(),
      reactions: m.reactions.map((r: Record<string, any>) => ({ emoji_name: r.emoji_name, emoji_code: r.emoji_code, user: emailOf.get(r.user_id) })),
    })),
  };
}

describe('round trip: export, import into an empty database', () => {
  let source: Awaited<ReturnType<typeof workspace>>;
  let target: Awaited<ReturnType<typeof workspace>>;
  let exportFile: string;

  beforeAll(async () => {
    source = await workspace();
    target = await workspace();
    exportFile = path.join(source.dataDir, 'org-export.tar.gz');
  });
  afterAll(async () => {
    await source?.cleanup();
    await target?.cleanup();
  });

  test('users, channels, subscriptions, messages, flags and reactions come back; keys and passwords work', async () => {
    const server = await source.start();
    const owner = { email: server.owner!.email, apiKey: server.owner!.apiKey };
    const o = api(server, owner);
    assertSuccess(await o.post('/users', { email: 'alice@example.com', password: 'alice-password-1', full_name: 'Alice Liddell' }));
    const aliceWho = { email: 'alice@example.com', apiKey: (await fetchApiKey(server, 'alice@example.com', 'alice-password-1'))! };
    assertSuccess(await o.post('/users', { email: 'bob@example.com', password: 'bob-password-12', full_name: 'Bob' }));
    assertSuccess(
      await o.post('/users/me/subscriptions', {
        subscriptions: JSON.stringify([{ name: 'general', description: 'Everything' }]),
        principals: JSON.stringify(['alice@example.com', owner.email]),
      }),
    );
    assertSuccess(await o.post('/users/me/subscriptions', { subscriptions: JSON.stringify([{ name: 'secret' }]), invite_only: true }));
    const first = assertSuccess(
      await api(server, aliceWho).post('/messages', { type: 'stream', to: 'general', topic: 'hello', content: 'Hi **everyone**' }),
    ).id;
    assertSuccess(await o.post('/messages', { type: 'stream', to: 'secret', topic: 'notes', content: 'Only for me' }));
    assertSuccess(await o.post('/messages', { type: 'direct', to: JSON.stringify(['alice@example.com']), content: 'Psst, Alice' }));
    assertSuccess(await o.post('/messages', { type: 'direct', to: JSON.stringify(['alice@example.com', 'bob@example.com']), content: 'All three' }));
    assertSuccess(await o.post(`/messages/${first}/reactions`, { emoji_name: 'octopus' }));
    assertSuccess(await o.post('/messages/flags', { messages: JSON.stringify([first]), op: 'add', flag: 'starred' }));
    const before = { owner: await view(server, owner), alice: await view(server, aliceWho) };
    expect(before.owner.messages).toHaveLength(4);
    await server.close();

    const exported = await source.cli(['export', exportFile]);
    expect(exported).toMatchObject({ code: 0 });
    // The four above and Welcome Bot's greeting to each of the two people who joined.
    expect(exported.stdout).toContain('6 messages');

    const imported = await target.cli(['import', exportFile]);
    expect(imported.stderr).toBe('');
    expect(imported).toMatchObject({ code: 0 });
    // Only into an empty database.
    const again = await target.cli(['import', exportFile]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already holds an organization');

    const restored = await target.start();
    try {
      // The same API keys work: they were carried as hashes.
      expect({ owner: await view(restored, owner), alice: await view(restored, aliceWho) }).toEqual(before);
      // Passwords too.
      expect(await fetchApiKey(restored, 'bob@example.com', 'bob-password-12')).toMatch(/^[A-Za-z0-9]{32}$/);
      // The import leaves a working organization: a new message goes out.
      assertSuccess(await api(restored, aliceWho).post('/messages', { type: 'stream', to: 'general', topic: 'hello', content: 'Still here' }));
    } finally {
      await restored.close();
    }
  });
});

describe('import of an export written by hand in Zulip’s format', () => {
  let ws: Awaited<ReturnType<typeof workspace>>;
  beforeAll(async () => {
    ws = await workspace();
  });
  afterAll(async () => {
    await ws?.cleanup();
  });

  test('users, channels, conversations and reactions; Zulip API keys and Argon2 passwords carry over', async () => {
    const imported = await ws.cli(['import', FIXTURE]);
    expect(imported).toMatchObject({ code: 0 });
    expect(imported.stdout).toContain('Imported 3 users, 2 channels and 5 messages; 3 users kept their API keys.');
    const server = await ws.start();
    try {
      const hamlet = { email: 'hamlet@zulip.example', apiKey: 'HamletHamletHamletHamletHamlet12' };
      const seen = await view(server, hamlet);
      expect(seen.users).toEqual([
        { email: 'hamlet@zulip.example', full_name: 'King Hamlet', role: 400, is_active: true },
        { email: 'iago@zulip.example', full_name: 'Iago', role: 200, is_active: true },
        { email: 'othello@zulip.example', full_name: 'Othello, the Moor of Venice', role: 400, is_active: true },
      ]);
      expect(seen.subscriptions).toEqual([
        {
          name: 'Denmark',
          invite_only: false,
          color: '#fae589',
          is_muted: false,
          pin_to_top: true,
          description: 'A city in Denmark',
          subscribers: ['hamlet@zulip.example', 'iago@zulip.example', 'othello@zulip.example'],
        },
        { name: 'Verona', invite_only: true, color: '#e79ab5', is_muted: false, pin_to_top: false, description: '', subscribers: ['hamlet@zulip.example'] },
      ]);
      expect(seen.messages).toEqual([
        {
          sender: 'hamlet@zulip.example',
          type: 'stream',
          to: 'Denmark',
          topic: 'greetings',
          content: '<p>Hello <strong>Denmark</strong></p>',
          timestamp: 1700001000,
          flags: ['read'],
          reactions: [{ emoji_name: 'thumbs_up', emoji_code: '1f44d', user: 'othello@zulip.example' }],
        },
        {
          sender: 'othello@zulip.example',
          type: 'stream',
          to: 'Denmark',
          topic: 'greetings',
          content: '<p>Well met</p>',
          timestamp: 1700001060,
          flags: [],
          reactions: [],
        },
        {
          sender: 'hamlet@zulip.example',
          type: 'private',
          to: ['hamlet@zulip.example', 'othello@zulip.example'],
          topic: '',
          content: '<p>A word, Othello</p>',
          timestamp: 1700001120,
          flags: ['read'],
          reactions: [],
        },
        {
          sender: 'iago@zulip.example',
          type: 'private',
          to: ['hamlet@zulip.example', 'iago@zulip.example', 'othello@zulip.example'],
          topic: '',
          content: '<p>All three of us</p>',
          timestamp: 1700001180,
          flags: [],
          reactions: [],
        },
        {
          sender: 'hamlet@zulip.example',
          type: 'stream',
          to: 'Verona',
          topic: 'plans',
          content: expect.stringMatching(/^<p>Private plans <a href="\/user_uploads\/\d+\/4e\/AbCdEf\/plan.txt">plan.txt<\/a><\/p>$/),
          timestamp: 1700001240,
          flags: ['read'],
          reactions: [],
        },
      ]);
      // Othello's copy: starred and read; the private channel is not his.
      const othello = await view(server, { email: 'othello@zulip.example', apiKey: 'OthelloOthelloOthelloOthello1234' });
      expect(othello.messages[0].flags).toEqual(['read', 'starred']);
      expect(othello.messages.some((m) => m.to === 'Verona')).toBe(false);
      // Hamlet's Argon2 password works; Othello's PBKDF2 hash cannot be checked here, so he must reset it.
      expect(await fetchApiKey(server, 'hamlet@zulip.example', 'hamlet-password')).not.toBeNull();
      expect(await fetchApiKey(server, 'othello@zulip.example', 'notcarriedover')).toBeNull();
      // Replies land in the imported conversations.
      assertSuccess(await api(server, hamlet).post('/messages', { type: 'direct', to: JSON.stringify(['othello@zulip.example']), content: 'Again' }));
      const dm = assertSuccess(
        await api(server, hamlet).get('/messages', {
          anchor: 'newest',
          num_before: 10,
          num_after: 0,
          narrow: JSON.stringify([{ operator: 'dm', operand: 'othello@zulip.example' }]),
        }),
      ).messages;
      expect(dm.map((m: { content: string }) => m.content)).toEqual(['<p>A word, Othello</p>', '<p>Again</p>']);
    } finally {
      await server.close();
    }
  });

  test('user groups with their members and permissions, custom emoji, avatars and uploaded files arrive', async () => {
    const server = await ws.start();
    try {
      const hamlet = { email: 'hamlet@zulip.example', apiKey: 'HamletHamletHamletHamletHamlet12' };
      const h = api(server, hamlet);
      const users = assertSuccess(await h.get('/users')).members as Record<string, any>[];
      const idOf = (email: string) => users.find((u) => (u.delivery_email ?? u.email) === email)!.user_id;
      const groups = assertSuccess(await h.get('/user_groups')).user_groups as Record<string, any>[];
      const group = (name: string) => groups.find((g) => g.name === name)!;
      const [actors, leads] = [group('Actors'), group('Leads')];
      expect(actors).toMatchObject({
        description: 'The players',
        members: [idOf('hamlet@zulip.example'), idOf('othello@zulip.example')].sort((a, b) => a - b),
      });
      expect(actors.can_join_group).toBe(group('role:members').id);
      expect(leads).toMatchObject({ members: [idOf('iago@zulip.example')], direct_subgroup_ids: [actors.id], creator_id: idOf('iago@zulip.example') });
      // An anonymous group in Zulip's tables is an inline value here.
      expect(leads.can_mention_group).toEqual({ direct_members: [idOf('iago@zulip.example')], direct_subgroups: [actors.id] });
      const state = assertSuccess(await h.post('/register', { fetch_event_types: JSON.stringify(['realm', 'subscription', 'realm_emoji', 'realm_user']) }));
      expect(state.realm_can_create_groups).toBe(leads.id);
      expect(state.subscriptions.find((s: Record<string, any>) => s.name === 'Denmark').can_remove_subscribers_group).toBe(actors.id);

      // The emoji's image, Hamlet's avatar (made from the original) and the file are served.
      const fetchAs = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: basicAuth(hamlet) } });
      const emoji = Object.values(state.realm_emoji as Record<string, any>).find((e) => e.name === 'green_tick');
      expect(emoji).toMatchObject({ author_id: idOf('iago@zulip.example'), deactivated: false });
      const emojiImage = await fetchAs(emoji.source_url);
      expect(Buffer.from(await emojiImage.arrayBuffer())).toEqual(fs.readFileSync(path.join(FIXTURE, 'emoji/2/emoji/images/1.png')));
      const avatarUrl = state.realm_users.find((u: Record<string, any>) => u.user_id === idOf('hamlet@zulip.example')).avatar_url as string;
      expect(avatarUrl).toMatch(/^\/user_avatars\/\d+\?version=2$/);
      const avatar = await fetchAs(avatarUrl);
      expect(avatar.status).toBe(200);
      expect(avatar.headers.get('content-type')).toBe('image/png');
      const [attachment] = assertSuccess(await h.get('/attachments')).attachments as Record<string, any>[];
      expect(attachment).toMatchObject({ name: 'plan.txt', size: 19, path_id: expect.stringMatching(/^\d+\/4e\/AbCdEf\/plan.txt$/) });
      expect(attachment.message_ids).toHaveLength(1);
      expect(await (await fetchAs(`/user_uploads/${attachment.path_id}`)).text()).toBe('The plan, in full.\n');
    } finally {
      await server.close();
    }
  });

  test('a missing file is refused', async () => {
    const result = await ws.cli(['import', path.join(FIXTURE, 'nothing-here')]);
    expect(result.code).toBe(1);
  });
});
