import { archiveChannel, ChannelChanges, GroupSettingChange, NewChannelSettings, updateChannel } from '../core/channels/admin-actions';
import { subscribe, unsubscribe, updateSubscriptionProperties } from '../core/channels/subscription-actions';
import { CHANNEL_PERMISSION_SETTING_NAMES, ChannelPermissionSetting, MAX_CHANNEL_DESCRIPTION_LENGTH, TOPICS_POLICIES } from '../core/channels/constants';
import type { AnonymousGroupValue, GroupSettingValue } from '../core/channels/group-settings';
import {
  getChannelForViewer,
  getChannelIdByName,
  getChannelsForViewer,
  getChannelSubscribers,
  getSubscriptionStatus,
  getUserChannelIds,
  listSubscriptions,
} from '../core/channels/queries';
import { checkColor } from '../core/channels/validation';
import { updateOwnSubscriptions } from '../core/channels/update-subscriptions';
import { createChannel } from '../core/channels/create-channel';
import { channelEmailAddress } from '../core/channels/email-address';
import { errors } from '../errors';
import { Decoded, endpoint, p, Param } from './endpoint';
import { includeSubscribers } from './include-subscribers';
import type { Route } from './router';
import { v, Validator } from '../validation/validate';

/** A group-setting value: a group id, or {direct_members, direct_subgroups}. */
const groupSettingValue: Validator<GroupSettingValue> = (value, name) => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return v.dict<AnonymousGroupValue & Record<string, unknown>>({
      direct_members: v.list(v.int()),
      direct_subgroups: v.list(v.int()),
    })(value, name);
  }
  return v.int()(value, name);
};

const groupSettingChange: Validator<GroupSettingChange> = (value, name) =>
  v.dict<GroupSettingChange & Record<string, unknown>>({ new: groupSettingValue }, { old: groupSettingValue })(value, name);

/** principals: user ids (preferred) or API email addresses, not a mix. */
const principals: Validator<string[] | number[]> = (value, name) => {
  if (!Array.isArray(value)) throw errors.badRequest(`${name} is not a list`);
  if (value.every((item) => typeof item === 'string')) return value as string[];
  if (value.every((item) => typeof item === 'number' && Number.isSafeInteger(item))) return value as number[];
  throw errors.badRequest(`${name} is not a string or an integer list`);
};

/**
 * "realm_default", "unlimited" or a number of days. Clients send it JSON-encoded or bare (the API
 * description does not mark it as JSON), so text that is not JSON is taken as the string itself.
 */
const retentionDays = () =>
  new Param<string | number>((raw, name) => {
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      return raw;
    }
    return typeof value === 'string' ? value : v.int()(value, name);
  });

function groupSettingParams<T>(make: () => Param<T>): Record<ChannelPermissionSetting, Param<T | undefined>> {
  return Object.fromEntries(CHANNEL_PERMISSION_SETTING_NAMES.map((name) => [name, make().optional()])) as Record<
    ChannelPermissionSetting,
    Param<T | undefined>
  >;
}

function pickGroupSettings<T>(params: Record<string, unknown>): Partial<Record<ChannelPermissionSetting, T>> {
  const out: Partial<Record<ChannelPermissionSetting, T>> = {};
  for (const name of CHANNEL_PERMISSION_SETTING_NAMES) if (params[name] !== undefined) out[name] = params[name] as T;
  return out;
}

/** The settings of a channel being created, shared by POST /users/me/subscriptions and POST /channels/create. */
const newChannelParams = {
  announce: p.bool().default(false),
  invite_only: p.bool().default(false),
  is_web_public: p.bool().default(false),
  history_public_to_subscribers: p.bool().optional(),
  message_retention_days: retentionDays().default('realm_default'),
  topics_policy: p.json(v.oneOf(TOPICS_POLICIES)).optional(),
  folder_id: p.json(v.nullable(v.int())).optional(),
  ...groupSettingParams(() => p.json(groupSettingValue)),
};

function newChannelSettings(params: Decoded<typeof newChannelParams>): NewChannelSettings {
  return {
    inviteOnly: params.invite_only,
    isWebPublic: params.is_web_public,
    historyPublicToSubscribers: params.history_public_to_subscribers ?? null,
    messageRetentionDays: params.message_retention_days,
    topicsPolicy: params.topics_policy,
    folderId: params.folder_id,
    groupSettings: pickGroupSettings<GroupSettingValue>(params),
  };
}

const subscriptionRequest = v.list(
  v.dict<{ name: string; description?: string; color?: string }>(
    { name: v.string() },
    {
      description: v.string({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }),
      color: (value) => checkColor('add.color', value),
    },
  ),
);

/** One property of one subscription; the value is a JSON boolean or plain text (a color). */
const oneSubscriptionProperty = endpoint({
  params: {
    stream_id: p.path.int(),
    property: p.string(),
    value: new Param<boolean | string>((raw) => (raw === 'true' ? true : raw === 'false' ? false : raw)),
  },
  handler: async ({ deps, user, params }) => {
    await updateSubscriptionProperties(deps, user, [{ stream_id: params.stream_id, property: params.property, value: params.value }]);
  },
});

export const channelRoutes: Route[] = [
  {
    method: 'GET',
    path: '/users/me/subscriptions',
    endpoint: endpoint({
      params: { include_subscribers: includeSubscribers().default(false) },
      handler: async ({ deps, user, params }) => ({
        subscriptions: await listSubscriptions(deps, user, params.include_subscribers),
      }),
    }),
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions',
    endpoint: endpoint({
      params: {
        subscriptions: p.json(subscriptionRequest),
        principals: p.json(principals).optional(),
        authorization_errors_fatal: p.bool().default(true),
        ...newChannelParams,
      },
      handler: async ({ deps, user, params }) => {
        const result = await subscribe(deps, user, {
          subscriptions: params.subscriptions,
          principals: params.principals,
          authorizationErrorsFatal: params.authorization_errors_fatal,
          announce: params.announce,
          ...newChannelSettings(params),
        });
        return { ...result };
      },
    }),
  },
  {
    // Creates a channel without subscribing the caller (unless listed in subscribers).
    method: 'POST',
    path: '/channels/create',
    endpoint: endpoint({
      params: {
        name: p.string(),
        description: p.string({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }).default(''),
        subscribers: p.json(v.list(v.int())),
        is_default_stream: p.bool().default(false),
        ...newChannelParams,
      },
      handler: async ({ deps, user, params }) => ({
        id: await createChannel(deps, user, {
          name: params.name,
          description: params.description,
          subscribers: params.subscribers,
          announce: params.announce,
          isDefaultStream: params.is_default_stream,
          ...newChannelSettings(params),
        }),
      }),
    }),
  },
  {
    method: 'PATCH',
    path: '/users/me/subscriptions',
    endpoint: endpoint({
      params: { add: p.json(subscriptionRequest).default([]), delete: p.json(v.list(v.string())).default([]) },
      handler: async ({ deps, user, params }) => ({ ...(await updateOwnSubscriptions(deps, user, params.add, params.delete)) }),
    }),
  },
  {
    method: 'DELETE',
    path: '/users/me/subscriptions',
    endpoint: endpoint({
      params: { subscriptions: p.json(v.list(v.string())), principals: p.json(principals).optional() },
      handler: async ({ deps, user, params }) => unsubscribe(deps, user, params.subscriptions, params.principals),
    }),
  },
  {
    method: 'POST',
    path: '/users/me/subscriptions/properties',
    endpoint: endpoint({
      params: {
        subscription_data: p.json(
          v.list(v.dict<{ stream_id: number; property: string; value: unknown }>({ stream_id: v.int(), property: v.string(), value: v.any() })),
        ),
      },
      handler: async ({ deps, user, params }) => {
        await updateSubscriptionProperties(deps, user, params.subscription_data);
      },
    }),
  },
  // Zulip's method is PATCH; POST is kept for clients written against earlier Parley releases.
  { method: 'PATCH', path: '/users/me/subscriptions/:stream_id', endpoint: oneSubscriptionProperty },
  { method: 'POST', path: '/users/me/subscriptions/:stream_id', endpoint: oneSubscriptionProperty },
  {
    method: 'GET',
    path: '/users/:user_id/subscriptions/:stream_id',
    endpoint: endpoint({
      params: { user_id: p.path.int(), stream_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({
        is_subscribed: await getSubscriptionStatus(deps, user, params.user_id, params.stream_id),
      }),
    }),
  },
  {
    method: 'GET',
    path: '/users/:user_id/channels',
    endpoint: endpoint({
      params: { user_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({
        subscribed_channel_ids: await getUserChannelIds(deps, user, params.user_id),
      }),
    }),
  },
  {
    method: 'GET',
    path: '/streams',
    endpoint: endpoint({
      params: {
        include_public: p.bool().default(true),
        include_web_public: p.bool().default(false),
        include_subscribed: p.bool().default(true),
        exclude_archived: p.bool().default(true),
        include_all: p.bool().default(false),
        include_all_active: p.bool().default(false),
        include_default: p.bool().default(false),
        include_owner_subscribed: p.bool().default(false),
        include_can_access_content: p.bool().default(false),
      },
      handler: async ({ deps, user, params }) => ({
        streams: await getChannelsForViewer(deps, user, {
          includePublic: params.include_public,
          includeWebPublic: params.include_web_public,
          includeSubscribed: params.include_subscribed,
          excludeArchived: params.exclude_archived,
          // include_all_active is the deprecated name of include_all.
          includeAll: params.include_all || params.include_all_active,
          includeDefault: params.include_default,
          includeOwnerSubscribed: params.include_owner_subscribed,
          includeCanAccessContent: params.include_can_access_content,
        }),
      }),
    }),
  },
  {
    method: 'GET',
    path: '/streams/:stream_id',
    endpoint: endpoint({
      params: { stream_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({ stream: await getChannelForViewer(deps, user, params.stream_id) }),
    }),
  },
  {
    method: 'PATCH',
    path: '/streams/:stream_id',
    endpoint: endpoint({
      params: {
        stream_id: p.path.int(),
        description: p.string({ maxLength: MAX_CHANNEL_DESCRIPTION_LENGTH }).optional(),
        new_name: p.string().alias('name').optional(),
        is_private: p.bool().optional(),
        is_web_public: p.bool().optional(),
        history_public_to_subscribers: p.bool().optional(),
        message_retention_days: retentionDays().optional(),
        is_archived: p.bool().optional(),
        topics_policy: p.enum(TOPICS_POLICIES).optional(),
        folder_id: p.json(v.nullable(v.int())).optional(),
        ...groupSettingParams(() => p.json(groupSettingChange)),
      },
      handler: async ({ deps, user, params }) => {
        const changes: ChannelChanges = {
          newName: params.new_name,
          description: params.description,
          isPrivate: params.is_private,
          isWebPublic: params.is_web_public,
          historyPublicToSubscribers: params.history_public_to_subscribers,
          messageRetentionDays: params.message_retention_days,
          topicsPolicy: params.topics_policy,
          folderId: params.folder_id,
          isArchived: params.is_archived,
          groupSettings: pickGroupSettings<GroupSettingChange>(params),
        };
        await updateChannel(deps, user, params.stream_id, changes);
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/streams/:stream_id',
    endpoint: endpoint({
      params: { stream_id: p.path.int() },
      handler: async ({ deps, user, params }) => {
        await archiveChannel(deps, user, params.stream_id);
      },
    }),
  },
  {
    method: 'GET',
    path: '/streams/:stream_id/members',
    endpoint: endpoint({
      params: { stream_id: p.path.int() },
      handler: async ({ deps, user, params }) => ({ subscribers: await getChannelSubscribers(deps, user, params.stream_id) }),
    }),
  },
  {
    method: 'GET',
    path: '/get_stream_id',
    endpoint: endpoint({
      params: { stream: p.string() },
      handler: async ({ deps, user, params }) => ({ stream_id: await getChannelIdByName(deps, user, params.stream) }),
    }),
  },
  {
    method: 'GET',
    path: '/streams/:stream_id/email_address',
    endpoint: endpoint({
      params: { stream_id: p.path.int(), sender_id: p.int({ min: 0 }).optional() },
      handler: async ({ deps, user, params }) => channelEmailAddress(deps, user, params.stream_id, params.sender_id),
    }),
  },
];
