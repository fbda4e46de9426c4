import { ConfigError, loadConfig } from '../../src/config';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { registerQueue, verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { FakeConstructorGroups, FakeNextcloud, RoomFakeMode, startFakeConstructorGroups, startFakeNextcloud } from './room-fakes';

/** Zulip feature levels 460 (Constructor Groups calls) and 465 (Nextcloud Talk calls). */
const CG = { accessKey: 'cg-access-0123', secretKey: 'cg-secret-abcdef' };
const NC = { username: 'zulip-calls', password: 'Ab12c-De34f-Gh56i-Jk78l-Mn90o' };

let groups: FakeConstructorGroups;
let nextcloud: FakeNextcloud;
let ts: TestServer;
let alice: TestUser;
let bob: TestUser;
let twin: TestUser;

beforeAll(async () => {
  groups = await startFakeConstructorGroups(CG.accessKey, CG.secretKey);
  nextcloud = await startFakeNextcloud(NC.username, NC.password);
  ts = await startTestServer({
    PARLEY_CONSTRUCTOR_GROUPS_URL: `${groups.url}/`,
    PARLEY_CONSTRUCTOR_GROUPS_ACCESS_KEY: CG.accessKey,
    PARLEY_CONSTRUCTOR_GROUPS_SECRET_KEY: CG.secretKey,
    PARLEY_NEXTCLOUD_URL: nextcloud.url,
    PARLEY_NEXTCLOUD_TALK_USERNAME: NC.username,
    PARLEY_NEXTCLOUD_TALK_PASSWORD: NC.password,
  });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Guest' });
  twin = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts?.close();
  await groups?.close();
  await nextcloud?.close();
}, SERVER_HOOK_TIMEOUT);

/** Runs `work` with the fake in `mode`, then puts it back. */
async function withMode(fake: { mode: RoomFakeMode }, mode: RoomFakeMode, work: () => Promise<void>): Promise<void> {
  fake.mode = mode;
  try {
    await work();
  } finally {
    fake.mode = 'ok';
  }
}

describe('the organization provider', () => {
  test('register lists Constructor Groups (6) and Nextcloud Talk (7); an administrator may choose them', async () => {
    const state = (await registerQueue(ts, alice, { fetchEventTypes: ['realm'] })).state;
    expect(state.realm_available_video_chat_providers).toEqual({
      disabled: { name: 'None', id: 0 },
      jitsi_meet: { name: 'Jitsi Meet', id: 1 },
      constructor_groups: { name: 'Constructor Groups', id: 6 },
      nextcloud_talk: { name: 'Nextcloud Talk', id: 7 },
    });
    for (const id of [6, 7]) {
      const events = await verifySharedAction(ts, [alice], async () => assertSuccess(await client(ts, ts.owner).patch('/realm', { video_chat_provider: id })), {
        fetchEventTypes: ['realm'],
      });
      expect(events).toEqual([{ type: 'realm', op: 'update', property: 'video_chat_provider', value: id }]);
    }
    const res = await graphql(ts, ts.owner, 'mutation ($s: JSON!) { updateRealmSettings(settings: $s) { changed } }', { s: { videoChatProvider: 6 } });
    expect(res.errors).toBeUndefined();
    expect((await registerQueue(ts, bob, { fetchEventTypes: ['realm'] })).state.realm_video_chat_provider).toBe(6);
    // Providers whose credentials are not configured stay refused.
    assertError(await client(ts, ts.owner).patch('/realm', { video_chat_provider: 4 }), 'BAD_REQUEST', 'Invalid video_chat_provider 4');
  });
});

describe('Constructor Groups (feature level 460)', () => {
  test("each member's default room, found by their email address with the XAPI token; the same room every time", async () => {
    const first = assertSuccess(await client(ts, alice).post('/calls/constructorgroups/create', {}));
    const again = assertSuccess(await client(ts, alice).post('/calls/constructorgroups/create', {}));
    expect(first.url).toMatch(/^https:\/\/groups\.example\/room\/room-\d+$/);
    expect(again.url).toBe(first.url);
    expect(groups.requests.at(-1)).toEqual({
      creator_email: alice.email,
      name: "Alice Liddell's Parley room",
      fallback_name: expect.stringMatching(new RegExp(`^Alice Liddell's Parley room \\(\\d+-${alice.id}\\)$`)),
    });
    expect(groups.refused).toBe(0);

    // A namesake's room is named by the fallback, and is another room.
    const other = assertSuccess(await client(ts, twin).post('/calls/constructorgroups/create', {}));
    expect(other.url).not.toBe(first.url);
    expect(groups.requests.at(-1)).toMatchObject({ creator_email: twin.email });
  });

  test('the endpoint takes no parameters: others are reported as ignored; GraphQL finds the same room', async () => {
    const res = assertSuccess(await client(ts, bob).post('/calls/constructorgroups/create', { is_video_call: false }));
    expect(res.ignored_parameters_unsupported).toEqual(['is_video_call']);
    const viaGraphql = await graphql(ts, bob, 'mutation { createConstructorGroupsCall { url } }');
    expect(viaGraphql.data!.createConstructorGroupsCall.url).toBe(res.url);
  });

  test('every failure is "Failed to create Constructor Groups call", never a 500', async () => {
    const failed = async () => {
      assertError(await client(ts, alice).post('/calls/constructorgroups/create', {}), 'BAD_REQUEST', 'Failed to create Constructor Groups call');
    };
    for (const mode of ['server-error', 'no-room', 'hang-up'] as const) await withMode(groups, mode, failed);
    groups.secretKey = 'rotated-at-constructor';
    try {
      await failed();
      expect(groups.refused).toBe(1);
    } finally {
      groups.secretKey = CG.secretKey;
    }
    await withMode(groups, 'server-error', async () => {
      expect(graphqlError(await graphql(ts, alice, 'mutation { createConstructorGroupsCall { url } }'))).toEqual({
        code: 'BAD_REQUEST',
        message: 'Failed to create Constructor Groups call',
      });
    });
    assertSuccess(await client(ts, alice).post('/calls/constructorgroups/create', {}));
  });
});

describe('Nextcloud Talk (feature level 465)', () => {
  test('a new public conversation with the name given; its call page under the server URL', async () => {
    const { url } = assertSuccess(await client(ts, alice).post('/calls/nextcloud_talk/create', { room_name: 'design > typography conversation' }));
    expect(nextcloud.rooms.at(-1)).toEqual({ roomType: 3, roomName: 'design > typography conversation' });
    expect(url).toBe(`${nextcloud.url}/index.php/call/tok${nextcloud.rooms.length}x9q`);
    const second = assertSuccess(await client(ts, alice).post('/calls/nextcloud_talk/create', { room_name: 'design > typography conversation' }));
    expect(second.url).not.toBe(url);
    expect(nextcloud.refused).toBe(0);
  });

  test('names past 255 characters are cut to 252 and "...", counting characters rather than UTF-16 units', async () => {
    const long = `${'🎥'.repeat(200)}${'x'.repeat(100)}`;
    assertSuccess(await client(ts, bob).post('/calls/nextcloud_talk/create', { room_name: long }));
    expect(nextcloud.rooms.at(-1)!.roomName).toBe(`${'🎥'.repeat(200)}${'x'.repeat(52)}...`);
    const exact = 'y'.repeat(255);
    assertSuccess(await client(ts, bob).post('/calls/nextcloud_talk/create', { room_name: exact }));
    expect(nextcloud.rooms.at(-1)!.roomName).toBe(exact);
  });

  test('room_name is required; GraphQL creates the same kind of conversation', async () => {
    const before = nextcloud.rooms.length;
    assertError(await client(ts, alice).post('/calls/nextcloud_talk/create', {}), 'REQUEST_VARIABLE_MISSING', "Missing 'room_name' argument");
    expect(nextcloud.rooms).toHaveLength(before);
    const res = await graphql(ts, bob, 'mutation { createNextcloudTalkCall(roomName: "Bob conversation") { url } }');
    expect(res.data!.createNextcloudTalkCall.url).toBe(`${nextcloud.url}/index.php/call/tok${before + 1}x9q`);
    expect(nextcloud.rooms.at(-1)).toEqual({ roomType: 3, roomName: 'Bob conversation' });
  });

  test("Talk's refusals and failures are Zulip's errors, never a 500", async () => {
    const create = () => client(ts, alice).post('/calls/nextcloud_talk/create', { room_name: 'Flaky conversation' });
    nextcloud.password = 'revoked-app-password';
    try {
      assertError(await create(), 'BAD_REQUEST', 'Error connecting to the Nextcloud Talk server: HTTP 401');
    } finally {
      nextcloud.password = NC.password;
    }
    await withMode(nextcloud, 'server-error', async () => {
      assertError(await create(), 'BAD_REQUEST', 'Error connecting to the Nextcloud Talk server: HTTP 503');
    });
    await withMode(nextcloud, 'no-room', async () => {
      assertError(await create(), 'BAD_REQUEST', 'Failed to create Nextcloud Talk call');
      expect(graphqlError(await graphql(ts, alice, 'mutation { createNextcloudTalkCall(roomName: "x") { url } }'))).toEqual({
        code: 'BAD_REQUEST',
        message: 'Failed to create Nextcloud Talk call',
      });
    });
    await withMode(nextcloud, 'hang-up', async () => {
      const res = await create();
      expect(res.status).toBe(400);
      expect(res.body.msg).toMatch(/^Error connecting to the Nextcloud Talk server: \S+$/);
    });
    assertSuccess(await create());
  });

  test('calls need credentials', async () => {
    for (const path of ['/calls/nextcloud_talk/create', '/calls/constructorgroups/create'])
      assertError(await client(ts, null).post(path, { room_name: 'x' }), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('configuration', () => {
  test('Constructor Groups needs its URL and both keys; the URL loses its trailing slash', () => {
    const env = {
      PARLEY_CONSTRUCTOR_GROUPS_URL: 'https://cg.example/api/groups/xapi/',
      PARLEY_CONSTRUCTOR_GROUPS_ACCESS_KEY: 'a',
      PARLEY_CONSTRUCTOR_GROUPS_SECRET_KEY: 's',
    };
    expect(loadConfig(env).constructorGroups).toEqual({ url: 'https://cg.example/api/groups/xapi', accessKey: 'a', secretKey: 's' });
    expect(() => loadConfig({ ...env, PARLEY_CONSTRUCTOR_GROUPS_SECRET_KEY: '' })).toThrow(
      new ConfigError('PARLEY_CONSTRUCTOR_GROUPS_SECRET_KEY must be set when PARLEY_CONSTRUCTOR_GROUPS_URL is'),
    );
    expect(() => loadConfig({ PARLEY_CONSTRUCTOR_GROUPS_ACCESS_KEY: 'a' })).toThrow(
      'PARLEY_CONSTRUCTOR_GROUPS_URL must be set when PARLEY_CONSTRUCTOR_GROUPS_ACCESS_KEY is',
    );
    expect(() => loadConfig({ ...env, PARLEY_CONSTRUCTOR_GROUPS_URL: 'ftp://cg.example/' })).toThrow(
      'PARLEY_CONSTRUCTOR_GROUPS_URL must start with http:// or https://',
    );
  });

  test('Nextcloud Talk needs the server URL, username and password; the URL ends in a slash', () => {
    const env = { PARLEY_NEXTCLOUD_URL: 'https://cloud.example/nextcloud', PARLEY_NEXTCLOUD_TALK_USERNAME: 'u', PARLEY_NEXTCLOUD_TALK_PASSWORD: 'p' };
    expect(loadConfig(env).nextcloudTalk).toEqual({ url: 'https://cloud.example/nextcloud/', username: 'u', password: 'p' });
    expect(() => loadConfig({ ...env, PARLEY_NEXTCLOUD_TALK_USERNAME: ' ' })).toThrow(
      'PARLEY_NEXTCLOUD_TALK_USERNAME must be set when PARLEY_NEXTCLOUD_URL is',
    );
    expect(() => loadConfig({ PARLEY_NEXTCLOUD_TALK_PASSWORD: 'p' })).toThrow('PARLEY_NEXTCLOUD_URL must be set when PARLEY_NEXTCLOUD_TALK_PASSWORD is');
  });
});
