import { Knex } from 'knex';
import type { Delivery, DeliveryOptions, EventBus, ZulipEvent } from '../realtime/bus';
import { assertEventKind } from '../realtime/event-kinds';

/**
 * One transaction (or, see inSingleStatement, one write statement) plus the events it will publish.
 * Events are collected while the work runs and handed to the bus only once it has committed; a
 * rollback drops them.
 */
export class UnitOfWork {
  readonly deliveries: Delivery[] = [];
  private readonly afterCommitHooks: (() => void)[] = [];

  constructor(
    /** Where the work's statements go: its transaction, or the pool (inSingleStatement). */
    readonly trx: Knex,
    readonly realmId: number,
  ) {}

  /** `options` carries per-recipient fields and capability variants (see DeliveryOptions). */
  emit(event: ZulipEvent, userIds: Iterable<number>, options: DeliveryOptions = {}): void {
    assertEventKind(event.type);
    const ids = [...new Set(userIds)];
    if (ids.length > 0 || options.publicChannel) this.deliveries.push({ ...options, realmId: this.realmId, userIds: ids, event });
  }

  afterCommit(hook: () => void): void {
    this.afterCommitHooks.push(hook);
  }

  /** Takes over the events and hooks of work done in a savepoint of this transaction that held. */
  absorb(inner: UnitOfWork): void {
    this.deliveries.push(...inner.deliveries);
    this.afterCommitHooks.push(...inner.afterCommitHooks);
  }

  runAfterCommit(): void {
    for (const hook of this.afterCommitHooks) hook();
  }
}

/**
 * For an action whose only write is one statement, atomic by itself: the work runs on the pool,
 * without the BEGIN and COMMIT round trips, and its events are published once it has returned (its
 * write has committed by then). The work must not write more than once.
 */
export async function inSingleStatement<T>(deps: { knex: Knex; bus: EventBus }, realmId: number, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const uow = new UnitOfWork(deps.knex, realmId);
  const result = await work(uow);
  uow.runAfterCommit();
  await deps.bus.publish(uow.deliveries);
  return result;
}

export async function inTransaction<T>(deps: { knex: Knex; bus: EventBus }, realmId: number, work: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  let uow: UnitOfWork | undefined;
  const result = await deps.knex.transaction(async (trx) => {
    uow = new UnitOfWork(trx, realmId);
    return work(uow);
  });
  uow!.runAfterCommit();
  await deps.bus.publish(uow!.deliveries);
  return result;
}
