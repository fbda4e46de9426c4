import type { Knex } from 'knex';
import { UnitOfWork } from '../../db/unit-of-work';
import { User } from '../users/model';
import { isAdminRole, isGuestRole } from '../users/roles';
import { hasMetadataAccess, loadViewer } from './access';
import { activeSubscriberIds, channelAudience, metadataGroupUserIds, RealmUsers, without } from './audience';
import * as ev from './events';
import { Stream, Subscription } from './model';
import { userChannelNotificationDefaults } from './realm-policy';
import { SUBSCRIPTION_NOTIFICATION_SETTINGS } from './constants';
import { channelDict, loadChannelViewContext, subscriptionDict } from './view';
import { anyOf } from '../../db/lists';

/** The events of subscriptions being added or removed, for the subscribing and administration actions. */

export interface AddedSubscription {
  user: User;
  stream: Stream;
}

/** The subscriptions with null notification settings replaced by the user's defaults; null if none is null. */
async function withNotificationDefaults<T extends Record<string, unknown>>(db: Knex, user: { id: number; realm_id: number }, dicts: T[]): Promise<T[] | null> {
  const settings = Object.entries(SUBSCRIPTION_NOTIFICATION_SETTINGS);
  if (!dicts.some((d) => settings.some(([name]) => d[name] === null))) return null;
  const defaults = await userChannelNotificationDefaults(db, user);
  return dicts.map((d) => {
    const copy: Record<string, unknown> = { ...d };
    for (const [name, fallback] of settings) if (copy[name] === null) copy[name] = defaults[fallback];
    return copy as T;
  });
}

export async function emitSubscriptionsAdded(uow: UnitOfWork, added: AddedSubscription[], forUnarchiving = false): Promise<void> {
  const db = uow.trx;
  const realmId = added[0].stream.realm_id;
  const users = await RealmUsers.load(db, realmId);
  const streams = [...new Map(added.map((a) => [a.stream.id, a.stream])).values()];
  const ctx = await loadChannelViewContext(db, realmId, streams);
  const alteredByStream = new Map<number, Set<number>>();
  for (const { user, stream } of added) {
    if (!alteredByStream.has(stream.id)) alteredByStream.set(stream.id, new Set());
    alteredByStream.get(stream.id)!.add(user.id);
  }

  // Those who could not see a channel before learn of it first.
  for (const stream of streams) {
    if (forUnarchiving) break;
    const altered = alteredByStream.get(stream.id)!;
    let newcomers: number[] = [];
    if (!stream.isPublic()) {
      newcomers = without(altered, [...users.admins(), ...(await metadataGroupUserIds(db, stream))]);
    } else if (!stream.is_web_public) {
      newcomers = [...altered].filter((id) => isGuestRole(users.roles.get(id) ?? 0));
    }
    if (newcomers.length > 0) uow.emit(ev.streamCreate([channelDict(stream, ctx)]), newcomers);
  }

  const subscriberLists = new Map<number, number[]>();
  for (const stream of streams)
    subscriberLists.set(
      stream.id,
      [...(await activeSubscriberIds(db, stream.id))].sort((a, b) => a - b),
    );
  const subRows = await Subscription.query(db)
    .whereRaw(...anyOf('user_id', [...new Set(added.map((a) => a.user.id))]))
    .whereRaw(
      ...anyOf(
        'stream_id',
        streams.map((s) => s.id),
      ),
    );
  const byUser = new Map<number, AddedSubscription[]>();
  for (const item of added) {
    if (!byUser.has(item.user.id)) byUser.set(item.user.id, []);
    byUser.get(item.user.id)!.push(item);
  }
  for (const [userId, items] of byUser) {
    const dicts = items.map(({ stream }) => {
      const sub = subRows.find((r) => r.user_id === userId && r.stream_id === stream.id)!;
      return { ...subscriptionDict(stream, sub, ctx), subscribers: subscriberLists.get(stream.id)! };
    });
    const event = ev.subscriptionAdd(dicts, forUnarchiving);
    // Clients that cannot take null notification settings get the user's defaults in their place.
    const resolved = await withNotificationDefaults(db, { id: userId, realm_id: realmId }, dicts);
    uow.emit(event, [userId], resolved ? { ifNotCapable: { notification_settings_null: [ev.subscriptionAdd(resolved, forUnarchiving)] } } : {});
  }

  if (forUnarchiving) return;
  for (const stream of streams) {
    const altered = alteredByStream.get(stream.id)!;
    const peers = without(await channelAudience(db, stream, users), altered);
    uow.emit(ev.peerAdd([stream.id], [...altered]), peers);
  }
}

export async function emitSubscriptionsRemoved(uow: UnitOfWork, removed: AddedSubscription[]): Promise<void> {
  const db = uow.trx;
  const users = await RealmUsers.load(db, removed[0].stream.realm_id);
  const byUser = new Map<number, AddedSubscription[]>();
  for (const item of removed) {
    if (!byUser.has(item.user.id)) byUser.set(item.user.id, []);
    byUser.get(item.user.id)!.push(item);
  }
  for (const [userId, items] of byUser) {
    uow.emit(ev.subscriptionRemove(items.map(({ stream }) => ({ stream_id: stream.id, name: stream.name }))), [userId]);
    const user = items[0].user;
    if (isAdminRole(user.role)) continue;
    // A private channel disappears for those who no longer have any way to see it.
    const viewer = await loadViewer(db, user);
    const lost = items.map((i) => i.stream).filter((s) => !hasMetadataAccess(viewer, s));
    if (lost.length > 0) uow.emit(ev.streamDelete(lost.map((s) => s.id)), [userId]);
  }
  const streams = [...new Map(removed.map((r) => [r.stream.id, r.stream])).values()];
  for (const stream of streams) {
    const altered = removed.filter((r) => r.stream.id === stream.id).map((r) => r.user.id);
    uow.emit(ev.peerRemove([stream.id], altered), without(await channelAudience(db, stream, users), altered));
  }
}
