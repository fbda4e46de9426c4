import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { fileStore } from '../../src/core/uploads/stores';
import { sweepOrphanedFiles } from '../../src/core/uploads/orphan-sweep';
import { COMMANDS } from '../../src/operator/commands';
import { assertSuccess } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { pathIdOf, postFiles, UploadBackend, upload } from './files';

/**
 * The sweep of stored files no row names, run once per file store (each test file names one):
 * what a crash leaves between storing a file and committing its row, or between deleting a row
 * and deleting its file, goes once it is older than the grace period; everything a row names,
 * everything younger, and every key of a shape the server never writes stays.
 */
export function orphanSweepSuite(kind: UploadBackend['name'], makeBackend: () => Promise<UploadBackend>): void {
  let ts: TestServer;
  let backend: UploadBackend;
  let alice: TestUser;
  const HOUR = 3600 * 1000;

  beforeAll(async () => {
    backend = await makeBackend();
    // The periodic sweep runs every second here; only files older than five minutes are its concern.
    ts = await startTestServer({ ...backend.env, PARLEY_UPLOAD_SWEEP_INTERVAL_SECONDS: '1', PARLEY_UPLOAD_SWEEP_GRACE_SECONDS: '300' });
    alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts?.close();
    await backend?.close();
  }, SERVER_HOOK_TIMEOUT);

  const store = () => fileStore(ts.server.deps.config);
  const realmId = () => ts.server.deps.realmId;
  const randomPathId = (name: string) => `${realmId()}/${crypto.randomBytes(1).toString('hex')}/${crypto.randomBytes(18).toString('base64url')}/${name}`;

  /** Stores bytes under a key behind the server's back, as a crash before the row would leave them. */
  async function storeDirectly(key: string, data = 'left behind'): Promise<void> {
    const staged = await store().stage(Readable.from([Buffer.from(data)]));
    await staged.commit(key);
  }

  const image = (size: number) =>
    sharp({ create: { width: size, height: size, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();

  async function sweepCommand(args: Record<string, string>): Promise<string[]> {
    const command = COMMANDS.find((c) => c.name === 'sweep-uploads')!;
    const runner = command.parse({ values: args, positionals: [] });
    if (runner.needs !== 'organization') throw new Error('sweep-uploads runs with the organization');
    const lines: string[] = [];
    await runner.run(ts.server.deps, (line) => lines.push(line));
    return lines;
  }

  test('orphans of every kind go once past the grace period; named, young and foreign files stay', async () => {
    const kept = assertSuccess(await upload(ts, alice, [{ name: 'kept.txt', data: 'still named', type: 'text/plain' }]));
    const keptKey = pathIdOf(kept.url);
    const avatar = assertSuccess(await postFiles(ts, alice, '/users/me/avatar', [{ name: 'me.png', data: await image(120), type: 'image/png' }]));
    const version = Number(new URL(avatar.avatar_url, ts.url).searchParams.get('version'));
    const icon = assertSuccess(await postFiles(ts, ts.owner, '/realm/icon', [{ name: 'icon.png', data: await image(120), type: 'image/png' }]));
    const iconVersion = Number(new URL(icon.icon_url, ts.url).searchParams.get('version'));
    // A row deleted without its file.
    const unnamed = assertSuccess(await upload(ts, alice, [{ name: 'row-gone.txt', data: 'row deleted', type: 'text/plain' }]));
    await ts.server.deps
      .knex('attachments')
      .where({ path_id: pathIdOf(unnamed.url) })
      .delete();
    // Files stored with no row ever written.
    const lost = randomPathId('lost.txt');
    const orphans = [
      lost,
      `thumbnail/${lost}/840x560.webp`,
      `avatars/${alice.id}/${version + 7}.png`,
      `avatars/${alice.id}/${version + 7}-medium.png`,
      `realm/${realmId()}/icon/${iconVersion + 3}.png`,
      pathIdOf(unnamed.url),
    ];
    for (const key of orphans.filter((k) => k !== pathIdOf(unnamed.url))) await storeDirectly(key);
    await storeDirectly('someone-else/notes.txt', 'not ours');
    const named = [keptKey, `avatars/${alice.id}/${version}.png`, `avatars/${alice.id}/${version}-medium.png`, `realm/${realmId()}/icon/${iconVersion}.png`];

    // Everything was written just now: in flight as far as the sweep can tell.
    const early = await sweepOrphanedFiles(ts.server.deps, { graceSeconds: 3600 });
    expect(early.removed).toEqual([]);

    // Two hours on, the orphans are old enough.
    const later = await sweepOrphanedFiles(ts.server.deps, { graceSeconds: 3600, now: new Date(Date.now() + 2 * HOUR) });
    expect(later.removed.sort()).toEqual([...orphans].sort());
    const stored = await backend.storedFiles();
    for (const key of orphans) expect(stored).not.toContain(key);
    for (const key of [...named, 'someone-else/notes.txt']) expect(stored).toContain(key);
    if (backend.name === 'local') expect(fs.existsSync(path.join(backend.dataDir, 'uploads', ...lost.split('/').slice(0, -1)))).toBe(false);

    // What a row names is still served.
    expect((await backend.read(keptKey))?.toString()).toBe('still named');
    expect((await fetch(`${ts.url}${avatar.avatar_url}`)).status).toBe(200);
  });

  test('the operator command sweeps now and prints what it removed', async () => {
    const lost = randomPathId('crash.bin');
    await storeDirectly(lost);
    const output = await sweepCommand({ 'grace-seconds': '0' });
    expect(output).toContain(`removed ${lost}`);
    expect(output[output.length - 1]).toMatch(/^Removed 1 orphaned file\(s\) of \d+ stored more than 0 seconds ago\.$/);
    expect(await backend.storedFiles()).not.toContain(lost);
    expect(await sweepCommand({})).toEqual([expect.stringMatching(/^Removed 0 orphaned file\(s\) of \d+ stored more than 300 seconds ago\.$/)]);
    expect(() => COMMANDS.find((c) => c.name === 'sweep-uploads')!.parse({ values: { 'grace-seconds': 'soon' }, positionals: [] })).toThrow(
      '--grace-seconds must be a whole number of seconds',
    );
  });

  // On disk a file's age can be set; an object's in a bucket cannot.
  if (kind === 'local') {
    test('the periodic sweep removes an orphan once it is older than the grace period', async () => {
      const lost = randomPathId('periodic.txt');
      await storeDirectly(lost);
      const file = path.join(backend.dataDir, 'uploads', ...lost.split('/'));
      const fresh = randomPathId('fresh.txt');
      await storeDirectly(fresh);
      const old = new Date(Date.now() - 2 * HOUR);
      fs.utimesSync(file, old, old);
      await waitUntil(() => !fs.existsSync(file));
      expect(fs.existsSync(path.join(backend.dataDir, 'uploads', ...fresh.split('/')))).toBe(true);
    });
  }
}
