import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded database may be opened by one process at a time: PGlite does not guard its files,
 * and two processes writing them (a running server and an operator command) would corrupt them.
 * A lock file next to the directory holds the owner's pid; one left by an exited process is taken over.
 */
export class DatabaseInUseError extends Error {}

// Locks this process holds, so a pid reused after a restart (pid 1 in containers) is not mistaken
// for a live holder.
const held = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock of `dir`, or throws DatabaseInUseError; returns the release function. */
export function lockDatabaseDir(dir: string): () => void {
  const file = `${path.resolve(dir)}.lock`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      held.add(file);
      return () => {
        held.delete(file);
        fs.rmSync(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder = NaN;
    try {
      holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    } catch {
      continue; // released meanwhile
    }
    const live = Number.isInteger(holder) && holder > 0 && (holder === process.pid ? held.has(file) : isRunning(holder));
    if (live) {
      throw new DatabaseInUseError(
        `The embedded database in ${path.resolve(dir)} is in use by process ${holder}. Stop that process first (or use DATABASE_URL).`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new DatabaseInUseError(`Could not lock the embedded database in ${path.resolve(dir)}`);
}
