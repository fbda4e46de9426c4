import type { AppDeps } from '../deps';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import type { Delivery } from '../../realtime/bus';
import { ensureThumbnails } from './thumbnails';
import { WakeLoop } from '../wake-loop';

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
  private started = false;
  private unsubscribe: (() => void) | null = null;
  private readonly loop = new WakeLoop({
    pass: () => this.pass(),
    // Only a started worker polls: runNow alone (tests, the CLI) works through what is pending.
    idle: async () => (this.started ? IDLE_POLL_MS : null),
  });

  constructor(private readonly deps: AppDeps) {}

  start(): void {
    this.started = true;
    this.unsubscribe = this.deps.bus.subscribe((deliveries) => this.onDeliveries(deliveries));
    this.loop.wake();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.loop.stop();
  }

  /** Works through every pending image now (started or not); resolves once none is left to claim. */
  runNow(): Promise<void> {
    return this.loop.runNow();
  }

  private onDeliveries(deliveries: Delivery[]): void {
    if (deliveries.some((d) => d.event.type === 'attachment' && d.event.op === 'add')) this.loop.wake();
  }

  private async pass(): Promise<void> {
    try {
      for (let id = await this.claim(); id !== null && !this.loop.isStopped; id = await this.claim()) {
        await ensureThumbnails(this.deps, id).catch((error: unknown) => log().error(`thumbnail worker: ${describeFailure(error)}`));
      }
    } catch (error) {
      log().error(`thumbnail worker: ${describeFailure(error)}`);
    }
  }

  /** Takes the oldest unclaimed pending image (a claim run out counts as none); null when none. */
  private async claim(): Promise<number | null> {
    if (this.loop.isStopped) return null;
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
