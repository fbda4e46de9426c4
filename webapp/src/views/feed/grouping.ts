import { lookup } from '../../app/lookup';
import { encodeHashComponent, narrowHash } from '../../narrow/hash';
import { messageDmKey, type Narrow } from '../../narrow/narrow';
import type { Msg } from '../../state/types';

/** What a message row shows above the message itself, from the message before it. */
export interface RowHeaders {
  /** A new calendar day starts inside a conversation's run (a conversation bar shows its own date). */
  date: boolean;
  /** A new conversation starts here. */
  recipient: boolean;
  /** Avatar, name and time: the first message of a run by one sender. */
  sender: boolean;
}

export function conversationKey(m: Msg, me: number): string {
  return m.type === 'stream' ? `s:${m.streamId}:${m.topic.toLowerCase()}` : `d:${messageDmKey(m, me)}`;
}

const dayOf = (timestamp: number) => new Date(timestamp * 1000).toDateString();

export function rowHeaders(previous: Msg | undefined, m: Msg, me: number): RowHeaders {
  if (!previous) return { date: false, recipient: true, sender: true };
  const recipient = conversationKey(previous, me) !== conversationKey(m, me);
  const date = !recipient && dayOf(previous.timestamp) !== dayOf(m.timestamp);
  const sender = recipient || date || previous.senderId !== m.senderId || m.isMeMessage || previous.isMeMessage;
  return { date, recipient, sender };
}

/** The narrow of a message's conversation. */
export function conversationNarrow(m: Msg, me: number): Narrow {
  if (m.type === 'stream') {
    return [
      { operator: 'channel', operand: String(m.streamId) },
      { operator: 'topic', operand: m.topic },
    ];
  }
  return [{ operator: 'dm', operand: messageDmKey(m, me) }];
}

/** The absolute URL of a message in its conversation, as Zulip links it. */
export function messageUrl(m: Msg, me: number): string {
  const base = `${window.location.origin}/`;
  if (m.type === 'stream') {
    const name = lookup.channelName(m.streamId ?? 0) ?? '';
    const channel = encodeHashComponent(`${m.streamId}-${name.replace(/ /g, '-')}`);
    return `${base}#narrow/channel/${channel}/topic/${encodeHashComponent(m.topic)}/near/${m.id}`;
  }
  return `${base}${narrowHash(conversationNarrow(m, me), lookup, m.id)}`;
}

export function formatTime(timestamp: number, twentyFour: boolean): string {
  return new Date(timestamp * 1000).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit', hour12: !twentyFour });
}

export function formatDate(timestamp: number): string {
  const date = new Date(timestamp * 1000);
  const today = new Date();
  const yesterday = new Date(today.getTime() - 86_400_000);
  if (date.toDateString() === today.toDateString()) return 'Today';
  if (date.toDateString() === yesterday.toDateString()) return 'Yesterday';
  const sameYear = date.getFullYear() === today.getFullYear();
  return date.toLocaleDateString([], { weekday: sameYear ? 'short' : undefined, month: 'short', day: 'numeric', year: sameYear ? undefined : 'numeric' });
}
