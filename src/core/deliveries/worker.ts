import type { AppDeps } from '../deps';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import type { Delivery } from '../../realtime/bus';
import { WakeLoop } from '../wake-loop';
import { attemptDelivery } from './attempt';
import { claimDue, nextDueAt, OUTBOX_QUEUED, pruneSent } from './store';

/**
 * Sends the outbox in every server process: claims due items (a batch at a time, sent side by
 * side), attempts each, and sleeps until the next one falls due or a claim runs out. Woken at once
 * when items are queued or released anywhere (the bus carries the wake-up between processes); the
 * database arbitrates, so any number of processes may run it.
 */
export const IDLE_POLL_MS = 30_000;
const BATCH = 20;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export class DeliveryWorker {
  private readonly loop = new WakeLoop({ pass: () => this.pass(), idle: () => this.untilNextDue() });
  private unsubscribe: (() => void) | null = null;
  private lastPrune = 0;

  constructor(private readonly deps: AppDeps) {}

  start(): void {
    this.unsubscribe = this.deps.bus.subscribe((deliveries) => this.onDeliveries(deliveries));
    this.loop.wake();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.loop.stop();
  }

  /** Sends what is due now (or again right after the run in progress); resolves when done. */
  runNow(): Promise<void> {
    return this.loop.runNow();
  }

  private onDeliveries(deliveries: Delivery[]): void {
    if (deliveries.some((d) => d.event.type === OUTBOX_QUEUED && d.realmId === this.deps.realmId)) this.loop.wake();
  }

  private async pass(): Promise<void> {
    const { deps } = this;
    try {
      while (!this.loop.isStopped) {
        const items = await claimDue(deps.knex, deps.realmId, new Date(), BATCH);
        if (items.length === 0) break;
        await Promise.all(items.map((item) => attemptDelivery(deps, item)));
      }
      if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS && !this.loop.isStopped) {
        this.lastPrune = Date.now();
        await pruneSent(deps.knex, deps.realmId, new Date());
      }
    } catch (error) {
      log().error(`delivery worker: ${describeFailure(error)}`);
    }
  }

  private async untilNextDue(): Promise<number> {
    let wait = IDLE_POLL_MS;
    try {
      const next = await nextDueAt(this.deps.knex, this.deps.realmId);
      if (next !== null) wait = Math.min(wait, Math.max(5, next - Date.now() + 5));
    } catch (error) {
      log().error(`delivery worker: ${describeFailure(error)}`);
    }
    // A wake heard while this looked ahead is left pending: the loop runs again as this run ends
    // (so runNow's caller waits for that run too).
    return wait;
  }
}
