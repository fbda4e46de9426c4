import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { archiveChannel, ChannelChanges, GroupSettingChange, NewChannelSettings, updateChannel } from '../core/channels/admin-actions';
import { createChannel } from '../core/channels/create-channel';
import { subscribe, SubscriptionPropertyChange, unsubscribe, updateSubscriptionProperties } from '../core/channels/subscription-actions';
import { ChannelPermissionSetting, TOPICS_POLICIES, TopicsPolicy } from '../core/channels/constants';
import type { GroupSettingValue } from '../core/channels/group-settings';
import {
  DEFAULT_CHANNEL_LIST_OPTIONS,
  getChannelForViewer,
  getChannelsForViewer,
  getChannelSubscribers,
  getSubscriptionStatus,
  getUserChannelIds,
  listSubscriptions,
} from '../core/channels/queries';
import type { User } from '../core/users/model';
import { updateOwnSubscriptions } from '../core/channels/update-subscriptions';
import { channelEmailAddress } from '../core/channels/email-address';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import {
  ChannelPermissionChangesInput,
  ChannelPermissionsInput,
  ChannelType,
  groupSettingInputToValue,
  PERMISSION_FIELDS,
  CreateChannelInput,
  NewChannelSettingsInput,
  SubscribeInput,
  SubscribeResultType,
  SubscriptionPropertiesInput,
  SubscriptionType,
  NewChannelInput,
  UnsubscribeResultType,
  UpdateChannelInput,
  UpdateSubscriptionsResultType,
  UserChannelsType,
} from '../schema/channels';

const me = (ctx: GraphQLContext) => ctx.user as User;

function topicsPolicy(value: string | undefined | null): TopicsPolicy | undefined {
  if (value === undefined || value === null) return undefined;
  if (!(TOPICS_POLICIES as readonly string[]).includes(value)) throw errors.badRequest('Invalid topics_policy');
  return value as TopicsPolicy;
}

/** "30" means 30 days; other text ("realm_default", "unlimited") is passed on as it is. */
function retention(value: string | undefined | null): string | number | undefined {
  if (value === undefined || value === null) return undefined;
  return /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;
}

function permissionValues(input: ChannelPermissionsInput | undefined | null): Partial<Record<ChannelPermissionSetting, GroupSettingValue>> {
  const out: Partial<Record<ChannelPermissionSetting, GroupSettingValue>> = {};
  if (!input) return out;
  for (const [field, setting] of PERMISSION_FIELDS) {
    const value = input[field];
    if (value) out[setting] = groupSettingInputToValue(value);
  }
  return out;
}

function newChannelSettings(input: NewChannelSettingsInput): NewChannelSettings {
  return {
    inviteOnly: input.inviteOnly,
    isWebPublic: input.isWebPublic,
    historyPublicToSubscribers: input.historyPublicToSubscribers ?? null,
    messageRetentionDays: retention(input.messageRetentionDays) ?? 'realm_default',
    topicsPolicy: topicsPolicy(input.topicsPolicy),
    folderId: input.folderId ?? undefined,
    groupSettings: permissionValues(input.permissions),
  };
}

function permissionChanges(input: ChannelPermissionChangesInput | undefined | null): Partial<Record<ChannelPermissionSetting, GroupSettingChange>> {
  const out: Partial<Record<ChannelPermissionSetting, GroupSettingChange>> = {};
  if (!input) return out;
  for (const [field, setting] of PERMISSION_FIELDS) {
    const change = input[field];
    if (!change) continue;
    out[setting] = {
      new: groupSettingInputToValue(change.newValue),
      ...(change.oldValue ? { old: groupSettingInputToValue(change.oldValue) } : {}),
    };
  }
  return out;
}

const byUser = (map: Record<string, string[]>): UserChannelsType[] =>
  Object.entries(map).map(([userId, channelNames]) => Object.assign(new UserChannelsType(), { userId: Number(userId), channelNames }));

/** Subscription property changes, one per field given, in a fixed order. */
const PROPERTY_FIELDS = [
  ['color', 'color'],
  ['isMuted', 'is_muted'],
  ['pinToTop', 'pin_to_top'],
  ['desktopNotifications', 'desktop_notifications'],
  ['audibleNotifications', 'audible_notifications'],
  ['pushNotifications', 'push_notifications'],
  ['emailNotifications', 'email_notifications'],
  ['wildcardMentionsNotify', 'wildcard_mentions_notify'],
] as const;

@Resolver()
export class ChannelResolver {
  @Authorized()
  @Query(() => [ChannelType], { description: 'Channels you can see, chosen as GET /streams chooses them.' })
  async channels(
    @Ctx() ctx: GraphQLContext,
    @Arg('includePublic', { defaultValue: true }) includePublic: boolean,
    @Arg('includeWebPublic', { defaultValue: false }) includeWebPublic: boolean,
    @Arg('includeSubscribed', { defaultValue: true }) includeSubscribed: boolean,
    @Arg('excludeArchived', { defaultValue: true }) excludeArchived: boolean,
    @Arg('includeAll', { defaultValue: false, description: 'Every channel you can see exists.' }) includeAll: boolean,
    @Arg('includeCanAccessContent', { defaultValue: false }) includeCanAccessContent: boolean,
  ): Promise<ChannelType[]> {
    const dicts = await getChannelsForViewer(ctx.deps, me(ctx), {
      ...DEFAULT_CHANNEL_LIST_OPTIONS,
      includePublic,
      includeWebPublic,
      includeSubscribed,
      excludeArchived,
      includeAll,
      includeCanAccessContent,
    });
    return dicts.map(ChannelType.from);
  }

  @Authorized()
  @Query(() => ChannelType, { description: 'A channel whose metadata you may see, archived ones included (GET /streams/{stream_id}).' })
  async channel(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<ChannelType> {
    return ChannelType.from(await getChannelForViewer(ctx.deps, me(ctx), id));
  }

  @Authorized()
  @Query(() => [Int], { description: 'User ids of the channel’s subscribers.' })
  async channelSubscribers(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<number[]> {
    return getChannelSubscribers(ctx.deps, me(ctx), id);
  }

  @Authorized()
  @Query(() => Boolean, { description: 'Whether a user is subscribed to a channel (REST: GET /users/{user_id}/subscriptions/{stream_id}).' })
  async isSubscribed(@Arg('userId', () => Int) userId: number, @Arg('streamId', () => Int) streamId: number, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    return getSubscriptionStatus(ctx.deps, me(ctx), userId, streamId);
  }

  @Authorized()
  @Query(() => [Int], {
    description: 'IDs of the channels a user is subscribed to, among those whose metadata the viewer may see (REST: GET /users/{user_id}/channels).',
  })
  async userChannelIds(@Arg('userId', () => Int) userId: number, @Ctx() ctx: GraphQLContext): Promise<number[]> {
    return getUserChannelIds(ctx.deps, me(ctx), userId);
  }

  @Authorized()
  @Query(() => [SubscriptionType], { description: 'Your subscriptions.' })
  async subscriptions(
    @Ctx() ctx: GraphQLContext,
    @Arg('includeSubscribers', { defaultValue: false }) includeSubscribers: boolean,
  ): Promise<SubscriptionType[]> {
    return (await listSubscriptions(ctx.deps, me(ctx), includeSubscribers)).map(SubscriptionType.from);
  }

  @Authorized()
  @Mutation(() => SubscribeResultType)
  async subscribe(@Arg('input') input: SubscribeInput, @Ctx() ctx: GraphQLContext): Promise<SubscribeResultType> {
    const result = await subscribe(ctx.deps, me(ctx), {
      subscriptions: input.channels.map((c) => ({ name: c.name, description: c.description ?? undefined, color: c.color ?? undefined })),
      principals: input.userIds ?? undefined,
      authorizationErrorsFatal: input.authorizationErrorsFatal,
      announce: false,
      ...newChannelSettings(input),
    });
    return Object.assign(new SubscribeResultType(), {
      subscribed: byUser(result.subscribed),
      alreadySubscribed: byUser(result.already_subscribed),
      unauthorized: result.unauthorized ?? null,
    });
  }

  @Authorized()
  @Mutation(() => Int, { description: 'Creates a channel; returns its id (REST: POST /channels/create).' })
  async createChannel(@Arg('input') input: CreateChannelInput, @Ctx() ctx: GraphQLContext): Promise<number> {
    return createChannel(ctx.deps, me(ctx), {
      name: input.name,
      description: input.description,
      subscribers: input.subscriberIds,
      announce: input.announce,
      isDefaultStream: input.isDefaultStream,
      ...newChannelSettings(input),
    });
  }

  @Authorized()
  @Query(() => String, {
    description: "The channel's incoming-email address: empty, as this server has no email gateway (REST: GET /streams/{id}/email_address).",
  })
  async channelEmailAddress(
    @Arg('streamId', () => Int) streamId: number,
    @Arg('senderId', () => Int, { nullable: true }) senderId: number | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<string> {
    return (await channelEmailAddress(ctx.deps, me(ctx), streamId, senderId ?? undefined)).email;
  }

  @Authorized()
  @Mutation(() => UpdateSubscriptionsResultType, {
    description: 'Subscribes you to `add` and unsubscribes you from `remove` (REST: PATCH /users/me/subscriptions).',
  })
  async updateSubscriptions(
    @Arg('add', () => [NewChannelInput], { defaultValue: [] }) add: NewChannelInput[],
    @Arg('remove', () => [String], { defaultValue: [] }) remove: string[],
    @Ctx() ctx: GraphQLContext,
  ): Promise<UpdateSubscriptionsResultType> {
    const channels = add.map((c) => ({ name: c.name, description: c.description ?? undefined, color: c.color ?? undefined }));
    const result = await updateOwnSubscriptions(ctx.deps, me(ctx), channels, remove);
    return Object.assign(new UpdateSubscriptionsResultType(), {
      subscribed: byUser(result.subscribed),
      alreadySubscribed: byUser(result.already_subscribed),
      removed: result.removed,
      notRemoved: result.not_removed,
    });
  }

  @Authorized()
  @Mutation(() => UnsubscribeResultType)
  async unsubscribe(
    @Arg('channels', () => [String]) channels: string[],
    @Arg('userIds', () => [Int], { nullable: true }) userIds: number[] | undefined,
    @Ctx() ctx: GraphQLContext,
  ): Promise<UnsubscribeResultType> {
    const result = await unsubscribe(ctx.deps, me(ctx), channels, userIds ?? undefined);
    return Object.assign(new UnsubscribeResultType(), { removed: result.removed, notRemoved: result.not_removed });
  }

  @Authorized()
  @Mutation(() => ChannelType, { description: 'Channel administrators and organization administrators.' })
  async updateChannel(@Arg('id', () => Int) id: number, @Arg('input') input: UpdateChannelInput, @Ctx() ctx: GraphQLContext): Promise<ChannelType> {
    const changes: ChannelChanges = {
      newName: input.newName ?? undefined,
      description: input.description ?? undefined,
      isPrivate: input.isPrivate ?? undefined,
      isWebPublic: input.isWebPublic ?? undefined,
      historyPublicToSubscribers: input.historyPublicToSubscribers ?? undefined,
      messageRetentionDays: retention(input.messageRetentionDays),
      topicsPolicy: topicsPolicy(input.topicsPolicy),
      folderId: input.folderId,
      isArchived: input.isArchived ?? undefined,
      groupSettings: permissionChanges(input.permissions),
    };
    await updateChannel(ctx.deps, me(ctx), id, changes);
    return ChannelType.from(await getChannelForViewer(ctx.deps, me(ctx), id));
  }

  @Authorized()
  @Mutation(() => [SubscriptionType], { description: 'Changes your settings for subscribed channels; returns those subscriptions.' })
  async updateSubscriptionProperties(
    @Arg('changes', () => [SubscriptionPropertiesInput]) changes: SubscriptionPropertiesInput[],
    @Ctx() ctx: GraphQLContext,
  ): Promise<SubscriptionType[]> {
    const list: SubscriptionPropertyChange[] = [];
    for (const change of changes) {
      for (const [field, property] of PROPERTY_FIELDS) {
        const value = change[field];
        if (value !== undefined && value !== null) list.push({ stream_id: change.streamId, property, value });
      }
    }
    await updateSubscriptionProperties(ctx.deps, me(ctx), list);
    const ids = new Set(changes.map((c) => c.streamId));
    const subs = await listSubscriptions(ctx.deps, me(ctx), false);
    return subs.filter((s) => ids.has(s.stream_id)).map(SubscriptionType.from);
  }

  @Authorized()
  @Mutation(() => DeletedPayload, { description: 'Archives a channel; it keeps its subscribers and history.' })
  async archiveChannel(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await archiveChannel(ctx.deps, me(ctx), id);
    return deleted(id);
  }
}
