import fs from 'node:fs';
import sharp from 'sharp';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { postFiles, tempDataDir } from '../uploads/files';

let ts: TestServer;
let dataDir: string;
let owner: TestUser;
let admin: TestUser;
let alice: TestUser;
let bob: TestUser;

const setRealm = async (settings: Record<string, unknown>) => assertSuccess(await client(ts, owner).patch('/realm', settings));
const nameOf = async (who: TestUser) => assertSuccess(await client(ts, owner).get(`/users/${who.id}`)).user.full_name;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir });
  owner = ts.owner;
  admin = await makeUser(ts, 200, { fullName: 'Ada Admin', canCreateUsers: true });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

test('name_changes_disabled: members cannot rename themselves, administrators still can', async () => {
  await setRealm({ name_changes_disabled: true });
  assertError(await client(ts, alice).patch('/settings', { full_name: 'Alice Renamed' }), 'BAD_REQUEST', 'Name changes are disabled in this organization.');
  const viaGraphQL = await graphql(ts, alice, 'mutation { updateSettings(input: { fullName: "Alice Again" }) { __typename } }');
  expect(graphqlError(viaGraphQL)).toEqual({ message: 'Name changes are disabled in this organization.', code: 'BAD_REQUEST' });
  expect(await nameOf(alice)).toBe('Alice Liddell');
  // Sending one's current name is no change.
  assertSuccess(await client(ts, alice).patch('/settings', { full_name: 'Alice Liddell' }));
  assertSuccess(await client(ts, admin).patch('/settings', { full_name: 'Ada Administrator' }));
  expect(await nameOf(admin)).toBe('Ada Administrator');
  // An administrator may still rename a member.
  assertSuccess(await client(ts, admin).patch(`/users/${alice.id}`, { full_name: 'Alice Pleasance' }));
  expect(await nameOf(alice)).toBe('Alice Pleasance');
  await setRealm({ name_changes_disabled: false });
  assertSuccess(await client(ts, alice).patch('/settings', { full_name: 'Alice Liddell' }));
});

test('avatar_changes_disabled: members cannot set or remove their avatar, administrators still can', async () => {
  const data = await sharp({ create: { width: 40, height: 40, channels: 3, background: '#3366cc' } })
    .png()
    .toBuffer();
  const setAvatar = (who: TestUser) => postFiles(ts, who, '/users/me/avatar', [{ name: 'me.png', data, type: 'image/png' }]);
  await setRealm({ avatar_changes_disabled: true });
  const disabled = 'Avatar changes are disabled in this organization.';
  assertError(await setAvatar(bob), 'BAD_REQUEST', disabled);
  assertError(await client(ts, bob).delete('/users/me/avatar'), 'BAD_REQUEST', disabled);
  expect(graphqlError(await graphql(ts, bob, 'mutation { deleteAvatar { avatarUrl } }'))).toEqual({ message: disabled, code: 'BAD_REQUEST' });
  expect(assertSuccess(await client(ts, owner).get(`/users/${bob.id}`)).user.avatar_version).toBe(1);
  assertSuccess(await setAvatar(admin));
  await setRealm({ avatar_changes_disabled: false });
  assertSuccess(await setAvatar(bob));
});

test('require_unique_names: a name another account holds (case and compatibility forms alike) is refused everywhere', async () => {
  await setRealm({ require_unique_names: true });
  const taken = 'Unique names required in this organization.';
  // Sign-up (an account created through the API).
  assertError(
    await client(ts, admin).post('/users', { email: 'twin@example.com', password: 'a-good-password', full_name: 'bob builder' }),
    'BAD_REQUEST',
    taken,
  );
  // Renaming oneself, or being renamed by an administrator.
  assertError(await client(ts, alice).patch('/settings', { full_name: 'ＢＯＢ Builder' }), 'BAD_REQUEST', taken);
  assertError(await client(ts, admin).patch(`/users/${alice.id}`, { full_name: 'BOB BUILDER' }), 'BAD_REQUEST', taken);
  // Bots, created or renamed.
  assertError(await client(ts, alice).post('/bots', { full_name: 'Bob builder', short_name: 'twin' }), 'BAD_REQUEST', taken);
  const bot = assertSuccess(await client(ts, alice).post('/bots', { full_name: 'Helper Bot', short_name: 'helper' })).user_id;
  assertError(await client(ts, alice).patch(`/bots/${bot}`, { full_name: 'alice liddell' }), 'BAD_REQUEST', taken);
  // A deactivated account still holds its name.
  assertSuccess(await client(ts, owner).delete(`/users/${bob.id}`));
  assertError(await client(ts, alice).patch('/settings', { full_name: 'Bob Builder' }), 'BAD_REQUEST', taken);
  // Keeping one's own name (in another case) is fine.
  assertSuccess(await client(ts, alice).patch('/settings', { full_name: 'ALICE LIDDELL' }));
  expect(await nameOf(alice)).toBe('ALICE LIDDELL');
  await setRealm({ require_unique_names: false });
  assertSuccess(await client(ts, admin).post('/users', { email: 'twin@example.com', password: 'a-good-password', full_name: 'bob builder' }));
});
