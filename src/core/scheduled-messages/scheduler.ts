import type { AppDeps } from '../deps';
import type { Delivery } from '../../realtime/bus';
import { describeFailure } from '../../failure-log';
import { deliverOneDue } from './delivery';
import { log } from '../../log';
import { markInactiveChannels } from '../channels/activity';

/** The daily jobs (channel activity) run first this long after the process starts, then daily. */
const FIRST_DAILY_RUN_MS = 60 * 60 * 1000;
const DAILY_MS = 24 * 60 * 60 * 1000;

/**
 * Delivers scheduled messages and reminders when they fall due. The rows are the queue, so every
 * server process runs one of these: each tick asks one indexed question (when is the earliest
 * waiting row due?), delivers what is due, then sleeps until the next row is due or the polling
 * interval ends, whichever comes first. Rows added or moved earlier are noticed from their events
 * (those of other processes too, with Redis), so the timer is set to their time at once.
 *
 * Its ticks also run the daily jobs when they are due: marking channels without recent messages
 * inactive (channels/activity.ts). `runNow()` runs them whether due or not.
 */
export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  /** When the pending timer fires (ms since the epoch). */
  private wakeAt = Infinity;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** When the daily jobs next fall due (ms since the epoch). */
  private dailyAt = Date.now() + FIRST_DAILY_RUN_MS;

  constructor(
    private readonly deps: AppDeps,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** Moves the timer earlier for rows the deliveries add or reschedule. */
  notice(deliveries: Delivery[]): void {
    let earliest = Infinity;
    for (const { event } of deliveries) {
      if (event.type !== 'scheduled_messages' && event.type !== 'reminders') continue;
      const rows = (event.scheduled_messages ?? event.reminders ?? (event.scheduled_message ? [event.scheduled_message] : [])) as {
        scheduled_delivery_timestamp: number;
        failed?: boolean;
      }[];
      for (const row of rows) if (!row.failed) earliest = Math.min(earliest, row.scheduled_delivery_timestamp * 1000);
    }
    if (earliest < this.wakeAt && this.timer && !this.stopped) {
      clearTimeout(this.timer);
      this.schedule(earliest - Date.now() + 5);
    }
  }

  /** Runs a tick now, daily jobs included, after the one in progress (if any); resolves once it is done. */
  async runNow(): Promise<void> {
    while (this.running) await this.running;
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.dailyAt = Date.now();
    await this.startTick();
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
    this.wakeAt = Date.now() + Math.max(0, delayMs);
    this.timer = setTimeout(() => void this.startTick(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private startTick(): Promise<void> {
    this.timer = null;
    this.wakeAt = Infinity;
    this.running = this.tick().finally(() => (this.running = null));
    return this.running;
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
      log().error(`scheduled message delivery: ${describeFailure(error)}`);
    }
    if (Date.now() >= this.dailyAt && !this.stopped) {
      this.dailyAt = Date.now() + DAILY_MS;
      try {
        await markInactiveChannels(this.deps);
      } catch (error) {
        log().error(`channel activity update: ${describeFailure(error)}`);
      }
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
