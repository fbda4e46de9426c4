import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import { sendInternalMessage } from '../messages/send';
import { storedRealmSetting } from '../realm/setting-store';
import { notificationBot } from '../system-bots/notification-bot';
import type { User } from '../users/model';
import { Stream } from './model';

/**
 * The notification bot's announcements in the channels the organization names for them
 * (new_stream_announcements_stream_id, signup_announcements_stream_id); -1, or a channel archived
 * since, means none is sent. The people named are mentioned silently, as in Zulip.
 */
async function announcementChannel(uow: UnitOfWork, realmId: number, setting: string): Promise<Stream | undefined> {
  const id = await storedRealmSetting<number>(uow.trx, realmId, setting, -1);
  if (id === -1) return undefined;
  const channel = await Stream.query(uow.trx).findOne({ id, realm_id: realmId });
  return channel && !channel.deactivated ? channel : undefined;
}

async function announce(deps: AppDeps, uow: UnitOfWork, setting: string, topic: string, content: string): Promise<void> {
  const channel = await announcementChannel(uow, deps.realmId, setting);
  if (!channel) return;
  const to = { stream: channel, topic: channel.topics_policy === 'empty_topic_only' ? '' : topic };
  await sendInternalMessage(deps, uow, await notificationBot(uow.trx), to, content);
}

const silentMention = (user: User) => `@_**${user.full_name}|${user.id}**`;

/** Channels created with `announce` (POST /users/me/subscriptions). */
export async function announceNewChannels(deps: AppDeps, uow: UnitOfWork, creator: User, channels: Stream[]): Promise<void> {
  if (channels.length === 0) return;
  const links = channels.map((c) => `#**${c.name}**`).join(', ');
  const content =
    channels.length > 1 ? `${silentMention(creator)} created the following channels: ${links}.` : `${silentMention(creator)} created a new channel ${links}.`;
  await announce(deps, uow, 'new_stream_announcements_stream_id', 'new channels', content);
}

/** A person's new account (bots are not announced). */
export async function announceSignup(deps: AppDeps, uow: UnitOfWork, user: User): Promise<void> {
  await announce(deps, uow, 'signup_announcements_stream_id', 'signups', `${silentMention(user)} joined this organization.`);
}
