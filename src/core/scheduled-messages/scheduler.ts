import type { AppDeps } from '../../deps';
import { describeFailure } from '../../failure-log';
import { deliverOneDue } from './delivery';

/**
 * Delivers scheduled messages and reminders when they fall due. The rows are the queue, so every
 * server process runs one of these: each tick asks one indexed question (when is the earliest
 * waiting row due?), delivers what is due, then sleeps until the next row is due or the polling
 * interval ends, whichever comes first (rows scheduled through other processes are found then).
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Stops the timer and waits for a delivery in progress to commit. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.tick().finally(() => (this.running = null));
    }, Math.max(0, delayMs));
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    let next = this.pollMs;
    try {
      let due = await this.nextDueInMs();
      let claimedElsewhere = false;
      while (due !== null && due <= 0 && !this.stopped) {
        // Nothing claimable while a row is due: another process is delivering it.
        if (!(await deliverOneDue(this.deps))) {
          claimedElsewhere = true;
          break;
        }
        due = await this.nextDueInMs();
      }
      if (claimedElsewhere) next = Math.min(this.pollMs, 250);
      else if (due !== null) next = Math.min(this.pollMs, Math.max(due, 0) + 5);
    } catch (error) {
      console.error(`scheduled message delivery: ${describeFailure(error)}`);
    }
    this.schedule(next);
  }

  /** Milliseconds until the earliest waiting row is due (negative when overdue); null if none. */
  private async nextDueInMs(): Promise<number | null> {
    const row = await this.deps
      .knex('scheduled_messages')
      .whereRaw('NOT delivered AND NOT failed')
      .where('realm_id', this.deps.realmId)
      .orderBy([{ column: 'scheduled_timestamp' }, { column: 'id' }])
      .first('scheduled_timestamp');
    return row ? new Date(row.scheduled_timestamp).getTime() - Date.now() : null;
  }
}
