import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * The entry point as `npm start` runs it: first start on an empty data directory, then SIGTERM.
 * NODE_ENV=production, as libraries behave differently under test (Apollo installs signal handlers).
 */
const root = path.resolve(__dirname, '../..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

test('first start prints the owner and writes zuliprc; SIGTERM stops it cleanly', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-start-'));
  const port = await freePort();
  try {
    const child = spawn(process.execPath, ['-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, 'src/main.ts')], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', PORT: String(port), DATA_DIR: dataDir, PARLEY_OWNER_EMAIL: 'boss@example.com' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const check = () => output.includes(`Parley listening on http://127.0.0.1:${port}`) && resolve();
      child.stdout.on('data', check);
      exited.then((code) => reject(new Error(`exited with ${code} before listening:\n${output}`)));
    });
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

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM received, shutting down');
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}, 120_000);
