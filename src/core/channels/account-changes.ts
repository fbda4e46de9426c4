import type { Knex } from 'knex';
import { UnitOfWork } from '../../db/unit-of-work';
import { User } from '../users/model';
import { canSeeSubscribers, ChannelViewer, hasMetadataAccess, loadViewer } from './access';
import { activeSubscriberIds, channelAudience, RealmUsers, without } from './audience';
import { CHANNEL_PERMISSION_SETTING_NAMES } from './constants';
import * as ev from './events';
import { GroupSettingValue } from './group-settings';
import { Stream, Subscription } from './model';
import { channelDict, loadChannelViewContext } from './view';
import { channelDicts } from './admin-actions';

/**
 * Channel steps of the users feature's account changes: accounts leaving and returning
 * (deactivate/reactivate), and role changes that show or hide channels.
 */

/**
 * A deactivated account keeps its subscriptions (they return with it) but stops counting as a
 * subscriber, so each channel's peers get peer_remove, as in Zulip. Permission values that name it
 * directly list active users only, so they are announced again.
 */
export async function announceDeactivatedAccount(uow: UnitOfWork, user: User): Promise<void> {
  await announceSubscriberChange(uow, user, 'peer_remove');
  await announceSettingsNaming(uow, user);
}

/** The reverse: peers get peer_add for the account's subscriptions, as in Zulip. */
export async function announceReactivatedAccount(uow: UnitOfWork, user: User): Promise<void> {
  await announceSubscriberChange(uow, user, 'peer_add');
  await announceSettingsNaming(uow, user);
}

/**
 * Archived channels are included: clients that track them keep exact subscriber lists, and the
 * others ignore ids they do not know.
 */
async function announceSubscriberChange(uow: UnitOfWork, user: User, op: 'peer_add' | 'peer_remove'): Promise<void> {
  const db = uow.trx;
  const streams = await Stream.query(db)
    .whereIn('id', Subscription.query(db).select('stream_id').where({ user_id: user.id, active: true }))
    .orderBy('id');
  if (streams.length === 0) return;
  const users = await RealmUsers.load(db, user.realm_id);
  for (const stream of streams) {
    const event = op === 'peer_add' ? ev.peerAdd([stream.id], [user.id]) : ev.peerRemove([stream.id], [user.id]);
    uow.emit(event, without(await channelAudience(db, stream, users), [user.id]));
  }
}

function namesUserDirectly(value: GroupSettingValue, userId: number): boolean {
  return typeof value !== 'number' && value.direct_members.includes(userId);
}

async function announceSettingsNaming(uow: UnitOfWork, user: User): Promise<void> {
  const db = uow.trx;
  const streams = (await Stream.query(db).where('realm_id', user.realm_id).orderBy('id')).filter((stream) =>
    CHANNEL_PERMISSION_SETTING_NAMES.some((setting) => namesUserDirectly(stream[setting], user.id)),
  );
  if (streams.length === 0) return;
  const users = await RealmUsers.load(db, user.realm_id);
  const ctx = await loadChannelViewContext(db, user.realm_id, streams, { withTraffic: false });
  for (const stream of streams) {
    const dict = channelDict(stream, ctx);
    const audience = await channelAudience(db, stream, users);
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
      if (namesUserDirectly(stream[setting], user.id)) uow.emit(ev.streamUpdate(stream, setting, dict[setting]), audience);
    }
  }
}

/** Active channels the account can see exist: what its stream and subscription state lists. */
async function visibleChannels(db: Knex, user: User): Promise<{ viewer: ChannelViewer; streams: Stream[] }> {
  const viewer = await loadViewer(db, user);
  const streams = await Stream.query(db).where({ realm_id: user.realm_id, deactivated: false }).orderBy('id');
  return { viewer, streams: streams.filter((s) => hasMetadataAccess(viewer, s)) };
}

/**
 * A role change can show or hide channels (administrators see every private channel; guests only
 * their own). As in Zulip, the account gets stream/create, then peer_add with the subscribers, for
 * channels it now sees, and stream/delete for those it no longer sees. Call before the change is
 * written; the returned step runs after it.
 */
export async function noteChannelsBeforeRoleChange(uow: UnitOfWork, user: User): Promise<(changed: User) => Promise<void>> {
  const db = uow.trx;
  const before = new Set((await visibleChannels(db, user)).streams.map((s) => s.id));
  return async (changed) => {
    const { viewer, streams } = await visibleChannels(db, changed);
    const gained = streams.filter((s) => !before.has(s.id));
    const lost = [...before].filter((id) => !streams.some((s) => s.id === id));
    if (gained.length > 0) {
      const dicts = await channelDicts(db, changed.realm_id, gained, true);
      uow.emit(ev.streamCreate(gained.map((s) => dicts.get(s.id)!)), [changed.id]);
      for (const stream of gained) {
        if (!canSeeSubscribers(viewer, stream)) continue;
        const subscribers = [...(await activeSubscriberIds(db, stream.id))];
        if (subscribers.length > 0) uow.emit(ev.peerAdd([stream.id], subscribers), [changed.id]);
      }
    }
    if (lost.length > 0) uow.emit(ev.streamDelete(lost), [changed.id]);
  };
}
