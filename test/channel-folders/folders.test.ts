import { channelFoldersSlice } from '../../src/core/channel-folders/state';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../../src/core/channel-folders/limits';
import { User } from '../../src/core/users/model';
import { stateSlices } from '../../src/core/register/slices';
import { assertError, assertSuccess, client, graphql, graphqlError } from '../helpers/api';
import { captureEvents, registerOptions } from '../helpers/events';
import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';

// Each suite starts a server and hashes several passwords; a loaded machine needs the headroom.
jest.setTimeout(120_000);

let ts: TestServer;
let admin: TestUser;
let moderator: TestUser;
let member: TestUser;
let guest: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
  moderator = await makeUser(ts, 300);
  member = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
});
afterAll(async () => {
  await ts.close();
});

let counter = 0;
async function createFolder(params: Record<string, unknown> = {}): Promise<number> {
  counter += 1;
  const body = assertSuccess(await client(ts, admin).post('/channel_folders/create', { name: `Folder ${counter}`, description: '', ...params }));
  return body.channel_folder_id;
}
async function folder(id: number) {
  const all = assertSuccess(await client(ts, member).get('/channel_folders', { include_archived: true })).channel_folders;
  return all.find((f: { id: number }) => f.id === id);
}

test('limits are Zulip’s', () => {
  expect(MAX_CHANNEL_FOLDER_NAME_LENGTH).toBe(60);
  expect(MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH).toBe(1024);
});

describe('POST /channel_folders/create', () => {
  test('administrators create folders; the description is rendered safely', async () => {
    const before = Math.floor(Date.now() / 1000);
    const events = captureEvents(ts);
    const res = await client(ts, admin).post('/channel_folders/create', { name: 'Frontend', description: 'Web & <b>UI</b>\n\nSecond' });
    events.stop();
    const id = assertSuccess(res).channel_folder_id;
    const created = await folder(id);
    expect(created).toMatchObject({
      id,
      name: 'Frontend',
      description: 'Web & <b>UI</b>\n\nSecond',
      rendered_description: '<p>Web &amp; &lt;b&gt;UI&lt;/b&gt;</p>\n<p>Second</p>',
      creator_id: admin.id,
      is_archived: false,
    });
    expect(created.date_created).toBeGreaterThanOrEqual(before - 1);
    const [delivery] = events.of('channel_folder', 'add');
    expect(delivery.event).toEqual({ type: 'channel_folder', op: 'add', channel_folder: created });
    const active: number[] = await ts.server.deps.knex('users').where({ realm_id: ts.server.deps.realmId, is_active: true }).pluck('id');
    expect([...delivery.userIds].sort((a, b) => a - b)).toEqual(active.sort((a, b) => a - b));
  });

  test('the owner may create folders too', async () => {
    assertSuccess(await client(ts, ts.owner).post('/channel_folders/create', { name: 'Owned', description: '' }));
  });

  test.each([
    ['moderator', () => moderator],
    ['member', () => member],
    ['guest', () => guest],
  ])('a %s may not, whatever they send', async (_role, who) => {
    assertError(
      await client(ts, who()).post('/channel_folders/create', { name: 'x', description: '' }),
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    assertError(await client(ts, who()).post('/channel_folders/create', {}), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  });

  test('name and description rules', async () => {
    const post = (params: Record<string, unknown>) => client(ts, admin).post('/channel_folders/create', params);
    assertError(await post({ name: 'No description' }), 'REQUEST_VARIABLE_MISSING', "Missing 'description' argument");
    assertError(await post({ description: '' }), 'REQUEST_VARIABLE_MISSING', "Missing 'name' argument");
    assertError(await post({ name: '', description: '' }), 'BAD_REQUEST', "Channel folder name can't be empty.");
    assertError(await post({ name: '   ', description: '' }), 'BAD_REQUEST', "Channel folder name can't be empty.");
    assertError(await post({ name: 'a'.repeat(61), description: '' }), 'BAD_REQUEST', 'name is too long (limit: 60 characters)');
    assertSuccess(await post({ name: 'ü'.repeat(60), description: '' }));
    assertError(await post({ name: 'ok', description: 'd'.repeat(1025) }), 'BAD_REQUEST', 'description is too long (limit: 1024 characters)');
    assertError(await post({ name: 'abc\u0000', description: '' }), 'BAD_REQUEST', 'Invalid character in channel folder name, at position 4.');
    assertError(await post({ name: 'a\tb', description: '' }), 'BAD_REQUEST', 'Invalid character in channel folder name, at position 2.');
    assertSuccess(await post({ name: 'Backend', description: '' }));
    assertError(await post({ name: 'Backend', description: '' }), 'BAD_REQUEST', 'Channel folder name already in use');
    assertError(await post({ name: 'backEND', description: '' }), 'BAD_REQUEST', 'Channel folder name already in use');
  });
});

describe('GET /channel_folders', () => {
  test('everyone, guests included, reads folders; archived ones on request', async () => {
    const kept = await createFolder();
    const archived = await createFolder();
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${archived}`, { is_archived: true }));
    for (const who of [ts.owner, admin, moderator, member, guest]) {
      const plain = assertSuccess(await client(ts, who).get('/channel_folders')).channel_folders;
      expect(plain.some((f: { id: number }) => f.id === kept)).toBe(true);
      expect(plain.some((f: { id: number }) => f.id === archived)).toBe(false);
      const all = assertSuccess(await client(ts, who).get('/channel_folders', { include_archived: true })).channel_folders;
      expect(all.some((f: { id: number }) => f.id === archived)).toBe(true);
      expect(all.map((f: { id: number }) => f.id)).toEqual([...all.map((f: { id: number }) => f.id)].sort((a, b) => a - b));
    }
  });
});

describe('PATCH /channel_folders/{id}', () => {
  test('renames, redescribes, archives and unarchives, one event per change', async () => {
    const id = await createFolder({ name: 'Old', description: 'old' });
    const events = captureEvents(ts);
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${id}`, { name: 'New', description: '**new**', is_archived: true }));
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${id}`, { is_archived: false }));
    events.stop();
    expect(await folder(id)).toMatchObject({ name: 'New', description: '**new**', rendered_description: '<p><strong>new</strong></p>', is_archived: false });
    expect(events.events('channel_folder')).toEqual([
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { name: 'New' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { description: '**new**', rendered_description: '<p><strong>new</strong></p>' } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: true } },
      { type: 'channel_folder', op: 'update', channel_folder_id: id, data: { is_archived: false } },
    ]);
  });

  test('an empty description renders empty; unchanged values send nothing', async () => {
    const id = await createFolder({ description: 'something' });
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${id}`, { description: '' }));
    expect(await folder(id)).toMatchObject({ description: '', rendered_description: '' });
    const events = captureEvents(ts);
    const current = await folder(id);
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${id}`, { name: current.name, description: '', is_archived: false }));
    events.stop();
    expect(events.deliveries).toHaveLength(0);
  });

  test('errors', async () => {
    const id = await createFolder();
    const other = await createFolder({ name: 'Taken name' });
    const patch = (params: Record<string, unknown>, folderId = id) => client(ts, admin).patch(`/channel_folders/${folderId}`, params);
    assertError(await patch({ name: 'x' }, 999999), 'BAD_REQUEST', 'Invalid channel folder ID');
    assertError(await patch({ name: '' }), 'BAD_REQUEST', "Channel folder name can't be empty.");
    assertError(await patch({ name: 'taken NAME' }), 'BAD_REQUEST', 'Channel folder name already in use');
    assertError(await patch({ name: 'abc\u0000' }), 'BAD_REQUEST', 'Invalid character in channel folder name, at position 4.');
    assertError(await patch({ name: 'a'.repeat(61) }), 'BAD_REQUEST', 'name is too long (limit: 60 characters)');
    assertError(await patch({ is_archived: 'yes' }), 'INVALID_JSON', 'Argument "is_archived" is not valid JSON.');
    for (const who of [moderator, member, guest]) {
      assertError(
        await client(ts, who).patch(`/channel_folders/${other}`, { name: 'mine' }),
        'UNAUTHORIZED_PRINCIPAL',
        'Must be an organization administrator',
      );
      assertError(
        await client(ts, who).patch(`/channel_folders/${other}`, { is_archived: true }),
        'UNAUTHORIZED_PRINCIPAL',
        'Must be an organization administrator',
      );
    }
  });

  test('a folder holding channels, archived ones included, cannot be archived', async () => {
    const id = await createFolder();
    const refused = async () =>
      assertError(
        await client(ts, admin).patch(`/channel_folders/${id}`, { is_archived: true }),
        'BAD_REQUEST',
        'You need to remove all the channels from this folder to archive it.',
      );
    assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name: `filed-${id}` }], folder_id: id }));
    const channelId = assertSuccess(await client(ts, admin).get('/get_stream_id', { stream: `filed-${id}` })).stream_id;
    await refused();
    assertSuccess(await client(ts, admin).delete(`/streams/${channelId}`));
    await refused();
    assertSuccess(await client(ts, admin).patch(`/streams/${channelId}`, { folder_id: null }));
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${id}`, { is_archived: true }));
    expect((await folder(id)).is_archived).toBe(true);
  });
});

describe('PATCH /channel_folders (reorder)', () => {
  test('sets the order of every folder', async () => {
    await createFolder();
    const ids: number[] = assertSuccess(await client(ts, member).get('/channel_folders', { include_archived: true })).channel_folders.map(
      (f: { id: number }) => f.id,
    );
    const reversed = [...ids].reverse();
    const events = captureEvents(ts);
    assertSuccess(await client(ts, admin).patch('/channel_folders', { order: reversed }));
    events.stop();
    const after = assertSuccess(await client(ts, member).get('/channel_folders', { include_archived: true })).channel_folders;
    for (const f of after) expect(f.order).toBe(reversed.indexOf(f.id));
    expect(events.events('channel_folder')).toEqual([{ type: 'channel_folder', op: 'reorder', order: reversed }]);
    // A new folder goes last.
    const id = await createFolder();
    expect((await folder(id)).order).toBe(ids.length);
  });

  test('every folder must appear; administrators only', async () => {
    const ids: number[] = assertSuccess(await client(ts, member).get('/channel_folders', { include_archived: true })).channel_folders.map(
      (f: { id: number }) => f.id,
    );
    assertError(await client(ts, admin).patch('/channel_folders', { order: ids.slice(1) }), 'BAD_REQUEST', 'Invalid order mapping.');
    assertError(await client(ts, admin).patch('/channel_folders', { order: [999999] }), 'BAD_REQUEST', 'Invalid order mapping.');
    assertError(await client(ts, member).patch('/channel_folders', { order: ids }), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  });
});

describe('register slice channel_folders', () => {
  test('lists every folder, archived included, and applies events idempotently', async () => {
    expect(stateSlices).toContain(channelFoldersSlice);
    expect(channelFoldersSlice.fetchTypes).toEqual(['channel_folders']);
    const me = (await User.query(ts.server.deps.knex).findById(member.id))!;
    const options = registerOptions({ includeSubscribers: 'false' });
    const state = await channelFoldersSlice.fetch(ts.server.deps, me, options);
    expect(state.channel_folders).toEqual(assertSuccess(await client(ts, member).get('/channel_folders', { include_archived: true })).channel_folders);
    const events = captureEvents(ts);
    const id = await createFolder({ description: 'x' });
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${id}`, { name: 'Replayed', description: 'y', is_archived: true }));
    const ids = (state.channel_folders as { id: number }[]).map((f) => f.id).concat(id);
    assertSuccess(await client(ts, admin).patch('/channel_folders', { order: [...ids].reverse() }));
    events.stop();
    for (let round = 0; round < 2; round++) for (const d of events.deliveries) channelFoldersSlice.apply!(state, d.event, me, options);
    expect(state).toEqual(await channelFoldersSlice.fetch(ts.server.deps, me, options));
  });
});

describe('GraphQL', () => {
  test('folders through the same rules', async () => {
    const created = await graphql(
      ts,
      admin,
      'mutation { createChannelFolder(name: "GQL", description: "*hi*") { id name renderedDescription isArchived order } }',
    );
    expect(created.errors).toBeUndefined();
    const id = Number(created.data!.createChannelFolder.id);
    expect(created.data!.createChannelFolder).toMatchObject({ name: 'GQL', renderedDescription: '<p><em>hi</em></p>', isArchived: false });
    const updated = await graphql(ts, admin, 'mutation($id: Int!) { updateChannelFolder(id: $id, isArchived: true) { isArchived } }', { id });
    expect(updated.data!.updateChannelFolder.isArchived).toBe(true);
    const list = await graphql(ts, guest, '{ channelFolders(includeArchived: true) { id } }');
    expect(list.data!.channelFolders.map((f: { id: string }) => f.id)).toContain(String(id));
    const denied = await graphql(ts, member, 'mutation { createChannelFolder(name: "No", description: "") { id } }');
    expect(graphqlError(denied)).toEqual({ code: 'UNAUTHORIZED_PRINCIPAL', message: 'Must be an organization administrator' });
    const long = await graphql(ts, admin, `mutation { createChannelFolder(name: "${'a'.repeat(61)}", description: "") { id } }`);
    expect(graphqlError(long)).toEqual({ code: 'BAD_REQUEST', message: 'name is too long (limit: 60 characters)' });
    const missing = await graphql(ts, admin, 'mutation { updateChannelFolder(id: 999999, name: "x") { id } }');
    expect(graphqlError(missing)).toEqual({ code: 'BAD_REQUEST', message: 'Invalid channel folder ID' });
  });
});

describe('descriptions', () => {
  test('are Markdown, rendered as messages are, with links to channels', async () => {
    assertSuccess(await client(ts, admin).post('/users/me/subscriptions', { subscriptions: [{ name: 'folder-news' }] }));
    const channelId = assertSuccess(await client(ts, admin).get('/get_stream_id', { stream: 'folder-news' })).stream_id;
    const id = await createFolder({ description: 'See #**folder-news** and #**no-such-channel**, `code` <i>x</i>' });
    expect((await folder(id)).rendered_description).toBe(
      `<p>See <a class="stream" data-stream-id="${channelId}" href="/#narrow/channel/${channelId}-folder-news">#folder-news</a> and ` +
        '#<strong>no-such-channel</strong>, <code>code</code> &lt;i&gt;x&lt;/i&gt;</p>',
    );
    assertSuccess(await client(ts, admin).patch(`/channel_folders/${id}`, { description: 'one\ntwo\n\nthree' }));
    expect((await folder(id)).rendered_description).toBe('<p>one<br>\ntwo</p>\n<p>three</p>');
  });
});
