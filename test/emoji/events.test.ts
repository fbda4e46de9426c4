import { ApiResponse, basicAuth } from '../helpers/api';
import { verifyActionFor } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Custom emoji are organization-wide: administrators, members and guests all follow them.
// (Custom emoji can be uploaded; there is no endpoint to remove one, and no linkifier endpoints.)
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000200e5270de50000000049454e44ae426082',
  'hex',
);
const GIF = Buffer.from('474946383961010001000000002c00000000010001000002024401003b', 'hex');

let ts: TestServer;
let admin: TestUser;
let member: TestUser;
let guest: TestUser;

beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

async function upload(who: TestUser, name: string, data: Buffer, filename: string): Promise<ApiResponse> {
  const form = new FormData();
  form.append('f1', new Blob([new Uint8Array(data)]), filename);
  const res = await fetch(`${ts.url}/api/v1/realm/emoji/${encodeURIComponent(name)}`, {
    method: 'POST',
    headers: { authorization: basicAuth(who) },
    body: form,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

async function watch(action: () => Promise<unknown>) {
  const all = await verifyActionFor(ts, [admin, member, guest], action as never);
  for (const events of all) {
    expect(events.map(({ id: _id, ...e }) => e)).toEqual([{ type: 'realm_emoji', op: 'update', realm_emoji: expect.any(Object) }]);
    expect(events[0].realm_emoji).toEqual(all[0][0].realm_emoji);
  }
  return all[0][0].realm_emoji as Record<string, any>;
}

test('a member uploading an emoji', async () => {
  const emoji = await watch(() => upload(member, 'party_parrot', PNG, 'parrot.png'));
  expect(Object.values(emoji)).toEqual([expect.objectContaining({ name: 'party_parrot', author_id: member.id, deactivated: false })]);
});

test('an animated emoji, and a second one', async () => {
  await watch(() => upload(member, 'dancing_blob', GIF, 'blob.gif'));
  const emoji = await watch(() => upload(admin, 'team_logo', PNG, 'logo.png'));
  expect(Object.keys(emoji)).toHaveLength(3);
});

test('an administrator overriding a built-in emoji', async () => {
  await watch(() => upload(admin, 'smile', GIF, 'smile.gif'));
});

test('a client that did not fetch custom emoji stays in step', async () => {
  await verifyActionFor(ts, [member], () => upload(member, 'unfetched', PNG, 'u.png'), { fetchEventTypes: ['realm_user'] });
});
