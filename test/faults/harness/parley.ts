import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EntryPoint, freePort, startEntryPoint } from '../../helpers/entry-point';

/**
 * Parley processes as `npm start` runs them (from source), on the suite's PostgreSQL and Redis.
 * Each has its own DATA_DIR: the operator socket lives there, and nothing else in it is shared
 * state once the database and Redis are external.
 */
export const OWNER_EMAIL = 'owner@faults.example';
export const OWNER_PASSWORD = 'fault-suite-owner-password-1';

export interface ParleyProcess {
  name: string;
  url: string;
  dataDir: string;
  /** The running entry point; null between a stop and the next start. */
  entry: EntryPoint | null;
  start(): Promise<void>;
  /** Sends `signal` and waits for the exit; resolves with the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>;
  output(): string;
}

export async function parleyProcess(name: string, env: Record<string, string>): Promise<ParleyProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `parley-faults-${name}-`));
  let earlier = '';
  const processEnv = {
    DATA_DIR: dataDir,
    PARLEY_OWNER_EMAIL: OWNER_EMAIL,
    PARLEY_OWNER_PASSWORD: OWNER_PASSWORD,
    PARLEY_RATE_LIMITING: 'false',
    PARLEY_HEARTBEAT_SECONDS: '5',
    ...env,
  };
  const self: ParleyProcess = {
    name,
    dataDir,
    url: `http://127.0.0.1:${port}`,
    entry: null,
    async start() {
      self.entry = await startEntryPoint(port, processEnv);
    },
    async stop(signal) {
      const entry = self.entry;
      if (!entry) return null;
      entry.child.kill(signal);
      const code = await entry.exited;
      earlier += entry.output();
      self.entry = null;
      return code;
    },
    output: () => earlier + (self.entry?.output() ?? ''),
  };
  return self;
}

/** Stops the processes and removes their data directories. */
export async function stopAll(processes: ParleyProcess[]): Promise<void> {
  for (const p of processes) {
    await p.stop('SIGTERM').catch(() => undefined);
    fs.rmSync(p.dataDir, { recursive: true, force: true });
  }
}
