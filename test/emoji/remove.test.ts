import { ApiResponse, assertError, assertSuccess, basicAuth, client, graphql, graphqlError } from '../helpers/api';
import { verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000200e5270de50000000049454e44ae426082',
  'hex',
);

let ts: TestServer;
let author: TestUser;
let other: TestUser;
let moderator: TestUser;
let admin: TestUser;
let guest: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  author = await makeUser(ts, 400);
  other = await makeUser(ts, 400);
  moderator = await makeUser(ts, 300);
  admin = await makeUser(ts, 200);
  guest = await makeUser(ts, 600);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
});

async function upload(who: TestUser, name: string): Promise<ApiResponse> {
  const form = new FormData();
  form.append('f1', new Blob([new Uint8Array(PNG)]), 'e.png');
  const res = await fetch(`${ts.url}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: basicAuth(who) },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

const remove = (who: TestUser, name: string) => client(ts, who).delete(`/realm/emoji/${encodeURIComponent(name)}`);
const emoji = async () => Object.values(assertSuccess(await client(ts, other).get('/realm/emoji')).emoji) as Record<string, any>[];

describe('DELETE /realm/emoji/{emoji_name}', () => {
  test('the author deactivates it; everyone gets the whole set, the deactivated one included', async () => {
    assertSuccess(await upload(author, 'to_go'));
    const events = await verifySharedAction(ts, [author, other, guest], () => remove(author, 'to_go'), { fetchEventTypes: ['realm_emoji'] });
    expect(events).toHaveLength(1);
    expect(events[0].type).toBe('realm_emoji');
    expect(events[0].op).toBe('update');
    const gone = Object.values(events[0].realm_emoji as Record<string, any>).find((e) => e.name === 'to_go');
    expect(gone).toMatchObject({ name: 'to_go', deactivated: true, author_id: author.id });
    expect((await emoji()).find((e) => e.name === 'to_go')!.deactivated).toBe(true);
  });

  test('others may not, unless administrators', async () => {
    assertSuccess(await upload(author, 'kept'));
    for (const who of [other, moderator, guest]) {
      assertError(await remove(who, 'kept'), 'BAD_REQUEST', 'Must be an organization administrator or emoji author');
    }
    expect((await emoji()).find((e) => e.name === 'kept')!.deactivated).toBe(false);
    assertSuccess(await remove(admin, 'kept'));
    expect((await emoji()).find((e) => e.name === 'kept')!.deactivated).toBe(true);
  });

  test('a missing or already deactivated emoji: 404, "does not exist"', async () => {
    assertError(await remove(admin, 'green_tick'), 'BAD_REQUEST', "Emoji 'green_tick' does not exist", 404);
    assertError(await remove(author, 'to_go'), 'BAD_REQUEST', "Emoji 'to_go' does not exist", 404);
    // The name may be reused once deactivated, and the new one removed in turn.
    assertSuccess(await upload(author, 'to_go'));
    assertSuccess(await remove(author, 'to_go'));
    expect((await emoji()).filter((e) => e.name === 'to_go').map((e) => e.deactivated)).toEqual([true, true]);
  });

  test('GraphQL deactivateCustomEmoji', async () => {
    assertSuccess(await upload(author, 'graphed'));
    expect(graphqlError(await graphql(ts, other, 'mutation { deactivateCustomEmoji(name: "graphed") { id } }'))).toEqual({
      code: 'BAD_REQUEST',
      message: 'Must be an organization administrator or emoji author',
    });
    expect((await graphql(ts, author, 'mutation { deactivateCustomEmoji(name: "graphed") { id } }')).data).toEqual({
      deactivateCustomEmoji: { id: 'graphed' },
    });
    expect(graphqlError(await graphql(ts, author, 'mutation { deactivateCustomEmoji(name: "graphed") { id } }'))).toEqual({
      code: 'BAD_REQUEST',
      message: "Emoji 'graphed' does not exist",
    });
  });
});
