import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { GroupSettingValue } from '../core/channels/group-settings';
import type { ChannelDict, SubscriptionDict } from '../core/channels/view';
import { GroupSettingChangeInput, GroupSettingValueInput, GroupSettingValueType } from './groups';
import { errors } from '../errors';

@ObjectType('Channel', { description: 'A channel (called a stream in older API names), as the requester may see it.' })
export class ChannelType {
  @Field(() => ID) id!: number;
  @Field(() => Int, { description: "The same as id, as a number (the REST API's stream_id)." }) streamId!: number;
  @Field() name!: string;
  @Field() isArchived!: boolean;
  @Field({ description: 'Markdown source.' }) description!: string;
  @Field({ description: 'HTML.' }) renderedDescription!: string;
  @Field(() => Int, { description: 'UNIX seconds.' }) dateCreated!: number;
  @Field(() => Int, { nullable: true }) creatorId!: number | null;
  @Field({ description: 'True for private channels.' }) inviteOnly!: boolean;
  @Field() isWebPublic!: boolean;
  @Field() historyPublicToSubscribers!: boolean;
  @Field(() => Int, { nullable: true, description: 'Null follows the organization; -1 keeps messages forever.' })
  messageRetentionDays!: number | null;
  @Field({ description: 'inherit, allow_empty_topic, disable_empty_topic or empty_topic_only.' }) topicsPolicy!: string;
  @Field(() => Int, { nullable: true }) firstMessageId!: number | null;
  @Field(() => Int, { nullable: true }) folderId!: number | null;
  @Field() isRecentlyActive!: boolean;
  @Field(() => Int, { nullable: true, description: 'Average messages per week; null while the channel is new.' })
  streamWeeklyTraffic!: number | null;
  @Field(() => Int) subscriberCount!: number;
  @Field(() => Int, { description: 'Deprecated; derived from canSendMessageGroup.' }) streamPostPolicy!: number;
  @Field(() => GroupSettingValueType) canAddSubscribersGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canAdministerChannelGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canCreateTopicGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canDeleteAnyMessageGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canDeleteOwnMessageGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canMoveMessagesOutOfChannelGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canMoveMessagesWithinChannelGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canRemoveSubscribersGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canSendMessageGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canSubscribeGroup!: GroupSettingValueType;
  @Field(() => GroupSettingValueType) canResolveTopicsGroup!: GroupSettingValueType;
  @Field(() => [Int], { nullable: true, description: 'Present only when subscribers were asked for.' })
  subscribers!: number[] | null;

  static from(dict: ChannelDict): ChannelType {
    const g = GroupSettingValueType.from;
    return Object.assign(new ChannelType(), {
      id: dict.stream_id,
      streamId: dict.stream_id,
      name: dict.name,
      isArchived: dict.is_archived,
      description: dict.description,
      renderedDescription: dict.rendered_description,
      dateCreated: dict.date_created,
      creatorId: dict.creator_id,
      inviteOnly: dict.invite_only,
      isWebPublic: dict.is_web_public,
      historyPublicToSubscribers: dict.history_public_to_subscribers,
      messageRetentionDays: dict.message_retention_days,
      topicsPolicy: dict.topics_policy,
      firstMessageId: dict.first_message_id,
      folderId: dict.folder_id,
      isRecentlyActive: dict.is_recently_active,
      streamWeeklyTraffic: dict.stream_weekly_traffic,
      subscriberCount: dict.subscriber_count,
      streamPostPolicy: dict.stream_post_policy,
      canAddSubscribersGroup: g(dict.can_add_subscribers_group),
      canAdministerChannelGroup: g(dict.can_administer_channel_group),
      canCreateTopicGroup: g(dict.can_create_topic_group),
      canDeleteAnyMessageGroup: g(dict.can_delete_any_message_group),
      canDeleteOwnMessageGroup: g(dict.can_delete_own_message_group),
      canMoveMessagesOutOfChannelGroup: g(dict.can_move_messages_out_of_channel_group),
      canMoveMessagesWithinChannelGroup: g(dict.can_move_messages_within_channel_group),
      canRemoveSubscribersGroup: g(dict.can_remove_subscribers_group),
      canSendMessageGroup: g(dict.can_send_message_group),
      canSubscribeGroup: g(dict.can_subscribe_group),
      canResolveTopicsGroup: g(dict.can_resolve_topics_group),
      subscribers: dict.subscribers ?? null,
    });
  }
}

@ObjectType('ChannelSubscription', { description: "The requester's subscription to a channel, with their own settings for it." })
export class SubscriptionType {
  @Field(() => ChannelType) channel!: ChannelType;
  @Field() color!: string;
  @Field() isMuted!: boolean;
  @Field() pinToTop!: boolean;
  @Field(() => Boolean, { nullable: true, description: 'Null follows the user default.' }) desktopNotifications!: boolean | null;
  @Field(() => Boolean, { nullable: true }) audibleNotifications!: boolean | null;
  @Field(() => Boolean, { nullable: true }) pushNotifications!: boolean | null;
  @Field(() => Boolean, { nullable: true }) emailNotifications!: boolean | null;
  @Field(() => Boolean, { nullable: true }) wildcardMentionsNotify!: boolean | null;

  static from(dict: SubscriptionDict): SubscriptionType {
    return Object.assign(new SubscriptionType(), {
      channel: ChannelType.from(dict),
      color: dict.color,
      isMuted: dict.is_muted,
      pinToTop: dict.pin_to_top,
      desktopNotifications: dict.desktop_notifications,
      audibleNotifications: dict.audible_notifications,
      pushNotifications: dict.push_notifications,
      emailNotifications: dict.email_notifications,
      wildcardMentionsNotify: dict.wildcard_mentions_notify,
    });
  }
}

@ObjectType('UserChannels')
export class UserChannelsType {
  @Field(() => Int) userId!: number;
  @Field(() => [String]) channelNames!: string[];
}

@ObjectType('SubscribeResult')
export class SubscribeResultType {
  @Field(() => [UserChannelsType]) subscribed!: UserChannelsType[];
  @Field(() => [UserChannelsType]) alreadySubscribed!: UserChannelsType[];
  @Field(() => [String], { nullable: true, description: 'Channels refused, when authorizationErrorsFatal is false.' })
  unauthorized!: string[] | null;
}

@ObjectType('UnsubscribeResult')
export class UnsubscribeResultType {
  @Field(() => [String]) removed!: string[];
  @Field(() => [String]) notRemoved!: string[];
}

@ObjectType('UpdateSubscriptionsResult', { description: 'Your subscriptions added and removed in one request.' })
export class UpdateSubscriptionsResultType {
  @Field(() => [UserChannelsType]) subscribed!: UserChannelsType[];
  @Field(() => [UserChannelsType]) alreadySubscribed!: UserChannelsType[];
  @Field(() => [String]) removed!: string[];
  @Field(() => [String]) notRemoved!: string[];
}

/** A group-setting input as a stored value; exactly one of the two forms must be given. */
export function groupSettingInputToValue(input: GroupSettingValueInput): GroupSettingValue {
  const hasGroup = input.groupId !== undefined && input.groupId !== null;
  const hasCollection = (input.directMembers ?? null) !== null || (input.directSubgroups ?? null) !== null;
  if (hasGroup === hasCollection) throw errors.badRequest('Give either groupId or directMembers/directSubgroups');
  if (hasGroup) return input.groupId!;
  return { direct_members: input.directMembers ?? [], direct_subgroups: input.directSubgroups ?? [] };
}

/** Field names of the permission inputs, in GraphQL and REST spelling. */
export const PERMISSION_FIELDS = [
  ['canAddSubscribersGroup', 'can_add_subscribers_group'],
  ['canAdministerChannelGroup', 'can_administer_channel_group'],
  ['canCreateTopicGroup', 'can_create_topic_group'],
  ['canDeleteAnyMessageGroup', 'can_delete_any_message_group'],
  ['canDeleteOwnMessageGroup', 'can_delete_own_message_group'],
  ['canMoveMessagesOutOfChannelGroup', 'can_move_messages_out_of_channel_group'],
  ['canMoveMessagesWithinChannelGroup', 'can_move_messages_within_channel_group'],
  ['canRemoveSubscribersGroup', 'can_remove_subscribers_group'],
  ['canSendMessageGroup', 'can_send_message_group'],
  ['canSubscribeGroup', 'can_subscribe_group'],
  ['canResolveTopicsGroup', 'can_resolve_topics_group'],
] as const;

@InputType()
export class ChannelPermissionsInput {
  @Field(() => GroupSettingValueInput, { nullable: true }) canAddSubscribersGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canAdministerChannelGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canCreateTopicGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canDeleteAnyMessageGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canDeleteOwnMessageGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canMoveMessagesOutOfChannelGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canMoveMessagesWithinChannelGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canRemoveSubscribersGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canSendMessageGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canSubscribeGroup?: GroupSettingValueInput;
  @Field(() => GroupSettingValueInput, { nullable: true }) canResolveTopicsGroup?: GroupSettingValueInput;
}

@InputType()
export class ChannelPermissionChangesInput {
  @Field(() => GroupSettingChangeInput, { nullable: true }) canAddSubscribersGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canAdministerChannelGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canCreateTopicGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canDeleteAnyMessageGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canDeleteOwnMessageGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canMoveMessagesOutOfChannelGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canMoveMessagesWithinChannelGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canRemoveSubscribersGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canSendMessageGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canSubscribeGroup?: GroupSettingChangeInput;
  @Field(() => GroupSettingChangeInput, { nullable: true }) canResolveTopicsGroup?: GroupSettingChangeInput;
}

@InputType()
export class NewChannelInput {
  @Field() name!: string;
  @Field({ nullable: true, description: 'Used only when the channel is created.' }) description?: string;
  @Field({ nullable: true, description: 'Your color for the channel, e.g. #76ce90.' }) color?: string;
}

/** The settings of a channel being created (subscribe and createChannel); not itself in the schema. */
@InputType()
export class NewChannelSettingsInput {
  @Field({ defaultValue: false }) inviteOnly!: boolean;
  @Field({ defaultValue: false }) isWebPublic!: boolean;
  @Field(() => Boolean, { nullable: true }) historyPublicToSubscribers?: boolean;
  @Field({ nullable: true, description: '"realm_default", "unlimited" or a number of days.' }) messageRetentionDays?: string;
  @Field({ nullable: true }) topicsPolicy?: string;
  @Field(() => Int, { nullable: true }) folderId?: number;
  @Field(() => ChannelPermissionsInput, { nullable: true }) permissions?: ChannelPermissionsInput;
}

@InputType({ description: 'Subscribes you (or userIds) to channels, creating the missing ones with these settings.' })
export class SubscribeInput extends NewChannelSettingsInput {
  @Field(() => [NewChannelInput]) channels!: NewChannelInput[];
  @Field(() => [Int], { nullable: true, description: 'Whom to subscribe; yourself when absent.' }) userIds?: number[];
  @Field({ defaultValue: true }) authorizationErrorsFatal!: boolean;
}

@InputType({ description: 'A new channel (REST: POST /channels/create); you are subscribed only if listed in subscriberIds.' })
export class CreateChannelInput extends NewChannelSettingsInput {
  @Field() name!: string;
  @Field({ defaultValue: '' }) description!: string;
  @Field(() => [Int]) subscriberIds!: number[];
  @Field({ defaultValue: false, description: 'Whether the notification bot announces the new channel.' }) announce!: boolean;
  @Field({ defaultValue: false, description: 'Makes it a default channel for new users (administrators).' }) isDefaultStream!: boolean;
}

@InputType()
export class UpdateChannelInput {
  @Field({ nullable: true }) newName?: string;
  @Field({ nullable: true }) description?: string;
  @Field(() => Boolean, { nullable: true }) isPrivate?: boolean;
  @Field(() => Boolean, { nullable: true }) isWebPublic?: boolean;
  @Field(() => Boolean, { nullable: true }) historyPublicToSubscribers?: boolean;
  @Field({ nullable: true, description: '"realm_default", "unlimited" or a number of days.' }) messageRetentionDays?: string;
  @Field({ nullable: true }) topicsPolicy?: string;
  @Field(() => Int, { nullable: true, description: 'null takes the channel out of its folder.' }) folderId?: number | null;
  @Field(() => Boolean, { nullable: true, description: 'false unarchives the channel.' }) isArchived?: boolean;
  @Field(() => ChannelPermissionChangesInput, { nullable: true }) permissions?: ChannelPermissionChangesInput;
}

@InputType({ description: 'Your settings for one subscribed channel; each field given is changed.' })
export class SubscriptionPropertiesInput {
  @Field(() => Int) streamId!: number;
  @Field({ nullable: true }) color?: string;
  @Field(() => Boolean, { nullable: true }) isMuted?: boolean;
  @Field(() => Boolean, { nullable: true }) pinToTop?: boolean;
  @Field(() => Boolean, { nullable: true }) desktopNotifications?: boolean;
  @Field(() => Boolean, { nullable: true }) audibleNotifications?: boolean;
  @Field(() => Boolean, { nullable: true }) pushNotifications?: boolean;
  @Field(() => Boolean, { nullable: true }) emailNotifications?: boolean;
  @Field(() => Boolean, { nullable: true }) wildcardMentionsNotify?: boolean;
}
