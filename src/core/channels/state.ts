import type { ZulipEvent } from '../../realtime/bus';
import type { RegisterOptions, RegisterState, StateSlice } from '../register/slice';
import { loadViewer } from './access';
import { SUBSCRIPTION_NOTIFICATION_SETTINGS, SubscriptionNotificationSetting } from './constants';
import { deliverableWithArchivedChannels } from './events';
import { gatherSubscriptions, listChannelsForViewer, DEFAULT_CHANNEL_LIST_OPTIONS } from './queries';
import { userChannelNotificationDefaults } from './realm-policy';
import type { AppDeps } from '../deps';
import type { Stream } from './model';
import { channelDict, ChannelDict, ChannelViewContext, loadChannelViewContext, SubscriptionDict } from './view';

/**
 * POST /register slices for channels.
 *
 * `subscription` → subscriptions, unsubscribed, never_subscribed. With include_subscribers
 * "true" every entry carries `subscribers`; with "partial", channels of 250 subscribers or more carry
 * `partial_subscribers` instead (their bots and the subscribers active in the last 14 days, as Zulip
 * guarantees; peer events keep both kinds of list and the count). Channels whose subscribers the user
 * may not know get an empty list.
 * Archived channels appear only for clients declaring `archived_channels`.
 *
 * `stream` → streams: every channel the user can see exists (for administrators, all).
 *
 * Events are applied to the raw state, where a subscription's notification settings may be null
 * ("use my default"). `finalize` then resolves those nulls to the user's defaults for clients that
 * did not declare `notification_settings_null`.
 *
 * subscriber_count is kept exact where subscriber lists are tracked (recomputed from them, so
 * applying an event twice is harmless; `streams` entries follow the lists of the same response);
 * without lists it stays as of the snapshot, except that a subscription/add sets it.
 */

type Entry = ChannelDict & Partial<SubscriptionDict>;
const LISTS = ['subscriptions', 'unsubscribed', 'never_subscribed'] as const;

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const wantsSubscribers = (options: RegisterOptions) => options.includeSubscribers !== 'false';
const subscriberListKind = (options: RegisterOptions) => (options.includeSubscribers === 'partial' ? 'partial' : options.includeSubscribers === 'true');

function lists(state: RegisterState): Record<(typeof LISTS)[number], Entry[]> {
  return state as unknown as Record<(typeof LISTS)[number], Entry[]>;
}

function setSubscribers(entry: Entry, ids: Iterable<number>): void {
  entry.subscribers = [...new Set(ids)].sort((a, b) => a - b);
  entry.subscriber_count = entry.subscribers.length;
}

/** Applies a stream/update event's property (and its companion fields) to one channel entry. */
function applyStreamUpdate(entry: Entry, event: ZulipEvent): void {
  (entry as unknown as Record<string, unknown>)[event.property as string] = event.value;
  if (event.property === 'is_archived') entry.is_archived = event.value as boolean;
  for (const extra of ['rendered_description', 'history_public_to_subscribers', 'is_web_public'] as const) {
    if (extra in event) (entry as unknown as Record<string, unknown>)[extra] = event[extra];
  }
}

/**
 * A partial list does not say who else is subscribed, so the count moves by the peer event's users
 * (the event names only users whose subscription changed).
 */
function applyToPartialList(entry: Entry, op: 'peer_add' | 'peer_remove', userIds: Set<number>): void {
  const listed = new Set(entry.partial_subscribers);
  const delta = userIds.size;
  if (op === 'peer_add') for (const id of userIds) listed.add(id);
  else for (const id of userIds) listed.delete(id);
  entry.partial_subscribers = [...listed].sort((a, b) => a - b);
  entry.subscriber_count = Math.max(0, entry.subscriber_count + (op === 'peer_add' ? delta : -delta));
}

export function applySubscriptionEvent(state: RegisterState, event: ZulipEvent, userId: number, options: RegisterOptions): void {
  if (!deliverableWithArchivedChannels(event, options.capabilities.archived_channels)) return;
  const l = lists(state);
  if (event.type === 'subscription') {
    const op = event.op;
    if (op === 'add') {
      const added = event.subscriptions as SubscriptionDict[];
      const ids = new Set(added.map((s) => s.stream_id));
      for (const sub of added) {
        if (l.subscriptions.some((s) => s.stream_id === sub.stream_id)) continue;
        const copy: Entry = structuredClone(sub);
        if (!wantsSubscribers(options)) delete copy.subscribers;
        l.subscriptions.push(copy);
      }
      l.unsubscribed = l.unsubscribed.filter((s) => !ids.has(s.stream_id));
      l.never_subscribed = l.never_subscribed.filter((s) => !ids.has(s.stream_id));
    } else if (op === 'remove') {
      const ids = new Set((event.subscriptions as { stream_id: number }[]).map((s) => s.stream_id));
      const leaving = l.subscriptions.filter((s) => ids.has(s.stream_id));
      for (const sub of leaving) {
        if (sub.subscribers)
          setSubscribers(
            sub,
            sub.subscribers.filter((id) => id !== userId),
          );
        else if (sub.partial_subscribers) applyToPartialList(sub, 'peer_remove', new Set([userId]));
        if (!l.unsubscribed.some((s) => s.stream_id === sub.stream_id)) l.unsubscribed.push(sub);
      }
      l.subscriptions = l.subscriptions.filter((s) => !ids.has(s.stream_id));
    } else if (op === 'update') {
      const sub = l.subscriptions.find((s) => s.stream_id === event.stream_id);
      if (sub) (sub as unknown as Record<string, unknown>)[event.property as string] = event.value;
    } else if (op === 'peer_add' || op === 'peer_remove') {
      const streamIds = new Set(event.stream_ids as number[]);
      const userIds = new Set(event.user_ids as number[]);
      for (const key of LISTS) {
        for (const entry of l[key]) {
          if (!streamIds.has(entry.stream_id)) continue;
          if (entry.subscribers) {
            setSubscribers(entry, op === 'peer_add' ? [...entry.subscribers, ...userIds] : entry.subscribers.filter((id) => !userIds.has(id)));
          } else if (entry.partial_subscribers) {
            applyToPartialList(entry, op, userIds);
          }
        }
      }
    }
  } else if (event.type === 'stream') {
    if (event.op === 'create') {
      for (const stream of event.streams as ChannelDict[]) {
        if (LISTS.some((key) => l[key].some((s) => s.stream_id === stream.stream_id))) continue;
        const copy: Entry = structuredClone(stream);
        if (wantsSubscribers(options)) copy.subscribers = [];
        l.never_subscribed.push(copy);
      }
    } else if (event.op === 'delete') {
      const ids = new Set(event.stream_ids as number[]);
      for (const key of LISTS) l[key] = l[key].filter((s) => !ids.has(s.stream_id));
    } else if (event.op === 'update') {
      for (const key of LISTS) for (const entry of l[key]) if (entry.stream_id === event.stream_id) applyStreamUpdate(entry, event);
    }
  } else {
    return;
  }
  for (const key of LISTS) l[key].sort(byName);
}

export function applyStreamsEvent(state: RegisterState, event: ZulipEvent, options: RegisterOptions): void {
  if (!deliverableWithArchivedChannels(event, options.capabilities.archived_channels)) return;
  let streams = state.streams as ChannelDict[];
  if (event.type === 'stream') {
    if (event.op === 'create') {
      for (const stream of event.streams as ChannelDict[]) {
        if (!streams.some((s) => s.stream_id === stream.stream_id)) streams.push(structuredClone(stream));
      }
    } else if (event.op === 'delete') {
      const ids = new Set(event.stream_ids as number[]);
      streams = streams.filter((s) => !ids.has(s.stream_id));
    } else if (event.op === 'update') {
      for (const entry of streams) if (entry.stream_id === event.stream_id) applyStreamUpdate(entry, event);
    }
  } else if (event.type === 'subscription') {
    if (event.op === 'add') {
      // The subscription carries the channel's current subscriber count.
      for (const sub of event.subscriptions as SubscriptionDict[]) {
        const entry = streams.find((s) => s.stream_id === sub.stream_id);
        if (entry) entry.subscriber_count = sub.subscriber_count;
      }
    }
    syncCountsFromSubscriberLists(state, streams);
  } else {
    return;
  }
  state.streams = streams.sort(byName);
}

/**
 * When the same register response tracks subscriber lists (fetched with `subscription` and
 * include_subscribers), those lists are exact, so channel entries take their counts from them.
 */
function syncCountsFromSubscriberLists(state: RegisterState, streams: ChannelDict[]): void {
  for (const key of LISTS) {
    for (const entry of (state[key] ?? []) as Entry[]) {
      if (!entry.subscribers && !entry.partial_subscribers) continue;
      const stream = streams.find((s) => s.stream_id === entry.stream_id);
      if (stream) stream.subscriber_count = entry.subscribers ? entry.subscribers.length : entry.subscriber_count;
    }
  }
}

/**
 * Both slices present channels with subscriber counts and traffic; one register call computes them
 * once (kept in the call's `perCall` memo), for the larger set of channels asked first.
 */
const VIEW_CONTEXT = 'channels.viewContext';

async function sharedViewContext(deps: AppDeps, options: RegisterOptions, streams: Stream[]): Promise<ChannelViewContext> {
  const known = options.perCall?.get(VIEW_CONTEXT) as ChannelViewContext | undefined;
  if (known && streams.every((s) => known.subscriberCounts.has(s.id))) return known;
  const ctx = await loadChannelViewContext(deps.knex, deps.realmId, streams, { statistics: deps });
  options.perCall?.set(VIEW_CONTEXT, ctx);
  return ctx;
}

export const subscriptionsSlice: StateSlice = {
  fetchTypes: ['subscription'],
  async fetch(deps, user, options) {
    const info = await gatherSubscriptions(deps.knex, user, {
      includeSubscribers: subscriberListKind(options),
      includeArchived: options.capabilities.archived_channels,
      viewContext: (streams) => sharedViewContext(deps, options, streams),
    });
    return { ...info };
  },
  apply(state, event, user, options) {
    applySubscriptionEvent(state, event, user.id, options);
  },
  async finalize(deps, state, user, options) {
    if (options.capabilities.notification_settings_null) return;
    const defaults = await userChannelNotificationDefaults(deps.knex, user);
    for (const key of ['subscriptions', 'unsubscribed'] as const) {
      for (const sub of (state[key] ?? []) as SubscriptionDict[]) {
        for (const [setting, userSetting] of Object.entries(SUBSCRIPTION_NOTIFICATION_SETTINGS)) {
          const name = setting as SubscriptionNotificationSetting;
          if (sub[name] === null) sub[name] = defaults[userSetting];
        }
      }
    }
  },
};

export const streamsSlice: StateSlice = {
  fetchTypes: ['stream'],
  async fetch(deps, user, options) {
    const viewer = await loadViewer(deps.knex, user);
    const streams = await listChannelsForViewer(deps.knex, viewer, {
      ...DEFAULT_CHANNEL_LIST_OPTIONS,
      includeAll: true,
      excludeArchived: !options.capabilities.archived_channels,
    });
    const ctx = await sharedViewContext(deps, options, streams);
    return { streams: streams.map((s) => channelDict(s, ctx)) };
  },
  apply(state, event, _user, options) {
    applyStreamsEvent(state, event, options);
  },
};
