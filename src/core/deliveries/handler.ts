import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { ClaimedDelivery } from './store';

/**
 * What each kind of outbox item does. `send` makes the one call that leaves the server (it is
 * repeated on every attempt, so it carries the item's key for the receiver to spot a repeat); what
 * it answers runs in the transaction that marks the item sent. What `onDead` answers runs in the
 * transaction that gives the item up, to tell whoever waits for it.
 */
export interface DeliveryHandler {
  /** Attempts before the item is dead, unless PARLEY_OUTBOX_MAX_ATTEMPTS says otherwise. */
  maxAttempts: number;
  send(deps: AppDeps, item: ClaimedDelivery): Promise<AfterSent | null>;
  onDead?(deps: AppDeps, item: ClaimedDelivery, failure: DeliveryFailure): Promise<AfterSent | null>;
}

export type AfterSent = (uow: UnitOfWork) => Promise<void>;

/**
 * A failed attempt. `summary` is kept as the item's last_error and shown to operators: it names
 * what failed (a status, an error code), never message content or secrets.
 */
export class DeliveryFailure extends Error {
  constructor(
    readonly summary: string,
    readonly retryable: boolean,
  ) {
    super(summary);
  }
}

/** A failure the handler did not classify (a database error, a bug): worth another attempt. */
export function asFailure(error: unknown): DeliveryFailure {
  if (error instanceof DeliveryFailure) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const name = error instanceof Error ? error.name : 'Error';
  return new DeliveryFailure(typeof code === 'string' ? `${name} ${code}` : name, true);
}
