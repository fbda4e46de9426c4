import type { Config } from '../../config';
import { htmlToText } from '../email/templates';
import type { MentionedGroup } from './mentioned-group';
import type { NotifiedMessage } from './messages';

/**
 * What mobile notifications carry, in the shapes of Zulip's server: the E2EE plaintext (Zulip's
 * mobile notifications documentation) and the legacy FCM (`gcm_payload`) and APNs payloads.
 */

export interface RealmIdentity {
  realmId: number;
  realmName: string;
  realmUrl: string;
  /** The server's host, as the legacy payloads name it. */
  server: string;
}

export function realmIdentity(config: Config, realmId: number, realmName: string): RealmIdentity {
  return { realmId, realmName, realmUrl: config.externalUrl, server: new URL(config.externalUrl).host };
}

/** Content as the apps show it: text, at most 200 characters in the legacy payloads (as Zulip's). */
function mobileContent(m: NotifiedMessage, limit: number | null): { content: string; truncated: boolean } {
  const text = htmlToText(m.html);
  if (limit === null || [...text].length <= limit) return { content: text, truncated: false };
  return { content: `${[...text].slice(0, limit).join('')}…`, truncated: true };
}

const seconds = (d: Date) => Math.floor(d.getTime() / 1000);

/** A conversation's participants, ascending, including the recipient and the sender. */
function dmParticipants(m: NotifiedMessage, userId: number): number[] {
  return [...new Set([...m.dmUserIds, userId, m.senderId])].sort((a, b) => a - b);
}

export function e2eeMessagePayload(realm: RealmIdentity, userId: number, m: NotifiedMessage, group: MentionedGroup | null = null): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    content: mobileContent(m, null).content,
    message_id: m.id,
    realm_name: realm.realmName,
    realm_url: realm.realmUrl,
    sender_avatar_url: m.senderAvatarUrl,
    sender_full_name: m.senderName,
    sender_id: m.senderId,
    time: seconds(m.time),
    type: 'message',
    user_id: userId,
  };
  if (m.streamId !== null) {
    Object.assign(payload, { recipient_type: 'channel', channel_id: m.streamId, channel_name: m.streamName, topic: m.topic });
    if (group) Object.assign(payload, { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name });
  } else {
    payload.recipient_type = 'direct';
    // Every participant, ascending, for 1:1 and group conversations alike: what the apps read to
    // find the conversation (it replaced the group-only pm_users at feature level 429).
    payload.recipient_user_ids = dmParticipants(m, userId);
  }
  return payload;
}

export function e2eeRemovePayload(realm: RealmIdentity, userId: number, messageIds: number[]): Record<string, unknown> {
  return { message_ids: messageIds, realm_name: realm.realmName, realm_url: realm.realmUrl, type: 'remove', user_id: userId };
}

function legacyBase(realm: RealmIdentity, userId: number): Record<string, unknown> {
  return {
    server: realm.server,
    realm_id: realm.realmId,
    realm_name: realm.realmName,
    realm_uri: realm.realmUrl,
    realm_url: realm.realmUrl,
    user_id: userId,
  };
}

function legacyMessageFields(realm: RealmIdentity, userId: number, m: NotifiedMessage): Record<string, unknown> {
  const data: Record<string, unknown> = { ...legacyBase(realm, userId), sender_id: m.senderId, sender_email: m.senderEmail, time: seconds(m.time) };
  if (m.streamId !== null) Object.assign(data, { recipient_type: 'stream', stream: m.streamName, stream_id: m.streamId, topic: m.topic });
  else {
    data.recipient_type = 'private';
    if (m.dmUserIds.length > 2) data.pm_users = m.dmUserIds.join(',');
  }
  return data;
}

/** The notification's title, as Zulip writes it. */
function alertTitle(m: NotifiedMessage, userId: number, trigger: string): string {
  if (m.streamId === null) {
    if (m.dmUserIds.length > 2)
      return m.dmUserIds
        .filter((id) => id !== userId)
        .map((id) => m.names.get(id))
        .join(', ');
    return m.senderName;
  }
  const where = `#${m.streamName} > ${m.topic}`;
  return trigger === 'mentioned' ? `${m.senderName} mentioned you in ${where}` : where;
}

export function legacyGcmPayload(realm: RealmIdentity, userId: number, m: NotifiedMessage, group: MentionedGroup | null = null): Record<string, unknown> {
  const { content, truncated } = mobileContent(m, 200);
  return {
    ...(group ? { mentioned_user_group_id: group.id, mentioned_user_group_name: group.name } : {}),
    ...legacyMessageFields(realm, userId, m),
    event: 'message',
    zulip_message_id: m.id,
    content,
    content_truncated: truncated,
    sender_full_name: m.senderName,
    sender_avatar_url: m.senderAvatarUrl,
  };
}

export function legacyApnsPayload(realm: RealmIdentity, userId: number, m: NotifiedMessage, trigger: string): Record<string, unknown> {
  const { content } = mobileContent(m, 200);
  const body = m.streamId !== null || m.dmUserIds.length > 2 ? `${m.senderName}: ${content}` : content;
  return {
    alert: { title: alertTitle(m, userId, trigger), subtitle: '', body },
    sound: 'default',
    badge: 0,
    custom: { zulip: { ...legacyMessageFields(realm, userId, m), message_ids: [m.id] } },
  };
}

/** What a legacy notification says instead of the message while encryption is required. */
const REDACTED_CONTENT = 'New message';

/**
 * The organization's require_e2ee_push_notifications: legacy tokens get no encryption, so their
 * payloads say "New message" instead of the content (encrypted ones keep it), as in Zulip.
 */
export function redactLegacyPayloads(gcm: Record<string, unknown>, apns: Record<string, unknown>) {
  return {
    gcm: { ...gcm, content: REDACTED_CONTENT, content_truncated: false },
    apns: { ...apns, alert: { ...(apns.alert as Record<string, unknown>), body: REDACTED_CONTENT } },
  };
}

export function legacyRemovePayloads(
  realm: RealmIdentity,
  userId: number,
  messageIds: number[],
): { gcm: Record<string, unknown>; apns: Record<string, unknown> } {
  const ids = messageIds.join(',');
  return {
    gcm: { ...legacyBase(realm, userId), event: 'remove', zulip_message_ids: ids, zulip_message_id: messageIds[0] },
    apns: { badge: 0, custom: { zulip: { ...legacyBase(realm, userId), event: 'remove', zulip_message_ids: ids } } },
  };
}
