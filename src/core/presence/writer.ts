import type { Knex } from 'knex';
import { PresenceWrite, writePresences } from './store';

/**
 * Presence reports' writes, grouped: a write starts once the requests already received have had
 * their turn (setImmediate), and reports that arrive while one runs wait for it and then go
 * together, in one statement. An idle server adds no noticeable delay; a busy one (every client of
 * a large organization pinging each minute) writes many users per statement, which matters most
 * on the embedded database, where each statement runs synchronously in the server's own thread.
 * Each caller still resolves only once its own row has been stored.
 */
const MAX_BATCH = 500;

interface Pending extends PresenceWrite {
  waiters: { resolve(id: number): void; reject(error: unknown): void }[];
}

class PresenceWriter {
  private queue = new Map<number, Pending>();
  private running = false;
  private scheduled = false;

  constructor(
    private readonly db: Knex,
    private readonly realmId: number,
  ) {}

  /** Resolves with the update id the row was stored under. */
  write(userId: number, lastActive: Date | null, lastConnected: Date): Promise<number> {
    return new Promise((resolve, reject) => {
      const queued = this.queue.get(userId);
      if (queued) {
        // The same user twice before the write: the later report wins, both learn its id.
        queued.lastActive = lastActive;
        queued.lastConnected = lastConnected;
        queued.waiters.push({ resolve, reject });
      } else {
        this.queue.set(userId, { userId, lastActive, lastConnected, waiters: [{ resolve, reject }] });
      }
      if (!this.running && !this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          void this.drain();
        });
      }
    });
  }

  private async drain(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.queue.size > 0) {
        const batch: Pending[] = [];
        for (const [userId, pending] of this.queue) {
          batch.push(pending);
          this.queue.delete(userId);
          if (batch.length === MAX_BATCH) break;
        }
        try {
          const ids = await writePresences(this.db, this.realmId, batch);
          batch.forEach((pending, i) => pending.waiters.forEach((w) => w.resolve(ids[i])));
        } catch (error) {
          for (const pending of batch) pending.waiters.forEach((w) => w.reject(error));
        }
      }
    } finally {
      this.running = false;
    }
  }
}

const writers = new WeakMap<Knex, PresenceWriter>();

/** Stores one user's presence through the database's writer (see PresenceWriter). */
export function queuePresenceWrite(db: Knex, realmId: number, userId: number, lastActive: Date | null, lastConnected: Date): Promise<number> {
  let writer = writers.get(db);
  if (!writer) {
    writer = new PresenceWriter(db, realmId);
    writers.set(db, writer);
  }
  return writer.write(userId, lastActive, lastConnected);
}
