import type { AppDeps } from '../deps';
import { describeFailure } from '../../failure-log';
import type { Delivery } from '../../realtime/bus';
import { PUSH_JOBS_QUEUED } from '../push/forget';
import { forwardDueRegistrations, nextRegistrationDueAt } from '../push/forward';
import { REALM_UPLOAD_INTERVAL_MS, takeRealmUploadRequest, uploadRealms } from '../push/realm-upload';
import { decidePending, SETTLE_MS } from './decide';
import { sendDigests } from './digest';
import { deliverDueEmails } from './email';
import { deliverDuePushes } from './push';
import { nextDueAt, queueRemovals } from './queue';
import { WakeLoop } from '../wake-loop';

/**
 * Runs the notification steps in every server process: deciding (decide.ts), queuing the removal
 * of mobile notifications whose messages were read, telling the push service of the organization
 * (at start, hourly, and when it asks), handing new E2EE push registrations to the push service,
 * then turning due mobile notifications and emails into outbox items (sent at once; the delivery
 * worker retries them), then the hourly digest check. It wakes
 * shortly after a message is published (the bus tells every process) and on a timer; the database arbitrates between
 * processes, so any number may run. Nothing here runs on the request that sent the message.
 */
/** The longest sleep: picks up work left by a process that died holding it, and the digest check. */
export const IDLE_POLL_MS = 30_000;
const DIGEST_CHECK_MS = 60 * 60 * 1000;
export const MIN_PASS_INTERVAL_MS = 1000;

export class NotificationWorker {
  private soon: NodeJS.Timeout | null = null;
  private readonly loop = new WakeLoop({ pass: () => this.pass(), idle: () => this.untilNextDue() });
  private lastDigestCheck = 0;
  /** When this process last told the push service of the organization (0: at start). */
  private lastRealmUpload = 0;
  /** When this process last heard of a new message: until it has settled, the worker comes back for it. */
  private lastMessageAt = 0;
  private lastRunAt = 0;
  /**
   * Whether messages may have been read with a mobile notification showing. Set at start (what a
   * stopped process left) and by every read this process hears of; the scan also runs every
   * IDLE_POLL_MS, for reads whose event no process heard (the reading process died first).
   */
  private removalsDue = true;
  private lastRemovalScan = 0;
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly deps: AppDeps) {}

  start(): void {
    this.unsubscribe = this.deps.bus.subscribe((deliveries) => this.onDeliveries(deliveries));
    this.loop.wake();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    if (this.soon) clearTimeout(this.soon);
    await this.loop.stop();
  }

  /** When the last pass began (ms since the epoch; 0 before the first). */
  get lastPassAt(): number {
    return this.lastRunAt;
  }

  /** Runs the steps now (or again right after the run in progress); resolves when done. */
  runNow(): Promise<void> {
    return this.loop.runNow();
  }

  private onDeliveries(deliveries: Delivery[]): void {
    for (const delivery of deliveries) {
      const event = delivery.event;
      if (event.type === 'message') {
        this.lastMessageAt = Date.now();
        this.wakeSoon();
      } else if ((event.type === 'device' && typeof event.pending_push_token_id === 'string') || event.type === PUSH_JOBS_QUEUED) {
        this.loop.wake();
      } else if (event.type === 'update_message_flags' && event.op === 'add' && event.flag === 'read' && this.deps.config.pushService) {
        this.removalsDue = true;
        this.loop.wake();
      } else if ((event.type === 'delete_message' || event.type === 'update_message') && this.deps.config.pushService) {
        // Deletions, and edits that drop a mention, queue removals in their transaction.
        this.loop.wake();
      }
    }
  }

  /**
   * After the settle time, so that the new message is old enough to be decided, and no sooner than
   * MIN_PASS_INTERVAL_MS after the last run: under a stream of sends, one pass decides many.
   */
  private wakeSoon(): void {
    if (this.soon || this.loop.isStopped) return;
    const delay = Math.max(SETTLE_MS + 20, this.lastRunAt + MIN_PASS_INTERVAL_MS - Date.now());
    this.soon = setTimeout(() => {
      this.soon = null;
      this.loop.wake();
    }, delay);
    this.soon.unref();
  }

  private async pass(): Promise<void> {
    this.lastRunAt = Date.now();
    try {
      await this.step();
    } catch (error) {
      console.error(`notification worker: ${describeFailure(error)}`);
    }
    // Woken during this pass: the next one follows, but no sooner than MIN_PASS_INTERVAL_MS after this one began.
    if (this.loop.wakePending && !this.loop.isStopped) {
      const rest = this.lastRunAt + MIN_PASS_INTERVAL_MS - Date.now();
      if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
    }
  }

  /** Until the next job falls due (or a claim runs out), at most IDLE_POLL_MS. */
  private async untilNextDue(): Promise<number> {
    let wait = IDLE_POLL_MS;
    // The newest message heard of is decided by a pass that began once it had settled; the last pass
    // may have begun before (woken by an earlier message), so it is not enough that it has settled now.
    const settlesAt = this.lastMessageAt + SETTLE_MS + 20;
    if (this.lastRunAt < settlesAt) wait = Math.max(0, settlesAt - Date.now());
    try {
      const next = await this.nextDue();
      if (next !== null) wait = Math.min(wait, Math.max(20, next - Date.now() + 10));
    } catch (error) {
      console.error(`notification worker: ${describeFailure(error)}`);
    }
    // A wake heard while this looked ahead found the run finishing: the timer takes it over.
    if (this.loop.takeWake()) wait = 0;
    // Never sooner than MIN_PASS_INTERVAL_MS after the last run began: under a stream of sends a
    // new message is always about to settle, and each settle period would bring a run of its own.
    return Math.max(wait, this.lastRunAt + MIN_PASS_INTERVAL_MS - Date.now());
  }

  /** When the next job falls due (or a claim on it runs out), in ms; null when none waits. */
  private async nextDue(): Promise<number | null> {
    const jobs = await nextDueAt(this.deps.knex, this.deps.realmId);
    const registrations = this.deps.config.pushService ? await nextRegistrationDueAt(this.deps) : null;
    if (jobs === null || registrations === null) return jobs ?? registrations;
    return Math.min(jobs, registrations);
  }

  private cursorReady = false;

  private async step(): Promise<void> {
    const { deps } = this;
    if (!this.cursorReady) {
      await deps.knex.raw('INSERT INTO notification_cursors (realm_id, last_message_id) VALUES (?, 0) ON CONFLICT (realm_id) DO NOTHING', [deps.realmId]);
      this.cursorReady = true;
    }
    // Further passes only after a full one: a short one has read everything settled.
    for (let i = 0; i < 20 && !this.loop.isStopped; i++) {
      if (!(await decidePending(deps.knex, deps.realmId, deps.config.pushService !== null))) break;
    }
    if (this.loop.isStopped) return;
    if (deps.config.pushService && (this.removalsDue || Date.now() - this.lastRemovalScan >= IDLE_POLL_MS)) {
      // Cleared first: a read heard while the scan runs brings another scan.
      this.removalsDue = false;
      this.lastRemovalScan = Date.now();
      try {
        await queueRemovals(deps.knex, deps.realmId, new Date());
      } catch (error) {
        this.removalsDue = true;
        throw error;
      }
    }
    // Before registrations: the service refuses them for an organization it has not been told of.
    if (deps.config.pushService && (takeRealmUploadRequest(deps) || Date.now() - this.lastRealmUpload >= REALM_UPLOAD_INTERVAL_MS)) {
      this.lastRealmUpload = Date.now();
      await uploadRealms(deps);
      if (this.loop.isStopped) return;
    }
    // Claiming takes a transaction each: only when something is due.
    const next = await this.nextDue();
    if (next !== null && next <= Date.now()) {
      // Registrations first: a device the service has just named gets the notifications due now.
      await forwardDueRegistrations(deps);
      if (this.loop.isStopped) return;
      await deliverDuePushes(deps);
      if (this.loop.isStopped) return;
      await deliverDueEmails(deps);
    }
    if (Date.now() - this.lastDigestCheck >= DIGEST_CHECK_MS && !this.loop.isStopped) {
      this.lastDigestCheck = Date.now();
      await sendDigests(deps);
    }
  }
}
