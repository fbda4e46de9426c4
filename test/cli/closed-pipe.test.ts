import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from '../../src/operator/run';
import { freshPostgresDatabase } from '../helpers/postgres';

// Each command opens the database itself; on PGlite that means files in DATA_DIR, which is slow.
jest.setTimeout(240_000);

const root = path.resolve(__dirname, '../..');

test('a reader that closes the pipe at once (`| head -1`): the command still finishes, exit 0, no crash', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-cli-pipe-'));
  const pg = process.env.TEST_DATABASE_URL ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL) : null;
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(pg ? { DATABASE_URL: pg.url } : {}) };
  try {
    const args = ['create-user', '--email', 'piped@example.com', '--name', 'Piped Person', '--password', 'correct horse battery staple'];
    const child = spawn(process.execPath, ['-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, 'src/cli.ts'), ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'production', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed in the same turn as the spawn, long before the command has anything to print.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toMatch(/EPIPE|^\s+at /m);
    expect(code).toBe(0);

    // The account was made all the same.
    let listed = '';
    const listCode = await runCli(['list-users'], { stdout: { write: (text: string) => (listed += text) }, stderr: { write: () => undefined }, env });
    expect(listCode).toBe(0);
    expect(listed).toContain('piped@example.com');
  } finally {
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
