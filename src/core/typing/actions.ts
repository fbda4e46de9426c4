import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import type { Delivery, ZulipEvent } from '../../realtime/bus';
import { EMPTY_TOPIC_DISPLAY_NAME } from '../../realtime/transforms';
import { User } from '../users/model';
import { canSeeDeliveryEmail, placeholderEmail } from '../users/view';
import { hasSetting, usersWithSetting } from './preferences';
import { realmAccounts } from '../users/own-values';
import { anyOf } from '../../db/lists';

/**
 * Typing notifications. Nothing is stored: each start/stop is one event, delivered at once to the
 * conversation's other participants (and the sender's other clients) who want such notifications.
 * Clients expire a "start" on their own, so a lost "stop" does no lasting harm.
 */
export type TypingOp = 'start' | 'stop';

/** Channels with more subscribers than this get no typing notifications (too many events). */
export const MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS = 100;

/** Direct-message typing: `to` are the other participants (the sender is added). */
export async function sendDirectTyping(deps: AppDeps, sender: User, to: number[], op: TypingOp): Promise<void> {
  if (to.length === 0) throw errors.badRequest("Empty 'to' list");
  if (!(await hasSetting(deps, sender.id, 'send_private_typing_notifications'))) {
    throw errors.badRequest('User has disabled typing notifications for direct messages');
  }
  const ids = [...new Set([...to, sender.id])];
  const users = await User.query(deps.knex)
    .where('realm_id', deps.realmId)
    .whereRaw(...anyOf('id', ids));
  const byId = new Map(users.map((u) => [u.id, u]));
  // One bad id spoils the whole list: a partial conversation would be a different one.
  for (const id of ids) if (!byId.has(id)) throw errors.badRequest(`Invalid user ID ${id}`);
  const participants = ids.map((id) => byId.get(id)!);
  const listeners = await usersWithSetting(
    deps,
    participants.filter((u) => u.is_active).map((u) => u.id),
    'receives_typing_notifications',
  );
  // Addresses are shown as each listener may see them; listeners who see the same get one event.
  const groups = new Map<string, { event: ZulipEvent; userIds: number[] }>();
  for (const listenerId of listeners) {
    const viewer = byId.get(listenerId)!;
    const person = (u: User) => ({ user_id: u.id, email: apiEmail(deps, viewer, u) });
    const event: ZulipEvent = { type: 'typing', op, message_type: 'direct', sender: person(sender), recipients: participants.map(person) };
    const key = JSON.stringify(event);
    if (!groups.has(key)) groups.set(key, { event, userIds: [] });
    groups.get(key)!.userIds.push(listenerId);
  }
  await publish(deps, [...groups.values()]);
}

function apiEmail(deps: AppDeps, viewer: User, target: User): string {
  return canSeeDeliveryEmail(viewer, target) ? target.delivery_email : placeholderEmail(deps.config, target.id);
}

/**
 * Who hears typing in a channel topic: given the sender and channel, checks the sender may post
 * there and returns the channel's active subscribers. Provided by the channels feature through
 * registerChannelTypingAudience; without channels every channel id is unknown.
 */
export type ChannelTypingAudience = (deps: AppDeps, sender: User, streamId: number) => Promise<number[]>;

/** The audience while no channel exists: every channel id is unknown. */
export const noChannels: ChannelTypingAudience = async () => {
  throw errors.badRequest('Invalid channel ID');
};

let channelAudience: ChannelTypingAudience = noChannels;

export function registerChannelTypingAudience(audience: ChannelTypingAudience): void {
  channelAudience = audience;
}

/** Channel typing: everyone following the channel hears it (clients show it in `topic`). */
export async function sendChannelTyping(deps: AppDeps, sender: User, streamId: number, topic: string, op: TypingOp): Promise<void> {
  if (!(await hasSetting(deps, sender.id, 'send_stream_typing_notifications'))) {
    throw errors.badRequest('User has disabled typing notifications for channel messages');
  }
  const subscribers = await channelAudience(deps, sender, streamId);
  if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING_NOTIFICATIONS) return;
  const listeners = await usersWithSetting(deps, subscribers, 'receives_typing_notifications');
  if (listeners.length === 0) return;
  const event: ZulipEvent = {
    type: 'typing',
    op,
    message_type: 'stream',
    sender: { user_id: sender.id, email: sender.delivery_email },
    stream_id: streamId,
    topic: normalizeTopic(topic),
  };
  // The sender's address as each listener may see it (roles from the process's account cache).
  const wanted = new Set(listeners);
  const groups = new Map<string, number[]>();
  for (const viewer of await realmAccounts(deps)) {
    if (!wanted.has(viewer.id)) continue;
    const email = apiEmail(deps, viewer, sender);
    const group = groups.get(email);
    if (group) group.push(viewer.id);
    else groups.set(email, [viewer.id]);
  }
  await publish(
    deps,
    [...groups].map(([email, userIds]) => ({ event: { ...event, sender: { user_id: sender.id, email } }, userIds })),
  );
}

/** The empty topic may be written as its display name or as "(no topic)". */
function normalizeTopic(topic: string): string {
  const trimmed = topic.trim();
  return trimmed === EMPTY_TOPIC_DISPLAY_NAME || trimmed === '(no topic)' ? '' : trimmed;
}

async function publish(deps: AppDeps, groups: { event: ZulipEvent; userIds: number[] }[]): Promise<void> {
  const deliveries: Delivery[] = groups.filter((g) => g.userIds.length > 0).map((g) => ({ realmId: deps.realmId, userIds: g.userIds, event: g.event }));
  await deps.bus.publish(deliveries);
}
