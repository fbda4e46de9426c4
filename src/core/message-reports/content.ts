import { encodeChannel, encodeHashComponent } from '../markdown/url';
import { MAX_MESSAGE_LENGTH, truncateContent } from '../markdown';
import { MAX_REPORT_DESCRIPTION_LENGTH, REPORT_REASONS, ReportType } from './reasons';

/**
 * The text of a moderation request, as Zulip's notification bot writes it: who reported whose
 * message and when, the reason in a quote, and the reported message in a spoiler that links to it.
 */
export interface ReportedPerson {
  id: number;
  full_name: string;
}

export type ReportedPlace =
  | { kind: 'channel'; channelId: number; channelName: string; topic: string }
  /** `participants`: every user of the conversation, ascending ids. */
  | { kind: 'direct'; participants: ReportedPerson[] };

export interface ReportText {
  reporter: ReportedPerson;
  sender: ReportedPerson;
  place: ReportedPlace;
  messageId: number;
  content: string;
  dateSent: Date;
  reportType: ReportType;
  description: string;
  externalUrl: string;
}

// The reported message is cut so that the explanation and the surrounding text still fit.
const SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;
const EMPTY_TOPIC_NAME = 'general chat';

const mention = (p: ReportedPerson) => `@_**${p.full_name}|${p.id}**`;

/** Zulip's `<time:...>` syntax, to the second. */
const globalTime = (date: Date) => `<time:${new Date(date).toISOString().replace(/\.\d+Z$/, '+00:00')}>`;

/** "A", "A and B", "A, B, and C". */
function listOf(names: string[]): string {
  if (names.length <= 1) return names.join('');
  const head = names.slice(0, -1).join(', ');
  return `${head}${names.length > 2 ? ',' : ''} and ${names[names.length - 1]}`;
}

/** A code fence longer than any the content opens, so the content cannot close it. */
function unusedFence(content: string): string {
  let length = 3;
  for (const match of content.matchAll(/^ {0,3}(`{3,})/gm)) length = Math.max(length, match[1].length + 1);
  return '`'.repeat(length);
}

// Characters that break the #**channel>topic@id** syntax; a plain Markdown link is used instead.
const BREAKS_LINK_SYNTAX = /[`>*&[\]]|\$\$/;
const ESCAPES: Record<string, string> = { '`': '&#96;', '>': '&gt;', '*': '&#42;', '&': '&amp;', $$: '&#36;&#36;', '[': '&#91;', ']': '&#93;' };
const escapeLinkText = (text: string) => text.replace(/[`>*&[\]]|\$\$/g, (c) => ESCAPES[c] ?? c);

function channelMessageLink(place: Extract<ReportedPlace, { kind: 'channel' }>, messageId: number): string {
  if (!BREAKS_LINK_SYNTAX.test(place.topic) && !BREAKS_LINK_SYNTAX.test(place.channelName)) {
    return `#**${place.channelName}>${place.topic}@${messageId}**`;
  }
  const url = `#narrow/channel/${encodeChannel(place.channelId, place.channelName)}/topic/${encodeHashComponent(place.topic)}/near/${messageId}`;
  const topic = place.topic === '' ? EMPTY_TOPIC_NAME : place.topic;
  return `[#${escapeLinkText(place.channelName)} > ${escapeLinkText(topic)} @ 💬](${url})`;
}

function directMessageUrl(externalUrl: string, participants: ReportedPerson[], messageId: number): string {
  const ids = participants.map((p) => p.id);
  const slug = `${ids.join(',')}-${ids.length >= 3 ? 'group' : 'dm'}`;
  return `${externalUrl}/#narrow/dm/${slug}/near/${messageId}`;
}

function header(r: ReportText): string {
  const by = mention(r.reporter);
  const sender = mention(r.sender);
  const at = globalTime(r.dateSent);
  if (r.place.kind === 'channel') return `${by} reported a message sent by ${sender} at ${at}.`;
  const others = r.place.participants.filter((p) => p.id !== r.sender.id);
  if (r.place.participants.length <= 2) {
    if (r.reporter.id !== r.sender.id) return `${by} reported a direct message sent by ${sender} at ${at}.`;
    // Someone reporting their own direct message: say to whom it went.
    const recipient = others.length > 0 ? mention(others[0]) : by;
    return `${by} reported a direct message sent by ${sender} to ${recipient} at ${at}.`;
  }
  const recipients = listOf(others.map(mention).sort());
  return `${by} reported a direct message sent by ${sender} to ${recipients} at ${at}.`;
}

export function reportContent(r: ReportText): string {
  const original =
    r.place.kind === 'channel'
      ? `Original message at ${channelMessageLink(r.place, r.messageId)}`
      : `[Original message](${directMessageUrl(r.externalUrl, r.place.participants, r.messageId)})`;
  const snippet = truncateContent(r.content, SNIPPET_LENGTH, '\n[message truncated]');
  const fence = unusedFence(snippet);
  return [header(r), '```quote', `**${REPORT_REASONS[r.reportType]}**. ${r.description}`, '```', '', `${fence} spoiler ${original}`, snippet, fence].join('\n');
}

/** The topic reports about a user go to. */
export const reportTopic = (sender: ReportedPerson) => `${sender.full_name} moderation`;
