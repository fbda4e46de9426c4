/**
 * Personal message flags, stored per recipient as one integer. The bit positions are Zulip's, so
 * the partial indexes in the migration (unread, starred, mentioned, private) and any data moved
 * between the two systems agree.
 */
export const FLAG_BITS = {
  read: 1,
  starred: 2,
  collapsed: 4,
  mentioned: 8,
  stream_wildcard_mentioned: 16,
  topic_wildcard_mentioned: 32,
  group_mentioned: 64,
  force_expand: 128,
  force_collapse: 256,
  has_alert_word: 512,
  historical: 1024,
  // Bookkeeping only, never shown to clients: direct messages, pending push notifications.
  is_private: 2048,
  active_mobile_push_notification: 4096,
} as const;

export type FlagName = keyof typeof FLAG_BITS;

const ORDER = Object.keys(FLAG_BITS) as FlagName[];

/** Flags clients never see or name. */
export const NON_API_FLAGS: ReadonlySet<FlagName> = new Set(['is_private', 'active_mobile_push_notification']);

/** Flags the server sets; clients may not change them. */
export const NON_EDITABLE_FLAGS: ReadonlySet<FlagName> = new Set([
  'has_alert_word',
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'historical',
  'force_expand',
  'force_collapse',
]);

/** Any kind of mention (the partial index `user_messages_mentioned` uses this mask). */
export const MENTION_MASK = FLAG_BITS.mentioned | FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned | FLAG_BITS.group_mentioned;

/** The flags a user has on a message they can see but never received. */
export const HISTORICAL_FLAGS = FLAG_BITS.read | FLAG_BITS.historical;

export function isApiFlag(name: string): name is FlagName {
  return Object.prototype.hasOwnProperty.call(FLAG_BITS, name) && !NON_API_FLAGS.has(name as FlagName);
}

/**
 * The flag names clients see for a bitmask, in Zulip's order, with the deprecated
 * `wildcard_mentioned` added when either wildcard flag is set.
 */
export function flagList(bits: number): string[] {
  const out: string[] = [];
  for (const name of ORDER) {
    if (bits & FLAG_BITS[name] && !NON_API_FLAGS.has(name)) out.push(name);
  }
  if (bits & (FLAG_BITS.stream_wildcard_mentioned | FLAG_BITS.topic_wildcard_mentioned)) out.push('wildcard_mentioned');
  return out;
}
