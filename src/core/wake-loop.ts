import { describeFailure } from '../failure-log';
import { log } from '../log';

/**
 * The loop behind the background workers (notifications, thumbnails): one run at a time, woken by
 * bus events and by its own timer.
 * - `wake()` starts a run now, or asks for another right after the run in progress: a wake is
 *   never lost, however close to a run's end it comes.
 * - A run calls `pass` until no wake arrived during the last one, then `idle`, which says how
 *   long to sleep before the next run (null: only when woken).
 * - `stop()` ends the loop and waits for the run in progress.
 */
export interface WakeLoopSteps {
  /** One pass of the worker's work; it handles (logs) its own failures. */
  pass(): Promise<void>;
  /** Milliseconds until the next run when nothing wakes the loop sooner; null to wait for a wake. */
  idle(): Promise<number | null>;
}

export class WakeLoop {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  constructor(private readonly steps: WakeLoopSteps) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** Whether a wake arrived during the current pass (another pass follows it). */
  get wakePending(): boolean {
    return this.again;
  }

  /**
   * Consumes a wake that arrived while `idle` looked ahead (the run is ending and would not see
   * it): the caller then sleeps 0 ms instead.
   */
  takeWake(): boolean {
    const woken = this.again;
    this.again = false;
    return woken;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.run()
      .catch((error: unknown) => log().error(`background loop: ${describeFailure(error)}`))
      .finally(() => {
        this.running = null;
        // Heard after the run's last look (between its end and this callback): run again.
        if (this.again) this.wake();
      });
  }

  /** Runs now (or again right after the run in progress); resolves once no run is left. */
  async runNow(): Promise<void> {
    this.wake();
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private async run(): Promise<void> {
    do {
      this.again = false;
      await this.steps.pass();
    } while (this.again && !this.stopped);
    if (this.stopped) return;
    const wait = await this.steps.idle();
    if (wait === null || this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, wait);
    this.timer.unref();
  }
}
