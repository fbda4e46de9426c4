import { ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';

/**
 * The entry point as `npm start` runs it, in a child process. NODE_ENV=production, as libraries
 * behave differently under test (Apollo installs signal handlers).
 */
const root = path.resolve(__dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export interface EntryPoint {
  child: ChildProcessWithoutNullStreams;
  /** Everything printed so far, stdout and stderr. */
  output(): string;
  exited: Promise<number | null>;
}

/** Starts the server and resolves once it listens on `port`. */
export async function startEntryPoint(port: number, env: Record<string, string>): Promise<EntryPoint> {
  const child = spawn(process.execPath, ['-r', path.join(root, 'test/helpers/ts-require.js'), path.join(root, 'src/main.ts')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', PORT: String(port), ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
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
  return { child, output: () => output, exited };
}
