import type { Knex } from 'knex';
import { CHANNEL_PERMISSION_SETTING_NAMES, STREAM_POST_POLICY_BY_GROUP, TopicsPolicy } from './constants';
import { GroupSettingValue, groupSettingForApi } from './group-settings';
import { recentChannelTraffic } from './message-hooks';
import { ChannelStatisticsDeps, recentTraffic, subscriberCounts } from './statistics';
import type { Stream, Subscription } from './model';
import type { SystemGroupName } from '../groups/system-groups';
import { anyOf } from '../../db/lists';

/**
 * Zulip-shaped channel dictionaries: the channel object of GET /streams and stream events, and the
 * subscription object (channel fields plus the user's own settings). REST returns them as they
 * are; GraphQL maps them onto its types.
 */
export interface ChannelDict {
  stream_id: number;
  name: string;
  is_archived: boolean;
  description: string;
  rendered_description: string;
  date_created: number;
  creator_id: number | null;
  invite_only: boolean;
  is_web_public: boolean;
  stream_post_policy: number;
  is_announcement_only: boolean;
  message_retention_days: number | null;
  history_public_to_subscribers: boolean;
  topics_policy: TopicsPolicy;
  first_message_id: number | null;
  folder_id: number | null;
  is_recently_active: boolean;
  stream_weekly_traffic: number | null;
  subscriber_count: number;
  can_add_subscribers_group: GroupSettingValue;
  can_administer_channel_group: GroupSettingValue;
  can_create_topic_group: GroupSettingValue;
  can_delete_any_message_group: GroupSettingValue;
  can_delete_own_message_group: GroupSettingValue;
  can_move_messages_out_of_channel_group: GroupSettingValue;
  can_move_messages_within_channel_group: GroupSettingValue;
  can_remove_subscribers_group: GroupSettingValue;
  can_send_message_group: GroupSettingValue;
  can_subscribe_group: GroupSettingValue;
  can_resolve_topics_group: GroupSettingValue;
  subscribers?: number[];
  partial_subscribers?: number[];
  is_default?: boolean;
}

export interface SubscriptionDict extends ChannelDict {
  color: string;
  is_muted: boolean;
  in_home_view: boolean;
  pin_to_top: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

/** What presenting a batch of channels needs beyond the rows themselves. */
export interface ChannelViewContext {
  systemGroupNames: Map<number, string>;
  /** Active users among those named directly in the channels' permission settings. */
  activeUserIds: Set<number>;
  /** Messages in the last 28 days; null means the traffic is not reported (new channels in events). */
  traffic: Map<number, number> | null;
  subscriberCounts: Map<number, number>;
}

export async function loadChannelViewContext(
  db: Knex,
  realmId: number,
  streams: Stream[],
  options: {
    withTraffic?: boolean;
    /**
     * Reads outside a transaction pass the server's parts (`db` must be its knex): subscriber
     * counts and traffic then come from the process's channel statistics (./statistics).
     */
    statistics?: ChannelStatisticsDeps;
  } = {},
): Promise<ChannelViewContext> {
  const streamIds = streams.map((s) => s.id);
  const groups: { id: number; name: string }[] = await db('user_groups').where({ realm_id: realmId, is_system_group: true }).select('id', 'name');
  // Only users named directly in permission settings need their active state checked.
  const named = new Set<number>();
  for (const stream of streams) {
    for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
      const value = stream[setting];
      if (typeof value !== 'number') for (const id of value.direct_members) named.add(id);
    }
  }
  const active: { id: number }[] =
    named.size === 0
      ? []
      : await db('users')
          .where({ realm_id: realmId, is_active: true })
          .whereRaw(...anyOf('id', [...named]))
          .select('id');
  const withTraffic = options.withTraffic !== false;
  const [allCounts, allTraffic] = options.statistics
    ? await Promise.all([subscriberCounts(options.statistics), withTraffic ? recentTraffic(db, realmId) : null])
    : [await countSubscribers(db, streamIds), withTraffic ? await recentChannelTraffic(db, realmId, streamIds) : null];
  return {
    systemGroupNames: new Map(groups.map((g) => [g.id, g.name])),
    activeUserIds: new Set(active.map((u) => u.id)),
    traffic: allTraffic && new Map(streamIds.map((id) => [id, allTraffic.get(id) ?? 0])),
    subscriberCounts: new Map(streamIds.map((id) => [id, allCounts.get(id) ?? 0])),
  };
}

/** Active subscribers of each of these channels, read through `db` (a transaction's own view). */
async function countSubscribers(db: Knex, streamIds: number[]): Promise<Map<number, number>> {
  if (streamIds.length === 0) return new Map();
  const rows: { stream_id: number; n: number | string }[] = await db('subscriptions')
    .join('users', 'users.id', 'subscriptions.user_id')
    .whereRaw(...anyOf('subscriptions.stream_id', streamIds))
    .where({ 'subscriptions.active': true, 'users.is_active': true })
    .groupBy('subscriptions.stream_id')
    .select('subscriptions.stream_id')
    .count('* as n');
  return new Map(rows.map((row) => [row.stream_id, Number(row.n)]));
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** Average messages per week, or null while the channel is younger than a week. */
export function weeklyTraffic(dateCreated: Date, recentMessages: number, now = new Date()): number | null {
  const ageDays = Math.floor((now.getTime() - dateCreated.getTime()) / DAY_MS);
  let average: number;
  if (ageDays >= 28) average = Math.floor(recentMessages / 4);
  else if (ageDays >= 7) average = Math.floor((recentMessages * 7) / ageDays);
  else return null;
  return average === 0 && recentMessages > 0 ? 1 : average;
}

export function streamPostPolicy(stream: Pick<Stream, 'can_send_message_group'>, systemGroupNames: Map<number, string>): number {
  const value = stream.can_send_message_group;
  if (typeof value !== 'number') return 1;
  const name = systemGroupNames.get(value) as SystemGroupName | undefined;
  return (name && STREAM_POST_POLICY_BY_GROUP[name]) ?? 1;
}

export const unixSeconds = (date: Date) => Math.floor(new Date(date).getTime() / 1000);

export function channelDict(stream: Stream, ctx: ChannelViewContext): ChannelDict {
  const postPolicy = streamPostPolicy(stream, ctx.systemGroupNames);
  const traffic = ctx.traffic?.get(stream.id);
  const dict: ChannelDict = {
    stream_id: stream.id,
    name: stream.name,
    is_archived: stream.deactivated,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: unixSeconds(stream.date_created),
    creator_id: stream.creator_id,
    invite_only: stream.invite_only,
    is_web_public: stream.is_web_public,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === 2,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers,
    topics_policy: stream.topics_policy,
    first_message_id: stream.first_message_id,
    folder_id: stream.folder_id,
    is_recently_active: stream.is_recently_active,
    stream_weekly_traffic: traffic === undefined ? null : weeklyTraffic(stream.date_created, traffic),
    subscriber_count: ctx.subscriberCounts.get(stream.id) ?? 0,
  } as ChannelDict;
  for (const setting of CHANNEL_PERMISSION_SETTING_NAMES) {
    dict[setting] = groupSettingForApi(stream[setting], ctx.activeUserIds);
  }
  return dict;
}

export function subscriptionDict(stream: Stream, sub: Subscription, ctx: ChannelViewContext): SubscriptionDict {
  return {
    ...channelDict(stream, ctx),
    color: sub.color,
    is_muted: sub.is_muted,
    in_home_view: !sub.is_muted,
    pin_to_top: sub.pin_to_top,
    desktop_notifications: sub.desktop_notifications,
    audible_notifications: sub.audible_notifications,
    push_notifications: sub.push_notifications,
    email_notifications: sub.email_notifications,
    wildcard_mentions_notify: sub.wildcard_mentions_notify,
  };
}
