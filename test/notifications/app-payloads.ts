/**
 * What the Zulip mobile app reads from a decrypted E2EE notification, checked as strictly as the
 * app's own decoder: each field it needs, with its type. A payload it could not read throws.
 */
export type AppPayload =
  | {
      type: 'message';
      realmUrl: string;
      realmName: string | null;
      userId: number;
      senderId: number;
      senderAvatarUrl: string;
      senderFullName: string;
      messageId: number;
      time: number;
      content: string;
      recipient: { channelId: number; channelName: string | null; topic: string } | { recipientUserIds: number[] };
    }
  | { type: 'remove'; realmUrl: string; realmName: string | null; userId: number; messageIds: number[] };

function need<T>(json: Record<string, unknown>, key: string, check: (v: unknown) => v is T, what: string): T {
  const value = json[key];
  if (!check(value)) throw new Error(`payload field ${key}: expected ${what}, got ${JSON.stringify(value)}`);
  return value;
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isStringOrNull = (v: unknown): v is string | null => v === null || v === undefined || typeof v === 'string';
const isIntList = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt);
const isUrl = (v: unknown): v is string => {
  if (typeof v !== 'string') return false;
  try {
    return new URL(v).protocol.startsWith('http');
  } catch {
    return false;
  }
};

export function parseAppPayload(json: Record<string, unknown>): AppPayload {
  const identity = {
    realmUrl: need(json, 'realm_url', isUrl, 'an absolute URL'),
    realmName: need(json, 'realm_name', isStringOrNull, 'a string') ?? null,
    userId: need(json, 'user_id', isInt, 'an integer'),
  };
  if (json.type === 'remove') return { type: 'remove', ...identity, messageIds: need(json, 'message_ids', isIntList, 'a list of integers') };
  if (json.type !== 'message') throw new Error(`payload type ${JSON.stringify(json.type)} is not one the app shows`);
  // The app tells the two kinds apart by the presence of channel_id.
  const recipient =
    'channel_id' in json
      ? {
          channelId: need(json, 'channel_id', isInt, 'an integer'),
          channelName: need(json, 'channel_name', isStringOrNull, 'a string') ?? null,
          topic: need(json, 'topic', isString, 'a string'),
        }
      : { recipientUserIds: need(json, 'recipient_user_ids', isIntList, 'a list of integers') };
  return {
    type: 'message',
    ...identity,
    senderId: need(json, 'sender_id', isInt, 'an integer'),
    senderAvatarUrl: need(json, 'sender_avatar_url', isUrl, 'an absolute URL'),
    senderFullName: need(json, 'sender_full_name', isString, 'a string'),
    messageId: need(json, 'message_id', isInt, 'an integer'),
    time: need(json, 'time', isInt, 'an integer'),
    content: need(json, 'content', isString, 'a string'),
    recipient,
  };
}
