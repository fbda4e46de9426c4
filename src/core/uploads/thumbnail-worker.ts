import type { AppDeps } from '../../deps';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import type { Delivery } from '../../realtime/bus';
import { ensureThumbnails } from './thumbnails';

/**
 * Makes thumbnails in the background, in every server process. The durable queue is the table
 * itself: an image_attachments row without thumbnails is pending work, so a restart (or another
 * process) finds whatever was left. A process claims one row at a time for CLAIM_SECONDS, so two
 * do not resize the same image at once, and a process that dies holding a claim only delays the
 * image until the claim runs out. It wakes when an upload is announced (the bus tells every
 * process), at start-up, and every IDLE_POLL_MS.
 */
export const IDLE_POLL_MS = 30_000;
const CLAIM_SECONDS = 120;

export class ThumbnailWorker {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private started = false;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: AppDeps) {}

  start(): void {
    this.started = true;
    this.unsubscribe = this.deps.bus.subscribe((deliveries) => this.onDeliveries(deliveries));
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Works through every pending image now (started or not); resolves once none is left to claim. */
  async runNow(): Promise<void> {
    this.wake();
    while (this.running) await this.running;
  }

  private onDeliveries(deliveries: Delivery[]): void {
    if (deliveries.some((d) => d.event.type === 'attachment' && d.event.op === 'add')) this.wake();
  }

  private wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => {
      this.running = null;
      // Heard after the loop's last look (between its end and this callback): run again.
      if (this.again && !this.stopped) this.wake();
    });
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        for (let id = await this.claim(); id !== null && !this.stopped; id = await this.claim()) {
          await ensureThumbnails(this.deps, id).catch((error: unknown) => log().error(`thumbnail worker: ${describeFailure(error)}`));
        }
      } catch (error) {
        log().error(`thumbnail worker: ${describeFailure(error)}`);
      }
    } while (this.again && !this.stopped);
    if (this.stopped || !this.started) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, IDLE_POLL_MS);
    this.timer.unref();
  }

  /** Takes the oldest unclaimed pending image (a claim run out counts as none); null when none. */
  private async claim(): Promise<number | null> {
    if (this.stopped) return null;
    const result = await this.deps.knex.raw(
      `UPDATE image_attachments SET claimed_until = now() + interval '${CLAIM_SECONDS} seconds'
       WHERE attachment_id = (
         SELECT attachment_id FROM image_attachments
         WHERE realm_id = ? AND thumbnail_metadata = '[]'::jsonb AND (claimed_until IS NULL OR claimed_until < now())
         ORDER BY attachment_id LIMIT 1 FOR UPDATE SKIP LOCKED
       )
       RETURNING attachment_id`,
      [this.deps.realmId],
    );
    const row = (result.rows as { attachment_id: number }[])[0];
    return row ? Number(row.attachment_id) : null;
  }
}
