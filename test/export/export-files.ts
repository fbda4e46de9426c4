import fs from 'node:fs';
import path from 'node:path';
import * as tar from 'tar';
import { getEvents } from '../helpers/events';
import type { TestServer, TestUser } from '../helpers/server';

/** Waits on an administrator's queue for a realm_export event where export `id` is no longer pending. */
export async function finishedExport(
  ts: TestServer,
  admin: TestUser,
  queue: { queueId: string; lastEventId: number },
  id: number,
): Promise<Record<string, any>> {
  for (;;) {
    const events = await getEvents(ts, admin, queue.queueId, queue.lastEventId);
    for (const event of events) {
      queue.lastEventId = event.id;
      expect(event.type).toBe('realm_export');
      const done = event.exports.find((e: Record<string, any>) => e.id === id && !e.pending);
      if (done) return done;
    }
  }
}

/** The messages' contents an export file holds, sorted; unpacked under `dataDir`. */
export async function exportedMessages(ts: TestServer, dataDir: string, exportUrl: string): Promise<string[]> {
  const res = await fetch(exportUrl.replace(/^https?:\/\/[^/]+/, ts.url));
  expect(res.status).toBe(200);
  const dir = fs.mkdtempSync(path.join(dataDir, 'unpacked-'));
  const file = path.join(dir, 'export.tar.gz');
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  await tar.x({ file, cwd: dir });
  const [root] = fs.readdirSync(dir).filter((d) => d.startsWith('zulip-export-'));
  const realm = JSON.parse(fs.readFileSync(path.join(dir, root, 'realm.json'), 'utf8'));
  expect(realm.zerver_realm[0].string_id).toBeDefined();
  // No credentials: no password hashes, no API key hashes.
  expect(realm.zerver_userprofile.every((u: { password: unknown }) => u.password === null)).toBe(true);
  expect(fs.existsSync(path.join(dir, root, 'parley.json'))).toBe(false);
  const messages = JSON.parse(fs.readFileSync(path.join(dir, root, 'messages-000001.json'), 'utf8')).zerver_message;
  return messages.map((m: { content: string }) => m.content).sort();
}
