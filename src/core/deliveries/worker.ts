import type { AppDeps } from '../deps';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import type { Delivery } from '../../realtime/bus';
import { WakeLoop } from '../wake-loop';
import { attemptDelivery } from './attempt';
import { claimDue, nextDueAt, OUTBOX_QUEUED, pruneSent } from './store';

/**
 * Sends the outbox in every server process: claims due items, up to MAX_IN_FLIGHT being sent at
 * once, and sleeps until the next one falls due or a claim runs out. Each attempt runs on its own,
 * and its end wakes the loop to claim more, so one slow receiver (a webhook that times out) holds
 * one slot, not the items queued after it. Woken at once when items are queued or released
 * anywhere (the bus carries the wake-up between processes); the database arbitrates, so any number
 * of processes may run it.
 */
export const IDLE_POLL_MS = 30_000;
const MAX_IN_FLIGHT = 20;
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export class DeliveryWorker {
  private readonly loop = new WakeLoop({ pass: () => this.pass(), idle: () => this.untilNextDue() });
  private unsubscribe: (() => void) | null = null;
  private lastPrune = 0;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly deps: AppDeps) {}

  start(): void {
    this.unsubscribe = this.deps.bus.subscribe((deliveries) => this.onDeliveries(deliveries));
    this.loop.wake();
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    await this.loop.stop();
    await Promise.all(this.inFlight);
  }

  /** Sends what is due now (or again right after the run in progress); resolves when all is sent. */
  async runNow(): Promise<void> {
    await this.loop.runNow();
    while (this.inFlight.size > 0) {
      await Promise.all(this.inFlight);
      await this.loop.runNow();
    }
  }

  private onDeliveries(deliveries: Delivery[]): void {
    if (deliveries.some((d) => d.event.type === OUTBOX_QUEUED && d.realmId === this.deps.realmId)) this.loop.wake();
  }

  private async pass(): Promise<void> {
    const { deps } = this;
    try {
      while (!this.loop.isStopped && this.inFlight.size < MAX_IN_FLIGHT) {
        const items = await claimDue(deps.knex, deps.realmId, new Date(), MAX_IN_FLIGHT - this.inFlight.size, deps.config.outboxLeaseMs);
        if (items.length === 0) break;
        for (const item of items) {
          const attempt: Promise<void> = attemptDelivery(deps, item)
            .catch((error: unknown) => log().error(`delivery worker: ${describeFailure(error)}`))
            .finally(() => {
              this.inFlight.delete(attempt);
              this.loop.wake();
            });
          this.inFlight.add(attempt);
        }
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
