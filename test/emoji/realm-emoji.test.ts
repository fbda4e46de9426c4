import { realmEmojiSlice } from '../../src/core/emoji/state';
import { RegisterOptions } from '../../src/core/register/slice';
import { NO_CAPABILITIES } from '../../src/realtime/capabilities';
import type { Delivery } from '../../src/realtime/bus';
import { User } from '../../src/core/users/model';
import { ApiResponse, assertError, assertSuccess, basicAuth, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000200e5270de50000000049454e44ae426082',
  'hex',
);
const GIF = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');

let ts: TestServer;
let member: TestUser;
let admin: TestUser;
let guest: TestUser;
const deliveries: Delivery[] = [];

beforeAll(async () => {
  ts = await startTestServer();
  member = await makeUser(ts, 400);
  admin = await makeUser(ts, 200);
  guest = await makeUser(ts, 600);
  ts.server.deps.bus.subscribe((batch) => deliveries.push(...batch));
});
afterAll(async () => {
  await ts.close();
});

/** Uploads files the way Zulip clients do: multipart/form-data, any field name. */
async function upload(who: TestUser, name: string, files: { data: Buffer; filename: string }[]): Promise<ApiResponse> {
  const form = new FormData();
  files.forEach((file, i) => form.append(`f${i + 1}`, new Blob([new Uint8Array(file.data)]), file.filename));
  const res = await fetch(`${ts.url}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: basicAuth(who) },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

const list = async (who: TestUser = member) => assertSuccess(await client(ts, who).get('/realm/emoji')).emoji as Record<string, any>;

describe('GET /realm/emoji', () => {
  test('starts empty', async () => {
    expect(await list()).toEqual({});
  });

  test('needs authentication', async () => {
    assertError(await client(ts, null).get('/realm/emoji'), 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
  });
});

describe('uploading custom emoji', () => {
  let id: string;

  test('a member adds one; everyone learns the new set', async () => {
    deliveries.length = 0;
    assertSuccess(await upload(member, 'party parrot', [{ data: PNG, filename: 'parrot.png' }]));
    const emoji = await list(guest);
    const [entry] = Object.values(emoji);
    id = entry.id;
    expect(emoji).toEqual({
      [id]: {
        id,
        name: 'party_parrot',
        source_url: expect.stringMatching(new RegExp(`^/user_avatars/${ts.server.deps.realmId}/emoji/images/[0-9a-f]{8}\\.png$`)),
        still_url: null,
        deactivated: false,
        author_id: member.id,
      },
    });
    const events = deliveries.filter((d) => d.event.type === 'realm_emoji');
    expect(events).toHaveLength(1);
    expect(events[0].event).toEqual({ type: 'realm_emoji', op: 'update', realm_emoji: emoji });
    expect(events[0].userIds.sort((a, b) => a - b)).toEqual([ts.owner.id, member.id, admin.id, guest.id].sort((a, b) => a - b));
  });

  test('the image is served at its source_url', async () => {
    const { source_url } = (await list())[id];
    const res = await fetch(`${ts.url}${source_url}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(`${ts.url}/user_avatars/${ts.server.deps.realmId}/emoji/images/missing.png`)).status).toBe(404);
  });

  test('messages render it', async () => {
    const { source_url } = (await list())[id];
    const body = assertSuccess(await client(ts, member).post('/messages/render', { content: ':party_parrot:' }));
    expect(body.rendered).toBe(`<p><img alt=":party_parrot:" class="emoji" src="${source_url}" title="party parrot"></p>`);
  });

  test('the name must be free', async () => {
    assertError(await upload(admin, 'party_parrot', [{ data: GIF, filename: 'p.gif' }]), 'BAD_REQUEST', 'A custom emoji with this name already exists.');
  });

  test('names are checked', async () => {
    assertError(
      await upload(member, 'Parrot', [{ data: PNG, filename: 'p.png' }]),
      'BAD_REQUEST',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    );
    assertError(await upload(member, 'parrot_', [{ data: PNG, filename: 'p.png' }]), 'BAD_REQUEST', 'Emoji names must end with either a letter or digit.');
  });

  test('long names are fine', async () => {
    const name = `a${'b'.repeat(100)}`;
    assertSuccess(await upload(member, name, [{ data: PNG, filename: 'p.png' }]));
    expect(Object.values(await list()).some((e) => e.name === name)).toBe(true);
  });

  test('exactly one image file', async () => {
    assertError(await upload(member, 'none', []), 'BAD_REQUEST', 'You must upload exactly one file.');
    assertError(
      await upload(member, 'two', [
        { data: PNG, filename: 'a.png' },
        { data: GIF, filename: 'b.gif' },
      ]),
      'BAD_REQUEST',
      'You must upload exactly one file.',
    );
    assertError(await upload(member, 'text', [{ data: Buffer.from('not an image'), filename: 'a.png' }]), 'BAD_IMAGE', 'Invalid image format');
  });

  test('only administrators may shadow built-in emoji', async () => {
    assertError(await upload(member, 'smile', [{ data: PNG, filename: 'p.png' }]), 'BAD_REQUEST', 'Only administrators can override built-in emoji.');
    assertSuccess(await upload(admin, 'smile', [{ data: GIF, filename: 's.gif' }]));
    const smile = Object.values(await list()).find((e) => e.name === 'smile');
    expect(smile.source_url).toMatch(/\.gif$/);
  });

  test('guests may not add emoji', async () => {
    assertError(await upload(guest, 'guesty', [{ data: PNG, filename: 'p.png' }]), 'BAD_REQUEST', 'Not allowed for guest users');
  });
});

describe('register slice and GraphQL', () => {
  const options: RegisterOptions = {
    applyMarkdown: true,
    clientGravatar: false,
    includeSubscribers: 'false',
    slimPresence: false,
    presenceHistoryLimitDays: 14,
    narrow: [],
    allPublicStreams: false,
    capabilities: NO_CAPABILITIES,
  };

  test('realm_emoji is fetched, and brought up to date by realm_emoji events', async () => {
    const me = await User.query(ts.server.deps.knex).findById(member.id);
    const state = await realmEmojiSlice.fetch(ts.server.deps, me!, options);
    expect(state).toEqual({ realm_emoji: await list() });
    const replacement = { '77': { id: '77', name: 'x', source_url: '/x', still_url: null, deactivated: true, author_id: null } };
    realmEmojiSlice.apply!(state, { type: 'realm_emoji', op: 'update', realm_emoji: replacement }, me!, options);
    expect(state.realm_emoji).toEqual(replacement);
    realmEmojiSlice.apply!(state, { type: 'realm_user', op: 'update', person: {} }, me!, options);
    expect(state.realm_emoji).toEqual(replacement);
  });

  test('GraphQL lists the same emoji', async () => {
    const res = await graphql(ts, member, '{ realmEmoji { id name sourceUrl stillUrl deactivated authorId } }');
    const rest = Object.values(await list());
    expect(res.data?.realmEmoji).toEqual(
      rest.map((e) => ({ id: e.id, name: e.name, sourceUrl: e.source_url, stillUrl: null, deactivated: false, authorId: e.author_id })),
    );
  });
});
