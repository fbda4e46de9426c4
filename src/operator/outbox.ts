import type { AppDeps } from '../core/deps';
import { countDeliveries, listDead, reviveDead, wakeDelivery } from '../core/deliveries/store';
import { CommandError, Out, UsageError } from './types';

/**
 * `outbox`: the outbox's items by kind and state, then the dead ones (given up after their last
 * attempt) with the error that ended them. `--retry ID` or `--retry-all-dead` sends dead items
 * again, their attempts counted afresh.
 */
export type OutboxAction = { retry: null } | { retry: number | 'all' };

export function parseOutboxArgs(values: Record<string, string | boolean | undefined>): OutboxAction {
  const one = values.retry;
  const all = values['retry-all-dead'] === true;
  if (one !== undefined && all) throw new UsageError('give either --retry ID or --retry-all-dead');
  if (all) return { retry: 'all' };
  if (one === undefined) return { retry: null };
  if (typeof one !== 'string' || !/^\d{1,15}$/.test(one.trim())) throw new UsageError(`--retry takes an item id, got "${String(one)}"`);
  return { retry: Number(one.trim()) };
}

export async function runOutbox(deps: AppDeps, action: OutboxAction, out: Out): Promise<void> {
  if (action.retry !== null) {
    const revived = await reviveDead(deps.knex, deps.realmId, action.retry);
    if (revived === 0 && action.retry !== 'all') throw new CommandError(`No dead outbox item with id ${action.retry}`);
    // The delivery workers of the running server hear of it (through this command's server, when one runs).
    await deps.bus.publish([wakeDelivery(deps.realmId)]);
    out(`${revived} dead item${revived === 1 ? '' : 's'} queued again.`);
    return;
  }
  out(['kind', 'state', 'items'].join('\t'));
  for (const row of await countDeliveries(deps.knex, deps.realmId)) out([row.kind, row.state, row.count].join('\t'));
  const dead = await listDead(deps.knex, deps.realmId);
  if (dead.length === 0) return;
  out('');
  out(['id', 'kind', 'attempts', 'created', 'key', 'last error'].join('\t'));
  for (const item of dead) out([item.id, item.kind, item.attempts, item.createdAt, item.key, item.lastError ?? ''].join('\t'));
}
