import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEntryPoint } from '../helpers/entry-point';

/**
 * A graceful restart of the real entry point (SIGTERM, start again on the same data): a client
 * polling its queue from before finds the `restart` event Zulip sends, with the new server's
 * version and generation.
 */
test('a queue registered before SIGTERM gets a restart event after the next start', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-restart-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  try {
    const first = await startEntryPoint(port, { DATA_DIR: dataDir, PARLEY_OWNER_EMAIL: 'boss@example.com' });
    const apiKey = /API key:\s+([A-Za-z0-9]{32})/.exec(first.output())![1];
    const headers = { authorization: `Basic ${Buffer.from(`boss@example.com:${apiKey}`).toString('base64')}` };
    const registered = (await (await fetch(`${base}/register`, { method: 'POST', headers })).json()) as { queue_id: string; last_event_id: number };
    expect(registered.queue_id).toEqual(expect.any(String));
    const before = Math.floor(Date.now() / 1000);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const second = await startEntryPoint(port, { DATA_DIR: dataDir });
    try {
      const query = new URLSearchParams({ queue_id: registered.queue_id, last_event_id: String(registered.last_event_id), dont_block: 'true' });
      const polled = (await (await fetch(`${base}/events?${query}`, { headers })).json()) as { result: string; events: Record<string, unknown>[] };
      expect(polled.result).toBe('success');
      expect(polled.events).toEqual([
        {
          id: registered.last_event_id + 1,
          type: 'restart',
          zulip_version: expect.any(String),
          zulip_merge_base: expect.any(String),
          zulip_feature_level: expect.any(Number),
          server_generation: expect.any(Number),
        },
      ]);
      expect(polled.events[0].server_generation).toBeGreaterThanOrEqual(before);
    } finally {
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 180_000);
