/** The app's records. Messages are camelCase (as GraphQL gives them); register-shaped data stays as Zulip names it. */
export interface Reaction {
  emojiName: string;
  emojiCode: string;
  reactionType: string;
  userId: number;
}

export interface Submessage {
  id: number;
  senderId: number;
  msgType: string;
  /** JSON text: the widget, or an action on it. */
  content: string;
}

export interface Recipient {
  id: number;
  email: string;
  fullName: string;
}

export interface Msg {
  id: number;
  type: 'stream' | 'private';
  senderId: number;
  senderFullName: string;
  senderEmail: string;
  avatarUrl: string | null;
  streamId: number | null;
  topic: string;
  /** Rendered HTML, as the server sanitized it. */
  content: string;
  timestamp: number;
  flags: string[];
  lastEditTimestamp: number | null;
  lastMovedTimestamp: number | null;
  isMeMessage: boolean;
  /** Participants of a direct message, the sender included. */
  recipients: Recipient[];
  reactions: Reaction[];
  /** Poll and to-do list data, oldest first (absent on local echoes). */
  submessages?: Submessage[];
  /** Search results: the content and topic with the matches marked. */
  matchContent?: string | null;
  matchTopic?: string | null;
  /** A message of this tab not yet acknowledged by the server (local echo). */
  local?: { localId: string; failed: boolean };
}

export interface UserRecord {
  user_id: number;
  email: string;
  delivery_email?: string | null;
  full_name: string;
  avatar_url: string | null;
  role: number;
  is_active: boolean;
  is_bot: boolean;
  is_admin?: boolean;
  is_owner?: boolean;
  is_guest?: boolean;
  timezone?: string;
  date_joined?: string;
  profile_data?: Record<string, { value: string; rendered_value?: string }>;
  bot_owner_id?: number | null;
}

export interface ChannelRecord {
  stream_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public?: boolean;
  is_archived?: boolean;
  history_public_to_subscribers?: boolean;
  date_created?: number;
  stream_post_policy?: number;
  folder_id?: number | null;
  [key: string]: unknown;
}

export interface SubscriptionRecord extends ChannelRecord {
  color: string;
  pin_to_top: boolean;
  is_muted: boolean;
  in_home_view?: boolean;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
  subscribers?: number[];
}

/** Where an unread message lives. */
export type UnreadPlace = { kind: 'stream'; streamId: number; topic: string } | { kind: 'dm'; key: string };

export interface PresenceRecord {
  active_timestamp: number;
  idle_timestamp: number;
}

export interface DraftRecord {
  id: number;
  type: 'stream' | 'private' | '';
  to: number[];
  topic: string;
  content: string;
  timestamp: number;
}
