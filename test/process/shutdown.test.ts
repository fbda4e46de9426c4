import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startEntryPoint } from '../helpers/entry-point';

/**
 * The entry point as `npm start` runs it: first start on an empty data directory, then SIGTERM.
 */
test('first start prints the owner and writes zuliprc; SIGTERM stops it cleanly', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-start-'));
  const port = await freePort();
  try {
    const server = await startEntryPoint(port, { DATA_DIR: dataDir, PARLEY_OWNER_EMAIL: 'boss@example.com' });
    const output = server.output();
    expect(output).toContain('Created the organization owner:');
    expect(output).toContain('email:    boss@example.com');
    const apiKey = /API key:\s+([A-Za-z0-9]{32})/.exec(output)?.[1];
    expect(apiKey).toBeDefined();
    const zuliprc = fs.readFileSync(path.join(dataDir, 'zuliprc'), 'utf8');
    expect(zuliprc).toBe(`[api]\nemail=boss@example.com\nkey=${apiKey}\nsite=http://127.0.0.1:${port}\n`);
    const me = await fetch(`http://127.0.0.1:${port}/api/v1/users/me`, {
      headers: { authorization: `Basic ${Buffer.from(`boss@example.com:${apiKey}`).toString('base64')}` },
    });
    expect(((await me.json()) as { email: string }).email).toBe('boss@example.com');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('SIGTERM received, shutting down');
    // Lines are written a turn of the event loop at a time; the last ones still come out at exit.
    const lines = server
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.find((line) => line.msg === 'request' && line.route === '/api/v1/users/me')).toMatchObject({ method: 'GET', status: 200 });
    expect(lines[lines.length - 1].msg).toBe('Parley stopped');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
