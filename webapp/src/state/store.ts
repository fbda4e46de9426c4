import { create } from 'zustand';
import type { ConnectionStatus } from '../api/connection';
import type { ChannelRecord, DraftRecord, Msg, PresenceRecord, SubscriptionRecord, UnreadPlace, UserRecord } from './types';

/** A narrow's messages as far as this tab has them: ids ascending, and whether either end is reached. */
export interface MessageList {
  ids: number[];
  foundOldest: boolean;
  foundNewest: boolean;
  loading: boolean;
  /** The first unread id when the list was opened (where the view starts). */
  firstUnread: number | null;
  error: string | null;
}

export interface TopicInfo {
  name: string;
  maxId: number;
}

export interface UserStatus {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

export interface AppState {
  ready: boolean;
  connection: ConnectionStatus;
  me: number;
  /** The POST /register answer, for what no field below models (realm_* settings, limits, ...). */
  register: Record<string, unknown>;
  settings: Record<string, unknown>;
  users: Map<number, UserRecord>;
  channels: Map<number, ChannelRecord>;
  subscriptions: Map<number, SubscriptionRecord>;
  unread: Map<number, UnreadPlace>;
  mentions: Set<number>;
  topics: Map<number, Map<string, TopicInfo>>;
  recentDms: Map<string, { userIds: number[]; maxId: number }>;
  messages: Map<number, Msg>;
  lists: Map<string, MessageList>;
  /** Who is typing where: conversation key → user id → expiry (ms). */
  typing: Map<string, Map<number, number>>;
  presence: Map<number, PresenceRecord>;
  drafts: Map<number, DraftRecord>;
  /** `${streamId}:${topic lower-cased}` → visibility policy (1 muted, 2 unmuted, 3 followed). */
  userTopics: Map<string, number>;
  mutedUsers: Set<number>;
  userStatus: Map<number, UserStatus>;
  realmEmoji: Record<string, { id: string; name: string; source_url: string; deactivated: boolean; still_url?: string | null }>;
  userGroups: Map<number, { id: number; name: string; description: string; members: number[]; is_system_group: boolean; deactivated?: boolean }>;
  alertWords: string[];
  /** The organization's data exports as the last realm_export event listed them (administrators); null before one. */
  realmExports: Record<string, unknown>[] | null;
}

export const emptyState = (): AppState => ({
  ready: false,
  connection: 'connecting',
  me: 0,
  register: {},
  settings: {},
  users: new Map(),
  channels: new Map(),
  subscriptions: new Map(),
  unread: new Map(),
  mentions: new Set(),
  topics: new Map(),
  recentDms: new Map(),
  messages: new Map(),
  lists: new Map(),
  typing: new Map(),
  presence: new Map(),
  drafts: new Map(),
  userTopics: new Map(),
  mutedUsers: new Set(),
  userStatus: new Map(),
  realmEmoji: {},
  userGroups: new Map(),
  alertWords: [],
  realmExports: null,
});

/** The one store. Changes replace the collections they touch, so that components re-render on identity. */
export const useApp = create<AppState>(() => emptyState());

export const getApp = () => useApp.getState();
export const setApp = (change: Partial<AppState> | ((state: AppState) => Partial<AppState>)) => useApp.setState(change);

export const topicKey = (streamId: number, topic: string) => `${streamId}:${topic.toLowerCase()}`;
