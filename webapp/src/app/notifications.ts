import { narrowHash } from '../narrow/hash';
import { matchesNarrow, type Narrow } from '../narrow/narrow';
import { isMention, onNewMessage, placeOf } from '../state/apply-event';
import { getApp, topicKey } from '../state/store';
import type { Msg } from '../state/types';
import { lookup } from './lookup';
import { currentRoute, navigate } from './route';
import { FOLLOWED, isMutedPlace } from './unread-counts';

/**
 * Desktop notifications for direct messages, mentions, alert words and the channels the user asked
 * for, as their settings say. Permission is asked only from the user menu, never on load.
 */
export function notificationPermission(): NotificationPermission | 'unsupported' {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

export async function requestNotificationPermission(): Promise<NotificationPermission | 'unsupported'> {
  if (typeof Notification === 'undefined') return 'unsupported';
  return Notification.requestPermission();
}

const setting = (name: string): boolean => Boolean(getApp().settings[name]);

function hasAlertWord(message: Msg): boolean {
  if (message.flags.includes('has_alert_word')) return true;
  const text = plainText(message.content).toLowerCase();
  return getApp().alertWords.some((w) => w && text.includes(w.toLowerCase()));
}

/** Whether the user's settings ask to be told about this message. */
export function shouldNotify(message: Msg): boolean {
  const state = getApp();
  if (message.senderId === state.me || state.mutedUsers.has(message.senderId)) return false;
  if (message.flags.includes('read')) return false;
  if (message.type === 'private') return setting('enable_desktop_notifications');
  const sub = message.streamId !== null ? state.subscriptions.get(message.streamId) : undefined;
  const direct = message.flags.includes('mentioned');
  // A muted channel or topic stays quiet, except for a mention of the user by name (as in Zulip).
  if (!direct && isMutedPlace(state, placeOf(message, state.me))) return false;
  const wildcard = isMention(message.flags) && !direct;
  if (direct || hasAlertWord(message)) return setting('enable_desktop_notifications');
  if (wildcard && (sub?.wildcard_mentions_notify ?? setting('wildcard_mentions_notify'))) return setting('enable_desktop_notifications');
  if (sub?.desktop_notifications ?? setting('enable_stream_desktop_notifications')) return true;
  const followed = message.streamId !== null && state.userTopics.get(topicKey(message.streamId, message.topic)) === FOLLOWED;
  return followed && setting('enable_followed_topic_desktop_notifications');
}

function plainText(html: string): string {
  // DOMParser builds an inert document: nothing in it loads or runs.
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}

function conversationNarrow(message: Msg): Narrow {
  const place = placeOf(message, getApp().me);
  return place.kind === 'dm'
    ? [{ operator: 'dm', operand: place.key }]
    : [
        { operator: 'channel', operand: String(place.streamId) },
        { operator: 'topic', operand: place.topic },
      ];
}

function show(message: Msg): void {
  const state = getApp();
  const channel = message.streamId !== null ? state.channels.get(message.streamId)?.name : undefined;
  const title = message.type === 'private' ? message.senderFullName : `${message.senderFullName} (#${channel ?? '?'} > ${message.topic})`;
  const body = message.type === 'private' && !setting('pm_content_in_desktop_notifications') ? 'New direct message' : plainText(message.content).slice(0, 300);
  const hash = narrowHash(conversationNarrow(message), lookup, message.id);
  const notification = new Notification(title, { body, tag: `parley-${message.id}`, icon: message.avatarUrl ?? undefined });
  notification.onclick = () => {
    window.focus();
    navigate(hash);
    notification.close();
  };
}

let started = false;
export function startNotifications(): void {
  if (started) return;
  started = true;
  onNewMessage((message) => {
    if (notificationPermission() !== 'granted' || !shouldNotify(message)) return;
    // Someone already looking at the conversation needs no notification.
    const route = currentRoute();
    if (document.hasFocus() && route.view === 'narrow' && route.narrow.length > 0 && matchesNarrow(message, route.narrow, getApp().me) === true) return;
    show(message);
  });
}
