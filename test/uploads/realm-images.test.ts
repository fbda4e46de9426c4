import fs from 'node:fs';
import sharp from 'sharp';
import { assertError, assertSuccess, client } from '../helpers/api';
import { verifySharedAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { postFiles, storedFiles, tempDataDir } from './files';

let ts: TestServer;
let dataDir: string;
let admin: TestUser;
let alice: TestUser;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir });
  admin = await makeUser(ts, 200);
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: '#00aa44' } })
    .png()
    .toBuffer();
const realmOf = async (who: TestUser) => assertSuccess(await client(ts, who).post('/register', { fetch_event_types: ['realm'] }));
const fetchImage = async (url: string) => {
  const res = await fetch(`${ts.url}${url}`);
  return { status: res.status, meta: res.status === 200 ? await sharp(Buffer.from(await res.arrayBuffer())).metadata() : null };
};

test('the organization icon: upload, register values, events, and back to the default', async () => {
  const defaultUrl = (await realmOf(alice)).realm_icon_url;
  let iconUrl = '';
  const events = await verifySharedAction(
    ts,
    [alice, admin],
    async () => {
      const res = await postFiles(ts, admin, '/realm/icon', [{ name: 'icon.png', data: await png(300, 200) }]);
      iconUrl = assertSuccess(res).icon_url;
      return res;
    },
    { fetchEventTypes: ['realm'], eventTypes: ['realm'] },
  );
  const realmId = ts.server.deps.realmId;
  expect(iconUrl).toBe(`/user_avatars/${realmId}/realm/icon.png?version=2`);
  expect(events).toEqual([{ type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: iconUrl, icon_source: 'U' } }]);
  expect((await realmOf(alice)).realm_icon_source).toBe('U');
  expect((await fetchImage(iconUrl)).meta).toEqual(expect.objectContaining({ width: 100, height: 100, format: 'png' }));
  expect(assertSuccess(await client(ts, null).get('/server_settings')).realm_icon).toBe(iconUrl);

  const removed = await verifySharedAction(ts, [alice], () => client(ts, admin).delete('/realm/icon'), { fetchEventTypes: ['realm'], eventTypes: ['realm'] });
  expect(removed).toEqual([{ type: 'realm', op: 'update_dict', property: 'icon', data: { icon_url: defaultUrl, icon_source: 'G' } }]);
  expect((await fetchImage(iconUrl)).status).toBe(404);
  expect(storedFiles(dataDir).filter((f) => f.startsWith('realm/'))).toEqual([]);
});

test('day and night logos', async () => {
  const wide = await png(1600, 100);
  const day = await verifySharedAction(ts, [alice], () => postFiles(ts, admin, '/realm/logo', [{ name: 'logo.png', data: wide }]), {
    fetchEventTypes: ['realm'],
    eventTypes: ['realm'],
  });
  expect(day).toEqual([
    { type: 'realm', op: 'update_dict', property: 'logo', data: { logo_url: expect.stringMatching(/\/realm\/logo\.png\?version=1$/), logo_source: 'U' } },
  ]);
  expect((await fetchImage(day[0].data.logo_url)).meta).toEqual(expect.objectContaining({ width: 800, height: 50 }));

  const night = await verifySharedAction(
    ts,
    [alice],
    async () => {
      const form = new FormData();
      form.append('night', 'true');
      form.append('file', new Blob([await png(100, 40)]), 'night.png');
      return fetch(`${ts.url}/api/v1/realm/logo`, {
        method: 'POST',
        body: form,
        headers: { authorization: `Basic ${Buffer.from(`${admin.email}:${admin.apiKey}`).toString('base64')}` },
      }).then(async (r) => ({ status: r.status, headers: r.headers, body: (await r.json()) as Record<string, any> }));
    },
    { fetchEventTypes: ['realm'], eventTypes: ['realm'] },
  );
  expect(night).toEqual([
    {
      type: 'realm',
      op: 'update_dict',
      property: 'night_logo',
      data: { night_logo_url: expect.stringMatching(/\/realm\/night_logo\.png\?version=1$/), night_logo_source: 'U' },
    },
  ]);
  const state = await realmOf(alice);
  expect(state.realm_logo_source).toBe('U');
  expect(state.realm_night_logo_source).toBe('U');

  await verifySharedAction(ts, [alice], () => client(ts, admin).delete('/realm/logo', { night: true }), { fetchEventTypes: ['realm'], eventTypes: ['realm'] });
  expect((await realmOf(alice)).realm_night_logo_source).toBe('D');
  expect((await realmOf(alice)).realm_logo_source).toBe('U');
});

test('only administrators; bad files refused', async () => {
  assertError(
    await postFiles(ts, alice, '/realm/icon', [{ name: 'i.png', data: await png(10, 10) }]),
    'UNAUTHORIZED_PRINCIPAL',
    'Must be an organization administrator',
  );
  assertError(await client(ts, alice).delete('/realm/logo'), 'UNAUTHORIZED_PRINCIPAL', 'Must be an organization administrator');
  assertError(await postFiles(ts, admin, '/realm/icon', []), 'BAD_REQUEST', 'You must upload exactly one icon.');
  assertError(
    await postFiles(ts, admin, '/realm/logo', [{ name: 'x.png', data: Buffer.from('nope') }]),
    'BAD_REQUEST',
    'Could not decode image; did you upload an image file?',
  );
  assertError(
    await postFiles(ts, admin, '/realm/icon', [{ name: 'x.png', data: Buffer.alloc(5 * 1024 * 1024 + 1) }]),
    'BAD_REQUEST',
    'Uploaded file is larger than the allowed limit of 5 MiB',
  );
});
