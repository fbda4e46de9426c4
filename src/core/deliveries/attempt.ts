import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import type { Config } from '../../config';
import { inTransaction } from '../../db/unit-of-work';
import { describeFailure } from '../../failure-log';
import { log } from '../../log';
import { asFailure, DeliveryFailure, DeliveryHandler } from './handler';
import { HANDLERS } from './handlers';
import { ClaimedDelivery, claimIds, DeliveryKind, markDead, markRetry, markSent, wakeDelivery } from './store';

/**
 * One attempt at a claimed outbox item: send, then settle it. Sent: marked sent (with what the
 * send answered, e.g. a bot's reply, in the same transaction). Failed: tried again after a backoff
 * that doubles each time, or, once its attempts are spent or the failure is final, marked dead
 * (with the handler's notice, e.g. the bot's "Failure!" reply, in the same transaction). A claim
 * lost meanwhile (it ran out and another process took the item) settles nothing.
 */

/** What a process counts of its own attempts (the /metrics counters). */
export interface DeliveryObserver {
  /** `windowMs`: from the receiver's answer to the commit marking the item sent (a crash there sends it twice). */
  sent(kind: DeliveryKind, windowMs: number): void;
  retried(kind: DeliveryKind): void;
  dead(kind: DeliveryKind): void;
}

const observers = new WeakMap<Knex, DeliveryObserver>();

/** Counts this server's attempts (one per server: servers in one process keep apart). */
export function observeDeliveries(deps: Pick<AppDeps, 'knex'>, observer: DeliveryObserver): void {
  observers.set(deps.knex, observer);
}

const MAX_BACKOFF_MS = 60 * 60 * 1000;

/** The wait before the attempt after `attempts` failed ones: base, 2 × base, 4 × base... at most an hour. */
export function backoffMs(config: Pick<Config, 'outboxRetryBaseMs'>, attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, config.outboxRetryBaseMs * 2 ** Math.max(0, attempts - 1));
}

export function maxAttempts(config: Pick<Config, 'outboxMaxAttempts'>, handler: DeliveryHandler): number {
  return config.outboxMaxAttempts ?? handler.maxAttempts;
}

class ClaimLost extends Error {}

export async function attemptDelivery(deps: AppDeps, item: ClaimedDelivery): Promise<void> {
  const handler = HANDLERS[item.kind];
  const observer = observers.get(deps.knex);
  let after: Awaited<ReturnType<DeliveryHandler['send']>>;
  try {
    after = await handler.send(deps, item);
  } catch (error) {
    await fail(deps, handler, item, asFailure(error));
    return;
  }
  const answeredAt = performance.now();
  try {
    await inTransaction(deps, deps.realmId, async (uow) => {
      if (!(await markSent(uow.trx, item))) throw new ClaimLost();
      if (after) await after(uow);
    });
  } catch (error) {
    if (error instanceof ClaimLost) return lost(item);
    // The receiver has it; only what follows (a bot's reply) failed: the item is sent all the same.
    log().error(`outbox ${item.kind} ${item.id}: after sending: ${describeFailure(error)}`);
    if (!(await markSent(deps.knex, item))) return lost(item);
  }
  observer?.sent(item.kind, performance.now() - answeredAt);
}

async function fail(deps: AppDeps, handler: DeliveryHandler, item: ClaimedDelivery, failure: DeliveryFailure): Promise<void> {
  const observer = observers.get(deps.knex);
  const attempts = item.attempts + 1;
  if (failure.retryable && attempts < maxAttempts(deps.config, handler)) {
    if (!(await markRetry(deps.knex, item, failure.summary, new Date(Date.now() + backoffMs(deps.config, attempts))))) return lost(item);
    observer?.retried(item.kind);
    // Every worker looks again at when the next item falls due.
    await deps.bus.publish([wakeDelivery(deps.realmId)]);
    return;
  }
  log().warn(`outbox ${item.kind} ${item.id} given up after ${attempts} attempts: ${failure.summary}`);
  try {
    const notice = handler.onDead ? await handler.onDead(deps, item, failure) : null;
    await inTransaction(deps, deps.realmId, async (uow) => {
      if (!(await markDead(uow.trx, item, failure.summary))) throw new ClaimLost();
      if (notice) await notice(uow);
    });
  } catch (error) {
    if (error instanceof ClaimLost) return lost(item);
    log().error(`outbox ${item.kind} ${item.id}: notice of failure: ${describeFailure(error)}`);
    if (!(await markDead(deps.knex, item, failure.summary))) return lost(item);
  }
  observer?.dead(item.kind);
}

function lost(item: ClaimedDelivery): void {
  log().warn(`outbox ${item.kind} ${item.id}: the claim ran out before the attempt ended`);
}

const NOW_BATCH = 20;

/**
 * Sends the named items now, right after the commit that wrote them (a request that wants its
 * email out before it answers, a worker that just queued its notifications). Whatever fails is the
 * delivery worker's to retry; this never throws.
 */
export async function deliverNow(deps: AppDeps, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  try {
    // A batch at a time, each claimed just before it is sent: a long list (a day's digests) never
    // holds claims that could run out before their turn.
    for (let i = 0; i < ids.length; i += NOW_BATCH) {
      const items = await claimIds(deps.knex, ids.slice(i, i + NOW_BATCH), new Date(), deps.config.outboxLeaseMs);
      await Promise.all(items.map((item) => attemptDelivery(deps, item)));
    }
  } catch (error) {
    log().error(`outbox: sending at once failed: ${describeFailure(error)}`);
  }
}
