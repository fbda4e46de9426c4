import { assertSuccess, client } from '../helpers/api';
import { verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';

// Channel folders are organization-wide: administrators, members and guests all follow them.
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

/** Runs the action watched by an administrator, a member and a guest; every one of them hears of it. */
const watch = (action: () => Promise<unknown>) => verifySharedAction(ts, [admin, member, guest], action);

const create = async (name: string, description = '') =>
  assertSuccess(await client(ts, admin).post('/channel_folders/create', { name, description })).channel_folder_id as number;

test('creating a folder, with and without a description', async () => {
  const events = await watch(() => client(ts, admin).post('/channel_folders/create', { name: 'Engineering', description: 'Where **builders** talk' }));
  expect(events).toEqual([
    {
      type: 'channel_folder',
      op: 'add',
      channel_folder: expect.objectContaining({
        name: 'Engineering',
        description: 'Where **builders** talk',
        rendered_description: expect.stringContaining('<strong>'),
        is_archived: false,
      }),
    },
  ]);
  await watch(() => client(ts, admin).post('/channel_folders/create', { name: 'Plain', description: '' }));
});

test('renaming, describing, and both at once', async () => {
  const id = await create('Marketing');
  const renamed = await watch(() => client(ts, admin).patch(`/channel_folders/${id}`, { name: 'Growth' }));
  expect(renamed).toEqual([{ type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'Growth' } }]);
  const described = await watch(() => client(ts, admin).patch(`/channel_folders/${id}`, { description: 'Now with *emphasis*' }));
  expect(described).toEqual([
    {
      type: 'channel_folder',
      op: 'update',
      channel_folder_id: id,
      data: { description: 'Now with *emphasis*', rendered_description: expect.stringContaining('<em>') },
    },
  ]);
  await watch(() => client(ts, admin).patch(`/channel_folders/${id}`, { name: 'Growth team', description: '' }));
});

test('archiving and unarchiving', async () => {
  const id = await create('Temporary');
  expect(await watch(() => client(ts, admin).patch(`/channel_folders/${id}`, { is_archived: true }))).toEqual([
    { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
  ]);
  await watch(() => client(ts, admin).patch(`/channel_folders/${id}`, { is_archived: false }));
});

test('reordering every folder', async () => {
  await create('Last');
  const { channel_folders: folders } = assertSuccess(await client(ts, admin).get('/channel_folders', { include_archived: true }));
  const order = folders.map((f: { id: number }) => f.id).reverse();
  expect(await watch(() => client(ts, admin).patch('/channel_folders', { order }))).toEqual([{ type: 'channel_folder', op: 'reorder', order }]);
});
