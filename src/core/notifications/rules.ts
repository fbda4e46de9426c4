import { FLAG_BITS } from '../messages/flags';
import { VisibilityPolicy } from '../user-topics/store';

/**
 * Which notifications one recipient of one message is due, as Zulip's server decides them
 * (its notification_data): direct messages, personal and group mentions, alert words, wildcard
 * mentions (the user's `wildcard_mentions_notify` or the channel's override, or the followed-topic
 * setting), followed topics, and channel-level email/push settings (the subscription's value, or
 * the user's when it is null). Muted channels and topics silence channel-level and wildcard
 * notifications, not personal ones; a muted sender, a read message and the sender themself get none.
 */

export interface RecipientSettings {
  enable_offline_email_notifications: boolean;
  enable_offline_push_notifications: boolean;
  enable_online_push_notifications: boolean;
  enable_stream_email_notifications: boolean;
  enable_stream_push_notifications: boolean;
  enable_followed_topic_email_notifications: boolean;
  enable_followed_topic_push_notifications: boolean;
  enable_followed_topic_wildcard_mentions_notify: boolean;
  wildcard_mentions_notify: boolean;
}

export const RECIPIENT_SETTING_NAMES: readonly (keyof RecipientSettings)[] = [
  'enable_offline_email_notifications',
  'enable_offline_push_notifications',
  'enable_online_push_notifications',
  'enable_stream_email_notifications',
  'enable_stream_push_notifications',
  'enable_followed_topic_email_notifications',
  'enable_followed_topic_push_notifications',
  'enable_followed_topic_wildcard_mentions_notify',
  'wildcard_mentions_notify',
];

/** The subscription's own values; null inherits the user's setting. */
export interface SubscriptionOverrides {
  is_muted: boolean;
  email_notifications: boolean | null;
  push_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

export interface RecipientContext {
  userId: number;
  senderId: number;
  flags: number;
  settings: RecipientSettings;
  /** Channel messages only: the recipient's subscription (null when not subscribed). */
  subscription: SubscriptionOverrides | null;
  /** The recipient's visibility policy for the message's topic (0 when none). */
  topicPolicy: number;
  senderMuted: boolean;
  /** No active client within the presence window. */
  away: boolean;
}

export interface Decision {
  /** Trigger of the missed-message email, or null. */
  email: string | null;
  /** Trigger of the mobile notification, or null. */
  push: string | null;
}

const has = (flags: number, bit: number) => (flags & bit) !== 0;

export function decide(ctx: RecipientContext): Decision {
  const none = { email: null, push: null };
  if (ctx.userId === ctx.senderId || ctx.senderMuted || has(ctx.flags, FLAG_BITS.read)) return none;
  const s = ctx.settings;
  const isPrivate = has(ctx.flags, FLAG_BITS.is_private);

  // In the order Zulip names the trigger when several apply.
  const personal: string | null = isPrivate
    ? 'direct_message'
    : has(ctx.flags, FLAG_BITS.mentioned) || has(ctx.flags, FLAG_BITS.has_alert_word)
      ? 'mentioned'
      : has(ctx.flags, FLAG_BITS.group_mentioned)
        ? 'mentioned'
        : null;

  const followed = ctx.topicPolicy === VisibilityPolicy.FOLLOWED;
  const unmuted = ctx.topicPolicy === VisibilityPolicy.UNMUTED;
  const sub = ctx.subscription;
  const silenced = !isPrivate && (ctx.topicPolicy === VisibilityPolicy.MUTED || (sub !== null && sub.is_muted && !unmuted && !followed));

  const topicWildcard = has(ctx.flags, FLAG_BITS.topic_wildcard_mentioned);
  const streamWildcard = has(ctx.flags, FLAG_BITS.stream_wildcard_mentioned);
  let wildcard: string | null = null;
  if (!isPrivate && (topicWildcard || streamWildcard)) {
    const notify = sub?.wildcard_mentions_notify ?? s.wildcard_mentions_notify;
    const kind = topicWildcard ? 'topic_wildcard_mentioned' : 'stream_wildcard_mentioned';
    if (followed && s.enable_followed_topic_wildcard_mentions_notify) wildcard = `${kind}_in_followed_topic`;
    else if (notify && !silenced) wildcard = kind;
  }

  const email =
    (personal && s.enable_offline_email_notifications && personal) ||
    (wildcard && s.enable_offline_email_notifications && wildcard) ||
    (!isPrivate && followed && s.enable_followed_topic_email_notifications && 'followed_topic_email_notify') ||
    (!isPrivate && sub && !silenced && (sub.email_notifications ?? s.enable_stream_email_notifications) && 'stream_email_notify') ||
    null;
  const push =
    (personal && s.enable_offline_push_notifications && personal) ||
    (wildcard && s.enable_offline_push_notifications && wildcard) ||
    (!isPrivate && followed && s.enable_followed_topic_push_notifications && 'followed_topic_push_notify') ||
    (!isPrivate && sub && !silenced && (sub.push_notifications ?? s.enable_stream_push_notifications) && 'stream_push_notify') ||
    null;

  // Emails go only to people who are away; mobile notifications also to those who asked for them
  // while online.
  return {
    email: ctx.away ? email : null,
    push: ctx.away || s.enable_online_push_notifications ? push : null,
  };
}
