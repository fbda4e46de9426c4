import fs from 'node:fs';
import { assertError, assertSuccess, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { storedFiles, tempDataDir, upload } from './files';

let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;
const MIB = 1024 * 1024;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir, PARLEY_UPLOAD_QUOTA_MIB: '2' });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

test('the organization quota counts everyone’s files and is announced in register', async () => {
  const state = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: ['realm'] }));
  expect(state.realm_upload_quota_mib).toBe(2);
  assertSuccess(await upload(ts, alice, [{ name: 'one.bin', data: Buffer.alloc(MIB) }]));
  assertSuccess(await upload(ts, bob, [{ name: 'two.bin', data: Buffer.alloc(MIB - 10) }]));
  const before = storedFiles(dataDir);
  assertError(
    await upload(ts, bob, [{ name: 'three.bin', data: Buffer.alloc(11) }]),
    'REALM_UPLOAD_QUOTA',
    "Upload would exceed your organization's upload quota.",
  );
  expect(storedFiles(dataDir)).toEqual(before);
  assertSuccess(await upload(ts, bob, [{ name: 'fits.bin', data: Buffer.alloc(10) }]));
  expect(assertSuccess(await client(ts, bob).get('/attachments')).upload_space_used).toBe(2 * MIB);

  // Deleting frees space again.
  const { id } = assertSuccess(await client(ts, alice).get('/attachments')).attachments[0];
  assertSuccess(await client(ts, alice).delete(`/attachments/${id}`));
  assertSuccess(await upload(ts, bob, [{ name: 'after.bin', data: Buffer.alloc(MIB) }]));
});

test('a bad quota setting stops the start-up with a clear message', async () => {
  const { loadConfig } = await import('../../src/config');
  expect(() => loadConfig({ PARLEY_UPLOAD_QUOTA_MIB: 'lots' })).toThrow('PARLEY_UPLOAD_QUOTA_MIB must be a whole number, got "lots"');
});
