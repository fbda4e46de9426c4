import { Knex } from 'knex';
import type { Delivery, DeliveryOptions, EventBus, ZulipEvent } from '../realtime/bus';

/**
 * One transaction plus the events it will publish. Events are collected while the transaction runs
 * and handed to the bus only once it has committed; a rollback drops them.
 */
export class UnitOfWork {
  readonly deliveries: Delivery[] = [];
  private readonly afterCommitHooks: (() => void)[] = [];

  constructor(
    readonly trx: Knex.Transaction,
    readonly realmId: number,
  ) {}

  /** `options` carries per-recipient fields and capability variants (see DeliveryOptions). */
  emit(event: ZulipEvent, userIds: Iterable<number>, options: DeliveryOptions = {}): void {
    const ids = [...new Set(userIds)];
    if (ids.length > 0 || options.publicChannel) this.deliveries.push({ ...options, realmId: this.realmId, userIds: ids, event });
  }

  afterCommit(hook: () => void): void {
    this.afterCommitHooks.push(hook);
  }

  runAfterCommit(): void {
    for (const hook of this.afterCommitHooks) hook();
  }
}

export async function inTransaction<T>(
  deps: { knex: Knex; bus: EventBus },
  realmId: number,
  work: (uow: UnitOfWork) => Promise<T>,
): Promise<T> {
  let uow: UnitOfWork | undefined;
  const result = await deps.knex.transaction(async (trx) => {
    uow = new UnitOfWork(trx, realmId);
    return work(uow);
  });
  uow!.runAfterCommit();
  await deps.bus.publish(uow!.deliveries);
  return result;
}
