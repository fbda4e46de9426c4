import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import type { User } from '../users/model';
import { subscribe, SubscribeRequest, SubscribeResult, unsubscribe } from './subscription-actions';
import { findChannelByName } from './access';
import { checkChannelName } from './validation';

/**
 * PATCH /users/me/subscriptions: subscribe the caller to `add` and unsubscribe them from `remove`
 * in one request, answering both results merged, as Zulip's update_subscriptions does. Zulip runs
 * both in one transaction; here the removal is checked first (names valid and existing), so a
 * request that would fail changes nothing, and then the two run in order.
 */
export async function updateOwnSubscriptions(
  deps: AppDeps,
  user: User,
  add: SubscribeRequest['subscriptions'],
  remove: string[],
): Promise<SubscribeResult & { removed: string[]; not_removed: string[] }> {
  if (add.length === 0 && remove.length === 0) throw errors.badRequest('Nothing to do. Specify at least one of "add" or "delete".');
  const names = remove.map((n) => n.trim());
  for (const name of names) checkChannelName(name);
  const missing: string[] = [];
  for (const name of names) if (!(await findChannelByName(deps.knex, deps.realmId, name)) && !missing.includes(name)) missing.push(name);
  if (missing.length > 0) throw errors.badRequest(`Channel(s) (${missing.join(', ')}) do not exist`);
  const added: SubscribeResult =
    add.length === 0
      ? { subscribed: {}, already_subscribed: {} }
      : await subscribe(deps, user, {
          subscriptions: add,
          authorizationErrorsFatal: true,
          announce: false,
          inviteOnly: false,
          isWebPublic: false,
          historyPublicToSubscribers: null,
          messageRetentionDays: 'realm_default',
          groupSettings: {},
        });
  const removed = names.length === 0 ? { removed: [], not_removed: [] } : await unsubscribe(deps, user, names, undefined);
  return { ...added, ...removed };
}
